// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the programs find their data (built corpora, shipped ONNX models, lessons), the same for the command
// line and the window, from any working directory and with no source path compiled in.
//
// A data directory holds corpora/NAME.txt, corpora/NAME/models/*.onnx and lessons/. They are searched in order:
//   1. $SPECDEC_DATA_DIR (':'-separated),
//   2. <bin>/../share/specdec-lab (an installed program: cmake --install, the .deb),
//   3. <bin>/.. when it is a CMake build tree (running from build/bin; the build links the models and lessons
//      of the source tree into it).

#include "Corpus.h"

#include <QString>
#include <QStringList>

namespace specdec::app {

/// The existing data directories, in search order (absolute, without duplicates).
QStringList dataDirectories();

/// The first existing DIR/relative of the data directories (e.g. dataPath("lessons")); empty when none exists.
QString dataPath(const QString &relative);

/// Built corpora: $SPECDEC_CORPUS_DIR (':'-separated), then DIR/corpora of each data directory; relative
/// onnx: paths that are not found as given are looked up under the data directories.
CorpusCatalog corpusCatalog();

} // namespace specdec::app
