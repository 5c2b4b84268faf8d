// SPDX-License-Identifier: GPL-3.0-or-later
#include "AppPaths.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

namespace specdec::gui {

QStringList onnxModelFiles()
{
    QStringList roots;
    for (const QString &data : app::dataDirectories()) {
        const QDir dir(data + QStringLiteral("/corpora"));
        for (const QString &corpus : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            roots << dir.absoluteFilePath(corpus + QStringLiteral("/models"));
    }
    roots << qEnvironmentVariable("SPECDEC_MODEL_DIR").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    QSet<QString> seen;
    QStringList files;
    for (const QString &root : std::as_const(roots)) {
        QDirIterator it(root, {QStringLiteral("*.onnx")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = QFileInfo(it.next()).canonicalFilePath();
            if (!path.isEmpty() && !seen.contains(path)) {
                seen.insert(path);
                files << path;
            }
        }
    }
    files.sort();
    return files;
}

} // namespace specdec::gui
