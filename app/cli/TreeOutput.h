// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the CLI prints token-tree rounds (the text counterpart of TreeJson.h); a tree run's summary is the
// RunReport's, as for chains (RunCommand.cpp).

#include "Tokenizer.h"
#include "TreeTrace.h"

namespace specdec::cli {

/// One line per round: the drafted tree's size, the accepted path, the correction or bonus.
void printTreeRound(const TreeTrace &trace, const Tokenizer &vocabulary);
/// The whole tree, one node per line, indented by depth (for --trace).
void printTreeNodes(const TreeTrace &trace, const Tokenizer &vocabulary);

} // namespace specdec::cli
