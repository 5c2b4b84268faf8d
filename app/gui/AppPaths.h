// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the app finds its data: built corpora and the ONNX models trained on them.

#include "CorpusLocations.h"

#include <QStringList>

namespace specdec::gui {

using app::corpusCatalog; // built corpora: shared with the command line
using app::dataPath;
/// Every *.onnx under DIR/corpora/*/models of each data directory (app::dataDirectories) and under
/// $SPECDEC_MODEL_DIR (':'-separated, searched recursively); sorted, without duplicates.
QStringList onnxModelFiles();

} // namespace specdec::gui
