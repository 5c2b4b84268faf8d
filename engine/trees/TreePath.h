// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accepted path of a token-tree round read as a chain: a RoundTrace with one position per depth, so the
// views and metrics made for chains (transcript, timeline, plots, alpha-hat per position, tokens per target
// call) also follow tree rounds. Position d is the child accepted at depth d, or at the depth where every
// child was rejected the last one tested (rejected), and below it the first child of that node (discarded).
// Its overlap is the exact chance that the node's test accepts some child,
// \f$1 - \prod_{j=1}^{k} (1 - \sum_x \min(p_j(x), q(x)))\f$ (= beta for k = 1), so mean overlap and alpha-hat
// estimate the same number. The projection carries no distribution vectors: the TreeTrace keeps them.

#include "RoundTrace.h"
#include "TreeTrace.h"

namespace specdec {

/// The chain view of `tree` (see the header comment). K is the tree's depth; calls and times are the round's.
RoundTrace pathTrace(const TreeTrace &tree);

} // namespace specdec
