// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelTitle.h"

#include "ModelFiles.h"

#include <QFileInfo>

namespace specdec::gui {

QString modelTitle(const QString &spec)
{
    const auto model = neuralModel(spec.toStdString());
    if (!model)
        return spec;
    if (model->folder) // a Hugging Face folder by its own name (llama-small)
        return QString::fromStdString(model->folderName());
    // Path text only: the file need not exist (a failed load still gets a title).
    const QFileInfo file(QString::fromStdString(model->path));
    const QFileInfo folder(file.path());
    const QString corpus = QFileInfo(folder.path()).fileName();
    if (folder.fileName() == QLatin1String("models") && !corpus.isEmpty() && corpus != QLatin1String("..")
        && file.suffix().compare(QLatin1String("onnx"), Qt::CaseInsensitive) == 0)
        return corpus + QLatin1Char('/') + file.completeBaseName();
    return file.fileName();
}

QString modelToolTip(const QString &spec)
{
    const auto model = neuralModel(spec.toStdString());
    if (!model)
        return spec;
    const QString path = QString::fromStdString(model->path);
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return (model->folder ? QStringLiteral("Hugging Face: ") : QStringLiteral("ONNX: "))
        + (canonical.isEmpty() ? path : canonical);
}

} // namespace specdec::gui
