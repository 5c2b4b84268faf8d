// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelTitle.h"

#include <QFileInfo>

namespace specdec::gui {

QString modelTitle(const QString &spec)
{
    if (!spec.startsWith(QLatin1String("onnx:")))
        return spec;
    // Path text only: the file need not exist (a failed load still gets a title).
    const QFileInfo file(spec.mid(5));
    const QFileInfo folder(file.path());
    const QString corpus = QFileInfo(folder.path()).fileName();
    if (folder.fileName() == QLatin1String("models") && !corpus.isEmpty() && corpus != QLatin1String("..")
        && file.suffix().compare(QLatin1String("onnx"), Qt::CaseInsensitive) == 0)
        return corpus + QLatin1Char('/') + file.completeBaseName();
    return file.fileName();
}

QString modelToolTip(const QString &spec)
{
    if (!spec.startsWith(QLatin1String("onnx:")))
        return spec;
    const QString path = spec.mid(5);
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return QStringLiteral("ONNX: ") + (canonical.isEmpty() ? path : canonical);
}

} // namespace specdec::gui
