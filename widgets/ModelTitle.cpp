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
    if (folder.fileName() == QLatin1String("models") && !corpus.isEmpty() && corpus != QLatin1String(".."))
        return QStringLiteral("onnx:") + corpus + QLatin1Char('/') + file.fileName();
    return QStringLiteral("onnx:") + file.fileName();
}

} // namespace specdec::gui
