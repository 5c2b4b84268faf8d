// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Top tokens + others": how a distribution over the whole vocabulary is shown as a few bars. The tokens are
// the `count` most probable under any of the given distributions (weight of a token: its largest probability
// among them; ties by token id), with a marked token always kept; each distribution then reads its value at
// each kept token and, as one last "others" entry, 1 − the sum of those values. The distribution view, the
// lossless lab's "from the models" preset and the handout all use this one projection.

#include "Vocabulary.h"

#include <Eigen/Core>

#include <vector>

namespace specdec {

struct TopTokens
{
    std::vector<TokenId> tokens;
    /// One row per input distribution: its value at each kept token, then "others" (tokens.size() + 1
    /// entries). A null input gives a row of zeros.
    std::vector<std::vector<double>> values;
};

/// Projects `distributions` (null or empty entries allowed: they take no part in choosing the tokens) onto
/// their `count` top tokens, keeping `marked` (when ≥ 0) in place of the last one if it is not among them.
TopTokens topTokens(const std::vector<const Eigen::VectorXd *> &distributions, int count, TokenId marked = -1);

} // namespace specdec
