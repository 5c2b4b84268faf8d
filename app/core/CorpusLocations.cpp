// SPDX-License-Identifier: GPL-3.0-or-later
#include "CorpusLocations.h"

#include <QCoreApplication>
#include <QDir>

namespace specdec::app {

CorpusCatalog corpusCatalog()
{
    std::vector<std::string> dirs;
    const QString env = qEnvironmentVariable("SPECDEC_CORPUS_DIR");
    for (const QString &dir : env.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        dirs.push_back(dir.toStdString());
    dirs.push_back(QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/../corpora")).absolutePath().toStdString());
    return CorpusCatalog(dirs);
}

} // namespace specdec::app
