// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the window names a model spec, short and unique: ngram:4 stays ngram:4; a shipped ONNX model (a file in
// a <corpus>/models folder) becomes "<corpus>/<name>" (kjv/target, kjv/draft-small); any other ONNX file its
// file name (mine.onnx); a Hugging Face folder (hf:PATH) its folder's name (llama-small). Which specs are such
// models is ModelFiles.h's neuralModel. The whole path goes in the tool tip (modelToolTip).

#include <QString>

#include <string>

namespace specdec::gui {

QString modelTitle(const QString &spec);
inline QString modelTitle(const std::string &spec)
{
    return modelTitle(QString::fromStdString(spec));
}
/// The tool tip of a model: the spec with its whole path.
QString modelToolTip(const QString &spec);

} // namespace specdec::gui
