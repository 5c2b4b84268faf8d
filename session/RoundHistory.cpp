// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundHistory.h"

#include <algorithm>
#include <stdexcept>
#include <string>

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
    l.teachingSeconds = t.teachingSeconds;
    l.targetCache = t.targetCache;
    l.draftCache = t.draftCache;
    if (record.tree)
        light.tree = treeWithoutDistributions(*record.tree);
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

RoundHistory::RoundHistory(int window, QObject *parent, int kept)
    : QObject(parent)
    , m_compact(std::max(kept, window))
    , m_window(std::max(1, window))
{
}

const std::shared_ptr<const RoundRecord> *RoundHistory::full(int round) const
{
    if (round >= firstRecent() && round < size())
        return &m_recent[static_cast<std::size_t>(round - firstRecent())];
    if (round == m_pinned && m_pinnedRecord)
        return &m_pinnedRecord;
    return nullptr;
}

std::shared_ptr<const RoundRecord> RoundHistory::shared(int round) const
{
    if (const auto *record = full(round))
        return *record;
    if (const auto it = m_cache.find(round); it != m_cache.end())
        return it->second;
    if (!contains(round)) // a caller's bug, never a user's: fail loudly instead of reading past the arrays
        throw std::out_of_range("RoundHistory: round " + std::to_string(round) + " is not kept (rounds "
                                + std::to_string(first()) + " to " + std::to_string(size() - 1) + ")");
    auto rebuilt = std::make_shared<const RoundRecord>(m_compact.record(round));
    m_cache.emplace(round, rebuilt);
    m_cacheOrder.push_back(round);
    if (static_cast<int>(m_cacheOrder.size()) > kCached) {
        m_cache.erase(m_cacheOrder.front());
        m_cacheOrder.pop_front();
    }
    return rebuilt;
}

bool RoundHistory::hasDistributions(int round) const
{
    const auto *record = full(round);
    return record && gui::distributionBytes(**record) > 0;
}

void RoundHistory::pin(int round)
{
    const int pinned = contains(round) ? round : -1;
    if (pinned != m_pinned)
        m_pinnedRecord.reset(); // the old pinned round, if it had left the window, loses its vectors
    m_pinned = pinned;
}

void RoundHistory::append(std::vector<std::shared_ptr<const RoundRecord>> rounds)
{
    if (rounds.empty())
        return;
    const int first = size();
    for (auto &r : rounds) {
        m_compact.append(*r);
        m_recent.push_back(std::move(r));
    }
    while (static_cast<int>(m_recent.size()) > m_window) { // rounds that leave the window
        if (firstRecent() == m_pinned)
            m_pinnedRecord = std::move(m_recent.front());
        m_recent.pop_front();
    }
    emit roundsAdded(first, size() - first);
}

void RoundHistory::append(RoundRecord record)
{
    append(std::vector<std::shared_ptr<const RoundRecord>>{std::make_shared<const RoundRecord>(std::move(record))});
}

void RoundHistory::clear()
{
    m_compact.clear();
    std::deque<std::shared_ptr<const RoundRecord>>().swap(m_recent);
    m_pinnedRecord.reset();
    m_pinned = -1;
    std::unordered_map<int, std::shared_ptr<const RoundRecord>>().swap(m_cache);
    std::deque<int>().swap(m_cacheOrder);
#ifdef __GLIBC__
    malloc_trim(0); // the freed vectors go back to the system, not only to the allocator
#endif
    emit cleared();
}

void RoundHistory::setKept(int kept)
{
    clear();
    m_compact = CompactRounds(std::max(kept, m_window));
}

std::size_t RoundHistory::distributionBytes() const
{
    std::size_t n = m_pinnedRecord ? gui::distributionBytes(*m_pinnedRecord) : 0;
    for (const auto &r : m_recent)
        n += gui::distributionBytes(*r);
    return n;
}

int RoundHistory::recordsHeld() const
{
    return static_cast<int>(m_recent.size()) + (m_pinnedRecord ? 1 : 0) + static_cast<int>(m_cache.size());
}

} // namespace specdec::gui
