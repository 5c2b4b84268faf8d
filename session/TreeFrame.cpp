// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeFrame.h"

#include <algorithm>

namespace specdec::gui {

std::vector<int> testOrder(const TreeTrace &trace)
{
    std::vector<int> order;
    for (std::size_t n = 0; n < trace.nodes.size(); ++n)
        if (trace.nodes[n].verdict != Verdict::Discarded)
            order.push_back(static_cast<int>(n)); // breadth first, siblings consecutive: the test order
    return order;
}

std::vector<Phase> treePhasesOf(const TreeTrace &trace)
{
    return {Phase::Draft, Phase::Verify, Phase::Dice, trace.stoppedAtDepth >= 0 ? Phase::Residual : Phase::Bonus,
            Phase::Commit};
}

int treeStepsOf(const TreeTrace &trace, Phase phase)
{
    switch (phase) {
    case Phase::Draft: return trace.shape.depth();
    case Phase::Dice: return std::max<int>(1, static_cast<int>(testOrder(trace).size()));
    case Phase::Verify:
    case Phase::Residual:
    case Phase::Bonus:
    case Phase::Commit: break;
    }
    return 1;
}

TreeFrame treeFrameAt(const TreeTrace &trace, Phase phase, int step)
{
    TreeFrame f;
    f.trace = &trace;
    f.phase = phase;
    f.nodes.resize(trace.nodes.size());
    const int depth = trace.shape.depth();
    const std::vector<int> order = testOrder(trace);
    const bool afterDraft = phase != Phase::Draft;
    const bool afterVerify = afterDraft && phase != Phase::Verify;
    const bool afterDice = afterVerify && phase != Phase::Dice;
    f.depthShown = afterDraft ? depth : std::clamp(step, 0, depth);
    f.sweeping = phase == Phase::Verify;
    f.testsShown = afterDice ? static_cast<int>(order.size())
                             : (afterVerify ? std::clamp(step, 0, static_cast<int>(order.size())) : 0);
    f.outcomeShown = afterDice;
    f.committed = phase == Phase::Commit;

    for (std::size_t n = 0; n < trace.nodes.size(); ++n) {
        const TreeNode &node = trace.nodes[n];
        TreeNodeFrame &nf = f.nodes[n];
        if (node.depth > f.depthShown)
            continue;
        nf.state = TreeNodeFrame::State::Drafted;
        nf.q = node.q;
        if (afterDraft) {
            nf.state = TreeNodeFrame::State::Scored;
            nf.p = node.p;
        }
    }
    // Dice: reveal the first testsShown tests; a decided node's untested siblings and every node under a
    // node that is not on the path fade.
    std::vector<char> decided(trace.nodes.size() + 1, 0); // parent + 1 -> its children were decided
    for (int i = 0; i < f.testsShown; ++i) {
        const int n = order[static_cast<std::size_t>(i)];
        const TreeNode &node = trace.nodes[static_cast<std::size_t>(n)];
        TreeNodeFrame &nf = f.nodes[static_cast<std::size_t>(n)];
        nf.pUsed = node.pUsed;
        nf.threshold = node.threshold;
        if (node.u >= 0.0)
            nf.u = node.u;
        const bool accepted = node.verdict == Verdict::Accepted;
        nf.state = accepted ? TreeNodeFrame::State::Accepted : TreeNodeFrame::State::Rejected;
        nf.onPath = accepted;
        f.currentNode = n;
        const bool lastChild = node.sibling + 1 == trace.shape.branching(node.depth);
        if (accepted || lastChild)
            decided[static_cast<std::size_t>(node.parent + 1)] = 1;
    }
    for (std::size_t n = 0; n < trace.nodes.size(); ++n) {
        const TreeNode &node = trace.nodes[n];
        TreeNodeFrame &nf = f.nodes[n];
        if (nf.state == TreeNodeFrame::State::Hidden)
            continue;
        const bool parentFaded = node.parent >= 0
            && (f.nodes[static_cast<std::size_t>(node.parent)].state == TreeNodeFrame::State::Faded
                || f.nodes[static_cast<std::size_t>(node.parent)].state == TreeNodeFrame::State::Rejected);
        const bool untestedSibling = decided[static_cast<std::size_t>(node.parent + 1)]
            && nf.state == TreeNodeFrame::State::Scored;
        if (parentFaded || untestedSibling)
            nf.state = TreeNodeFrame::State::Faded;
    }
    if (afterDice) // what is not on the path is discarded once the outcome is known
        for (TreeNodeFrame &nf : f.nodes)
            if (nf.state == TreeNodeFrame::State::Scored)
                nf.state = TreeNodeFrame::State::Faded;
    return f;
}

DistributionFrame TreeFrame::distributions(int node) const
{
    DistributionFrame d;
    if (!trace)
        return d;
    const TreeTrace &t = *trace;
    if (node == kOutcome) {
        if (!outcomeShown)
            return d;
        d.valid = true;
        if (t.stoppedAtDepth >= 0) {
            d.marked = t.correction;
            if (t.residual.size() > 0)
                d.residual = &t.residual;
        } else {
            d.marked = t.bonus;
            if (t.bonusDist.size() > 0)
                d.p = &t.bonusDist;
        }
        return d;
    }
    if (node < 0 || node >= static_cast<int>(nodes.size())
        || nodes[static_cast<std::size_t>(node)].state == TreeNodeFrame::State::Hidden)
        return d;
    const TreeNode &n = t.nodes[static_cast<std::size_t>(node)];
    const TreeNodeFrame &nf = nodes[static_cast<std::size_t>(node)];
    d.valid = true;
    d.marked = n.token;
    for (const TreeExpansion &e : t.expansions)
        if (e.node == n.parent) {
            if (e.q.size() > 0)
                d.q = &e.q;
            if (nf.p && e.p.size() > 0)
                d.p = &e.p;
        }
    if (nf.pUsed && n.pUsedDist.size() > 0)
        d.residual = &n.pUsedDist;
    return d;
}

} // namespace specdec::gui
