// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TreeTrace: everything one round of token-tree decoding did, as a copyable value (the tree counterpart of
// RoundTrace): the drafted tree, every test on the accepted path, the correction or the bonus, calls, times.

#include "RoundTrace.h"
#include "TokenTree.h"
#include "TreeAcceptance.h"

#include <Eigen/Core>

#include <vector>

namespace specdec {

/// One drafted node. Nodes are stored depth by depth (breadth first), children of a node consecutive in
/// the order they were drawn and are tested.
struct TreeNode
{
    int parent = -1; ///< index of the parent node; -1 for a child of the root (the committed context)
    int depth = 1;   ///< 1..D
    int sibling = 0; ///< 0-based order among the parent's children (the j - 1 of the rule)
    TokenId token = -1;
    double q = 0.0;                       ///< q(x) at the parent (after the draft sampler)
    double p = 0.0;                       ///< p(x) at the parent (after the target sampler)
    double pUsed = 0.0;                   ///< p'(x) when tested: the residual after the rejected elder siblings
    double threshold = 0.0;               ///< min(1, p'(x)/q(x)) (typical acceptance: 1 or 0)
    double u = -1.0;                      ///< the die; -1 when none was rolled (greedy, untested)
    Verdict verdict = Verdict::Discarded; ///< accepted (on the path), rejected (tested), discarded (never tested)
    Eigen::VectorXd pUsedDist;            ///< p' when tested (recorded, tested nodes only)
};

/// One expanded node's distributions (recorded only): the root is node -1.
struct TreeExpansion
{
    int node = -1;
    Eigen::VectorXd q; ///< the draft's distribution its children were drawn from
    Eigen::VectorXd p; ///< the target's distribution after it
};

/// One tree round: the drafted tree, every test on the accepted path, and the RoundCore (its residual is the
/// final p' at stoppedAtDepth, its bonus drawn from p after the accepted leaf).
struct TreeTrace : RoundCore
{
    TreeShape shape; ///< the shape drafted this round (cut to the tokens still wanted)
    TreeVariant variant = TreeVariant::Correct;
    std::vector<TreeNode> nodes;
    std::vector<int> acceptedPath; ///< node indices from depth 1 down
    int stoppedAtDepth = -1;       ///< depth whose children were all rejected; -1 when a leaf was accepted
    /// Per tested depth d (index d - 1): the exact chance that one of that node's k children is accepted,
    /// 1 - prod_j (1 - sum_x min(p_j(x), q(x))), computed from the node's p and q.
    std::vector<double> exactNodeAcceptance;
    std::vector<TreeExpansion> expansions; ///< recorded distributions of the expanded nodes
    int targetRows = 0;                    ///< rows the verification scored (one per position of each path)
    // The cache lengths (RoundCore): `extended` is the length of one branch row (the committed prefix + a whole
    // path), `discarded` counts every branch row's entries not kept (rows x length - kept). draftCalls: one
    // batched call per depth (+ window refills, as for chains).

    int acceptedCount() const { return static_cast<int>(acceptedPath.size()); }
    /// Depths where the children of the path's node were tested.
    int testedDepths() const { return static_cast<int>(exactNodeAcceptance.size()); }
    int draftedCount() const { return static_cast<int>(nodes.size()); }
};

} // namespace specdec
