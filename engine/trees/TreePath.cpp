// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreePath.h"

namespace specdec {

namespace {

/// The children of `parent` (-1: the root) in test order.
std::vector<int> childrenOf(const TreeTrace &tree, int parent)
{
    std::vector<int> out;
    for (std::size_t n = 0; n < tree.nodes.size(); ++n)
        if (tree.nodes[n].parent == parent)
            out.push_back(static_cast<int>(n));
    return out;
}

} // namespace

RoundTrace pathTrace(const TreeTrace &tree)
{
    RoundTrace r;
    static_cast<RoundCore &>(r) = static_cast<const RoundCore &>(tree);
    r.residual.resize(0); // the TreeTrace keeps the distributions
    r.bonusDist.resize(0);
    r.draftLength = tree.shape.depth();
    r.rejectedAt = tree.stoppedAtDepth >= 1 ? tree.stoppedAtDepth - 1 : -1;
    int parent = -1;
    for (int d = 1; d <= r.draftLength; ++d) {
        const std::vector<int> kids = childrenOf(tree, parent);
        if (kids.empty())
            break;
        int chosen = kids.front(); // below a rejection: the first child drafted there (never tested)
        if (d <= tree.acceptedCount()) {
            chosen = tree.acceptedPath[static_cast<std::size_t>(d - 1)];
        } else if (d == tree.stoppedAtDepth) {
            for (int k : kids) // the last child tested at the depth where all were rejected
                if (tree.nodes[static_cast<std::size_t>(k)].verdict == Verdict::Rejected)
                    chosen = k;
        }
        const TreeNode &node = tree.nodes[static_cast<std::size_t>(chosen)];
        DraftPosition pos;
        pos.token = node.token;
        pos.q = node.q;
        pos.p = node.p;
        pos.ratio = node.q > 0.0 ? node.p / node.q : 0.0;
        pos.threshold = node.threshold;
        pos.u = node.verdict == Verdict::Discarded ? -1.0 : node.u;
        if (d - 1 < tree.testedDepths()) {
            pos.overlap = tree.exactNodeAcceptance[static_cast<std::size_t>(d - 1)];
            pos.totalVariation = 1.0 - pos.overlap;
        }
        pos.verdict = d <= tree.acceptedCount() ? Verdict::Accepted
            : d == tree.stoppedAtDepth          ? Verdict::Rejected
                                                : Verdict::Discarded;
        r.positions.push_back(pos);
        parent = chosen;
    }
    r.draftLength = static_cast<int>(r.positions.size());
    return r;
}

} // namespace specdec
