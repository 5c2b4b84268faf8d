// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundHistory.h"

#include <algorithm>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace specdec::gui {

RoundRecord withoutDistributions(const RoundRecord &record)
{
    RoundRecord light;
    const RoundTrace &t = record.trace;
    RoundTrace &l = light.trace;
    l.index = t.index;
    l.contextLength = t.contextLength;
    l.draftLength = t.draftLength;
    l.greedy = t.greedy;
    l.positions.reserve(t.positions.size());
    for (const DraftPosition &p : t.positions) {
        DraftPosition c;
        c.token = p.token;
        c.q = p.q;
        c.p = p.p;
        c.ratio = p.ratio;
        c.threshold = p.threshold;
        c.u = p.u;
        c.overlap = p.overlap;
        c.totalVariation = p.totalVariation;
        c.verdict = p.verdict;
        l.positions.push_back(c);
    }
    l.rejectedAt = t.rejectedAt;
    l.correction = t.correction;
    l.bonus = t.bonus;
    l.committed = t.committed;
    l.targetCalls = t.targetCalls;
    l.draftCalls = t.draftCalls;
    l.targetSeconds = t.targetSeconds;
    l.draftSeconds = t.draftSeconds;
    if (record.tree) { // the tree keeps every number; p, q, p' and the residual vectors go
        auto tree = std::make_shared<TreeTrace>(*record.tree);
        for (TreeNode &node : tree->nodes)
            node.pUsedDist = {};
        tree->expansions.clear();
        tree->residual = {};
        tree->bonusDist = {};
        light.tree = std::move(tree);
    }
    light.nodesDrafted = record.nodesDrafted;
    light.round = record.round;
    light.cumulative = record.cumulative;
    light.seconds = record.seconds;
    light.baselineSeconds = record.baselineSeconds;
    return light;
}

std::size_t distributionBytes(const RoundRecord &record)
{
    const RoundTrace &t = record.trace;
    std::size_t n = static_cast<std::size_t>(t.residual.size() + t.bonusDist.size());
    for (const DraftPosition &p : t.positions)
        n += static_cast<std::size_t>(p.pDist.size() + p.qDist.size());
    if (const TreeTrace *tree = record.tree.get()) {
        n += static_cast<std::size_t>(tree->residual.size() + tree->bonusDist.size());
        for (const TreeNode &node : tree->nodes)
            n += static_cast<std::size_t>(node.pUsedDist.size());
        for (const TreeExpansion &e : tree->expansions)
            n += static_cast<std::size_t>(e.p.size() + e.q.size());
    }
    return n * sizeof(double);
}

RoundHistory::RoundHistory(int window, QObject *parent)
    : QObject(parent)
    , m_window(std::max(1, window))
{
}

bool RoundHistory::hasDistributions(int round) const
{
    return contains(round) && gui::distributionBytes(at(round)) > 0;
}

void RoundHistory::thin(int round)
{
    auto &slot = m_records[static_cast<std::size_t>(round)];
    if (gui::distributionBytes(*slot) > 0)
        slot = std::make_shared<const RoundRecord>(withoutDistributions(*slot));
}

void RoundHistory::pin(int round)
{
    const int old = m_pinned;
    m_pinned = contains(round) ? round : -1;
    if (old >= 0 && old != m_pinned && old < m_thinnedUpTo && contains(old))
        thin(old);
}

void RoundHistory::append(std::vector<std::shared_ptr<const RoundRecord>> rounds)
{
    if (rounds.empty())
        return;
    const int first = size();
    m_records.reserve(m_records.size() + rounds.size());
    for (auto &r : rounds)
        m_records.push_back(std::move(r));
    const int oldest = size() - m_window; // rounds below this leave the window
    for (; m_thinnedUpTo < oldest; ++m_thinnedUpTo)
        if (m_thinnedUpTo != m_pinned)
            thin(m_thinnedUpTo);
    emit roundsAdded(first, size() - first);
}

void RoundHistory::append(RoundRecord record)
{
    append(std::vector<std::shared_ptr<const RoundRecord>>{std::make_shared<const RoundRecord>(std::move(record))});
}

void RoundHistory::clear()
{
    std::vector<std::shared_ptr<const RoundRecord>>().swap(m_records);
    m_pinned = -1;
    m_thinnedUpTo = 0;
#ifdef __GLIBC__
    malloc_trim(0); // the freed vectors go back to the system, not only to the allocator
#endif
    emit cleared();
}

std::size_t RoundHistory::distributionBytes() const
{
    std::size_t n = 0;
    for (const auto &r : m_records)
        n += gui::distributionBytes(*r);
    return n;
}

} // namespace specdec::gui
