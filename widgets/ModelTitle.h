// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the window names a model spec: ngram:4 stays ngram:4; an ONNX file becomes "onnx:<corpus>/<file>" when it
// sits in a <corpus>/models folder (else "onnx:<file>"), instead of a whole absolute path.

#include <QString>

#include <string>

namespace specdec::gui {

QString modelTitle(const QString &spec);
inline QString modelTitle(const std::string &spec) { return modelTitle(QString::fromStdString(spec)); }

} // namespace specdec::gui
