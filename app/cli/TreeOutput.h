// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the CLI prints token-tree rounds and their metrics (the text counterpart of TreeJson.h).

#include "TreeMetrics.h"
#include "TreeTrace.h"
#include "Vocabulary.h"

namespace specdec::cli {

/// One line per round: the drafted tree's size, the accepted path, the correction or bonus.
void printTreeRound(const TreeTrace &trace, const Vocabulary &vocabulary);
/// The whole tree, one node per line, indented by depth (for --trace).
void printTreeNodes(const TreeTrace &trace, const Vocabulary &vocabulary);
/// Calls, tokens per target call, acceptance per depth, nodes per accepted token, the one-node formula.
void printTreeSummary(const TreeMetrics &metrics);

} // namespace specdec::cli
