#include "AppPaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

namespace specdec::gui {

QStringList onnxModelFiles()
{
    QStringList roots;
    const QString bin = QCoreApplication::applicationDirPath();
    const QStringList sources = {QString(bin + QStringLiteral("/../../corpora")), QStringLiteral(SPECDEC_SOURCE_CORPORA)};
    for (const QString &source : sources) {
        const QDir dir(source);
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

QString modelTitle(const std::string &described)
{
    const QString spec = QString::fromStdString(described);
    if (!spec.startsWith(QLatin1String("onnx:")))
        return spec;
    // Path text only: the file need not exist (a failed load still gets a title).
    const QFileInfo file(spec.mid(5));
    const QFileInfo folder(file.path());
    const QString corpus = QFileInfo(folder.path()).fileName();
    if (folder.fileName() == QLatin1String("models") && !corpus.isEmpty() && corpus != QLatin1String(".."))
        return QStringLiteral("onnx:") + corpus + QLatin1Char('/') + file.fileName();
    return QStringLiteral("onnx:") + file.fileName();
}

} // namespace specdec::gui
