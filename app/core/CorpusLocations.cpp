// SPDX-License-Identifier: GPL-3.0-or-later
#include "CorpusLocations.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace specdec::app {

QStringList dataDirectories()
{
    QStringList candidates = qEnvironmentVariable("SPECDEC_DATA_DIR").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString bin = QCoreApplication::applicationDirPath();
    candidates << bin + QStringLiteral("/../share/specdec-lab");
    if (QFileInfo::exists(bin + QStringLiteral("/../CMakeCache.txt")))
        candidates << bin + QStringLiteral("/..");
    QStringList dirs;
    for (const QString &candidate : std::as_const(candidates)) {
        const QFileInfo info(candidate);
        const QString dir = info.canonicalFilePath();
        if (info.isDir() && !dirs.contains(dir))
            dirs << dir;
    }
    return dirs;
}

QString dataPath(const QString &relative)
{
    for (const QString &dir : dataDirectories()) {
        const QString path = dir + QLatin1Char('/') + relative;
        if (QFileInfo::exists(path))
            return path;
    }
    return {};
}

CorpusCatalog corpusCatalog()
{
    std::vector<std::string> corpusDirs;
    for (const QString &dir : qEnvironmentVariable("SPECDEC_CORPUS_DIR").split(QLatin1Char(':'), Qt::SkipEmptyParts))
        corpusDirs.push_back(dir.toStdString());
    std::vector<std::string> dataDirs;
    for (const QString &dir : dataDirectories()) {
        corpusDirs.push_back(QString(dir + QStringLiteral("/corpora")).toStdString());
        dataDirs.push_back(dir.toStdString());
    }
    return CorpusCatalog(corpusDirs, dataDirs);
}

} // namespace specdec::app
