// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the programs find the built corpora, the same for the command line and the window.

#include "Corpus.h"

namespace specdec::app {

/// Built corpora: $SPECDEC_CORPUS_DIR (':'-separated), then <bin>/../corpora.
CorpusCatalog corpusCatalog();

} // namespace specdec::app
