#pragma once
// Where the app finds its data: built corpora and the ONNX models trained on them.

#include "Corpus.h"

#include <QStringList>

namespace specdec::gui {

/// Built corpora: $SPECDEC_CORPUS_DIR (':'-separated), then <bin>/../corpora.
CorpusCatalog corpusCatalog();
/// Every *.onnx under <source>/corpora/*/models (found next to the build or configured at build time) and
/// under $SPECDEC_MODEL_DIR (':'-separated, searched recursively); sorted, without duplicates.
QStringList onnxModelFiles();

} // namespace specdec::gui
