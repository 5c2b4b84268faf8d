// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeDecoder.h"

#include "Error.h"
#include "ScopedSeconds.h"
#include "Theory.h"
#include "TreePath.h"

#include <algorithm>

namespace specdec {

TreeDecoder::TreeDecoder(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings)
    : m_target(target)
    , m_draft(draft)
    , m_settings(settings)
    , m_targetState(target.newState(settings.kvCache))
    , m_draftState(draft.newState(settings.kvCache))
    , m_rng(settings.seed)
{
    m_settings.validate();
    if (m_settings.tree.empty())
        throw Error("the tree decoder needs a tree shape (e.g. 3,2,1)");
    Tokenizer::requireSame(target.tokenizer(), draft.tokenizer());
}

void TreeDecoder::pathTo(const std::vector<TreeNode> &nodes, int node, std::vector<TokenId> &path) const
{
    path.clear();
    for (int n = node; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent)
        path.push_back(nodes[static_cast<std::size_t>(n)].token);
    std::reverse(path.begin(), path.end());
}

TreeTrace TreeDecoder::round(std::vector<TokenId> &sequence, int budget)
{
    const TreeShape shape = m_settings.tree.truncated(std::max(budget, 1));
    const int depth = shape.depth();
    const bool record = m_settings.recordDistributions;
    const bool greedy = m_settings.target.greedy() && m_settings.treeVariant == TreeVariant::Correct;
    const CallStats targetBefore = m_target.stats();
    const CallStats draftBefore = m_draft.stats();
    const std::size_t context = sequence.size();

    TreeTrace trace;
    trace.index = m_rounds++;
    trace.contextLength = static_cast<int>(context);
    trace.shape = shape;
    trace.variant = m_settings.treeVariant;
    trace.greedy = greedy;
    trace.nodes.reserve(static_cast<std::size_t>(shape.nodeCount()));

    const DecodingStateStats targetStateBefore = m_targetState->stats();
    const DecodingStateStats draftStateBefore = m_draftState->stats();
    m_targetState->followTo(sequence);
    m_draftState->followTo(sequence);
    trace.targetCache.before = m_targetState->length();
    trace.draftCache.before = m_draftState->length();
    // What a state has not seen of the committed sequence (the last round's correction or bonus, the prompt).
    const auto unseen = [&sequence](const DecodingState &state) {
        return std::span<const TokenId>(sequence).subspan(static_cast<std::size_t>(state.length()));
    };
    // The branch rows of a call: one node's path each.
    std::vector<std::vector<TokenId>> paths;
    std::vector<DistributionMatrix> rows;
    auto pathsTo = [&](const std::vector<int> &ends) {
        paths.resize(ends.size());
        for (std::size_t i = 0; i < ends.size(); ++i)
            pathTo(trace.nodes, ends[i], paths[i]);
    };

    // 1. Draft, depth by depth: one batched call of the draft's state scores the frontier (each row continues
    // its parent's row); each node gets b_d i.i.d. children. qAt[n + 1] is the draft's distribution after
    // node n (the root is n = -1).
    std::vector<Eigen::VectorXd> qAt(static_cast<std::size_t>(shape.nodeCount()) + 1);
    std::vector<int> frontier{-1};
    std::vector<int> draftRows; // the nodes whose paths the draft state's rows hold after the last depth
    std::vector<std::vector<int>> children(static_cast<std::size_t>(shape.nodeCount()) + 1);
    for (int d = 1; d <= depth; ++d) {
        pathsTo(frontier);
        m_draftState->extendBranches(unseen(*m_draftState), paths, 1, rows);
        std::vector<int> next;
        for (std::size_t i = 0; i < frontier.size(); ++i) {
            const int parent = frontier[i];
            Eigen::VectorXd &q = qAt[static_cast<std::size_t>(parent + 1)];
            q = rows[i].row(0).transpose();
            applySampler(m_settings.draft, q);
            for (int j = 0; j < shape.branching(d); ++j) {
                TreeNode node;
                node.parent = parent;
                node.depth = d;
                node.sibling = j;
                node.token = m_rng.categorical(q);
                node.q = q[node.token];
                children[static_cast<std::size_t>(parent + 1)].push_back(static_cast<int>(trace.nodes.size()));
                next.push_back(static_cast<int>(trace.nodes.size()));
                trace.nodes.push_back(node);
            }
        }
        draftRows = std::move(frontier);
        frontier = std::move(next);
    }
    trace.draftCache.extended = m_draftState->length() + depth - 1;

    // 2. Verify: one call of the target's state, one row per root-to-leaf path after the committed prefix.
    pathsTo(frontier);
    m_targetState->extendBranches(unseen(*m_targetState), paths, depth + 1, rows);
    trace.targetCache.extended = m_targetState->length() + depth;
    trace.targetRows = static_cast<int>(frontier.size()) * (depth + 1);
    std::vector<Eigen::VectorXd> pAt(static_cast<std::size_t>(shape.nodeCount()) + 1);
    for (std::size_t leaf = 0; leaf < frontier.size(); ++leaf) {
        int n = frontier[leaf];
        for (int row = depth; row >= 0; --row) {
            Eigen::VectorXd &p = pAt[static_cast<std::size_t>(n + 1)];
            if (p.size() == 0) {
                p = rows[leaf].row(row).transpose();
                applySampler(m_settings.target, p);
            }
            n = n >= 0 ? trace.nodes[static_cast<std::size_t>(n)].parent : -1;
        }
    }
    for (TreeNode &node : trace.nodes)
        node.p = pAt[static_cast<std::size_t>(node.parent + 1)][node.token];
    if (record) {
        const ScopedSeconds teaching(trace.teachingSeconds);
        for (int n = -1; n < static_cast<int>(trace.nodes.size()); ++n)
            if (!children[static_cast<std::size_t>(n + 1)].empty())
                trace.expansions.push_back(
                    {n, qAt[static_cast<std::size_t>(n + 1)], pAt[static_cast<std::size_t>(n + 1)]});
    }

    // 3. Test from the root down: the children of the current node, one by one (the rule of TreeAcceptance.h).
    const auto uniform = [this] { return m_rng.uniform(); };
    int current = -1;
    std::vector<int> tokens;
    for (int d = 1; d <= depth; ++d) {
        const std::vector<int> &kids = children[static_cast<std::size_t>(current + 1)];
        const Eigen::VectorXd &p = pAt[static_cast<std::size_t>(current + 1)];
        const Eigen::VectorXd &q = qAt[static_cast<std::size_t>(current + 1)];
        tokens.clear();
        for (int kid : kids)
            tokens.push_back(trace.nodes[static_cast<std::size_t>(kid)].token);
        {
            const ScopedSeconds teaching(trace.teachingSeconds);
            trace.exactNodeAcceptance.push_back(theory::treeNodeAcceptance(p, q, static_cast<int>(kids.size())));
        }
        NodeTest test = testChildren(m_settings.treeVariant, p, q, tokens, greedy, uniform, record);
        trace.teachingSeconds += test.recordSeconds;
        for (std::size_t j = 0; j < test.children.size(); ++j) {
            TreeNode &node = trace.nodes[static_cast<std::size_t>(kids[j])];
            node.pUsed = test.children[j].pUsed;
            node.threshold = test.children[j].threshold;
            node.u = test.children[j].u;
            node.verdict = test.children[j].accepted ? Verdict::Accepted : Verdict::Rejected;
            if (record)
                node.pUsedDist = std::move(test.pUsedDists[j]);
        }
        if (test.accepted < 0) {
            trace.stoppedAtDepth = d;
            trace.correction = test.correction;
            if (record)
                trace.residual = std::move(test.residual);
            break;
        }
        current = kids[static_cast<std::size_t>(test.accepted)];
        trace.acceptedPath.push_back(current);
        trace.committed.push_back(trace.nodes[static_cast<std::size_t>(current)].token);
    }

    // 4. Correction or bonus.
    if (trace.stoppedAtDepth >= 0) {
        trace.committed.push_back(trace.correction);
    } else {
        const Eigen::VectorXd &pBonus = pAt[static_cast<std::size_t>(current + 1)];
        trace.bonus = greedy ? argmax(pBonus) : m_rng.categorical(pBonus);
        if (record) {
            const ScopedSeconds teaching(trace.teachingSeconds);
            trace.bonusDist = pBonus;
        }
        trace.committed.push_back(trace.bonus);
    }

    // 5. Both states keep the committed prefix + the accepted path: a row holding it stays, the others go.
    const auto rowHolding = [&trace](const std::vector<int> &ends, int count) {
        if (count == 0)
            return 0;
        const int node = trace.acceptedPath[static_cast<std::size_t>(count - 1)];
        for (std::size_t i = 0; i < ends.size(); ++i) {
            int n = ends[i];
            while (n >= 0 && trace.nodes[static_cast<std::size_t>(n)].depth > count)
                n = trace.nodes[static_cast<std::size_t>(n)].parent;
            if (n == node)
                return static_cast<int>(i);
        }
        throw Error("internal: no branch row holds the accepted path");
    };
    const int accepted = trace.acceptedCount();
    auto keep = [&](DecodingState &state, const std::vector<int> &ends, int count, const DecodingStateStats &before,
                    CacheLengths &lengths) {
        lengths.discarded = state.keepBranch(rowHolding(ends, count), count);
        lengths.after = state.length();
        lengths.refills = static_cast<int>(state.stats().refills - before.refills);
        lengths.fed = static_cast<int>(state.stats().fed - before.fed);
    };
    keep(*m_targetState, frontier, accepted, targetStateBefore, trace.targetCache);
    keep(*m_draftState, draftRows, std::min(accepted, depth - 1), draftStateBefore, trace.draftCache);

    sequence.insert(sequence.end(), trace.committed.begin(), trace.committed.end());
    trace.setCalls(m_target.stats() - targetBefore, m_draft.stats() - draftBefore);
    return trace;
}

Round TreeDecoder::playRound(std::vector<TokenId> &sequence, int budget)
{
    auto tree = std::make_shared<TreeTrace>(round(sequence, budget));
    Round out;
    {
        // the chain view is for the views and the metrics, not decoding work
        const ScopedSeconds teaching(tree->teachingSeconds);
        out.path = pathTrace(*tree);
    }
    out.path.teachingSeconds = tree->teachingSeconds;
    out.tree = std::move(tree);
    return out;
}

} // namespace specdec
