// SPDX-License-Identifier: GPL-3.0-or-later
#include "CompactRounds.h"

#include "Acceptance.h"
#include "Metrics.h"

#include <optional>

namespace specdec::gui {

CompactRounds::Extra CompactRounds::derive(double q, double p, double overlap)
{
    // What SpeculativeDecoder::round sets from p(x), q(x) and beta.
    return {q > 0.0 ? p / q : 0.0, acceptanceProbability(p, q), 1.0 - overlap};
}

std::shared_ptr<const TreeTrace> treeWithoutDistributions(const TreeTrace &from)
{
    auto tree = std::make_shared<TreeTrace>(from);
    for (TreeNode &node : tree->nodes)
        node.pUsedDist = {};
    tree->expansions.clear();
    tree->residual = {};
    tree->bonusDist = {};
    return tree;
}

CompactRounds::CompactRounds(int kept)
    : m_kept((std::max(1, kept) + kCheckpointEvery - 1) / kCheckpointEvery * kCheckpointEvery)
{
}

void CompactRounds::append(const RoundRecord &record)
{
    const RoundTrace &t = record.trace;
    if (size() % kCheckpointEvery == 0) {
        if (static_cast<int>(m_rounds.size()) >= m_kept + kCheckpointEvery)
            dropOldest();
        m_checkpoints.push_back(m_sums);
    }
    Round r{};
    r.seconds = record.seconds;
    r.baselineSeconds = record.baselineSeconds;
    r.targetSeconds = t.targetSeconds;
    r.draftSeconds = t.draftSeconds;
    r.teachingSeconds = t.teachingSeconds;
    r.nodesDrafted = record.nodesDrafted;
    if (record.tree)
        m_trees.emplace(size(), treeWithoutDistributions(*record.tree));
    r.targetCache = t.targetCache;
    r.draftCache = t.draftCache;
    r.firstPosition = static_cast<std::uint32_t>(m_positionsDropped + m_positions.size());
    r.firstToken = static_cast<std::uint32_t>(m_tokensDropped + m_tokens.size());
    r.contextLength = t.contextLength;
    r.correction = t.correction;
    r.bonus = t.bonus;
    r.targetCalls = t.targetCalls;
    r.draftCalls = t.draftCalls;
    r.draftLength = t.draftLength;
    r.rejectedAt = t.rejectedAt;
    r.positions = static_cast<std::uint16_t>(t.positions.size());
    r.committed = static_cast<std::uint16_t>(t.committed.size());
    r.greedy = t.greedy;
    r.baseline = record.cumulative.speedupWallClock.has_value() || record.round.speedupWallClock.has_value()
        || record.baselineSeconds != 0.0;
    for (const DraftPosition &p : t.positions) {
        const Extra derived = derive(p.q, p.p, p.overlap);
        const bool same = p.ratio == derived.ratio && p.threshold == derived.threshold
            && p.totalVariation == derived.totalVariation;
        if (!same)
            m_extras.emplace(m_positionsDropped + m_positions.size(), Extra{p.ratio, p.threshold, p.totalVariation});
        m_positions.push_back({p.q, p.p, p.u, p.overlap, p.token, p.verdict, same});
    }
    m_tokens.insert(m_tokens.end(), t.committed.begin(), t.committed.end());
    m_rounds.push_back(r);
    add(m_sums, t, r);
}

void CompactRounds::dropOldest()
{
    // A whole block, so that first() stays on a checkpoint: the sums before it are the checkpoint kept.
    std::size_t tokens = 0;
    for (int i = 0; i < kCheckpointEvery; ++i) {
        const Round &r = m_rounds.front();
        for (std::size_t p = 0; p < r.positions; ++p)
            m_extras.erase(m_positionsDropped + p);
        m_positionsDropped += r.positions;
        m_positions.erase(m_positions.begin(), m_positions.begin() + r.positions);
        tokens += r.committed;
        m_trees.erase(m_first);
        m_rounds.pop_front();
        ++m_first;
    }
    m_tokens.erase(m_tokens.begin(), m_tokens.begin() + static_cast<std::ptrdiff_t>(tokens));
    m_tokensDropped += tokens;
    m_checkpoints.pop_front();
    if (m_cursorRound < m_first)
        m_cursorRound = -1; // the cursor's sums are of a dropped round: the next read starts at a checkpoint
}

void CompactRounds::clear()
{
    *this = CompactRounds(m_kept);
}

void CompactRounds::add(Sums &sums, const RoundTrace &trace, const Round &round)
{
    // The order of SessionRun::playRound: the accumulator, then the seconds, each summed round by round.
    sums.metrics.add(trace);
    sums.seconds += round.seconds;
    sums.baselineSeconds += round.baselineSeconds;
}

std::span<const TokenId> CompactRounds::committed(int round) const
{
    const Round &r = at(round);
    return std::span(m_tokens).subspan(r.firstToken - m_tokensDropped, r.committed);
}

RoundTrace CompactRounds::trace(int round) const
{
    const Round &r = at(round);
    RoundTrace t;
    t.index = round;
    t.contextLength = r.contextLength;
    t.draftLength = r.draftLength;
    t.greedy = r.greedy;
    t.positions.reserve(r.positions);
    for (std::size_t i = r.firstPosition; i < r.firstPosition + r.positions; ++i) {
        const Position &c = m_positions[i - m_positionsDropped];
        DraftPosition p;
        p.token = c.token;
        p.q = c.q;
        p.p = c.p;
        const Extra extra = c.derived ? derive(c.q, c.p, c.overlap) : m_extras.at(i);
        p.ratio = extra.ratio;
        p.threshold = extra.threshold;
        p.u = c.u;
        p.overlap = c.overlap;
        p.totalVariation = extra.totalVariation;
        p.verdict = c.verdict;
        t.positions.push_back(std::move(p));
    }
    t.rejectedAt = r.rejectedAt;
    t.correction = r.correction;
    t.bonus = r.bonus;
    const auto tokens = committed(round);
    t.committed.assign(tokens.begin(), tokens.end());
    t.targetCalls = r.targetCalls;
    t.draftCalls = r.draftCalls;
    t.targetSeconds = r.targetSeconds;
    t.draftSeconds = r.draftSeconds;
    t.teachingSeconds = r.teachingSeconds;
    t.targetCache = r.targetCache;
    t.draftCache = r.draftCache;
    return t;
}

RoundRecord CompactRounds::record(int round) const
{
    const Round &r = at(round);
    RoundRecord out;
    out.trace = trace(round);
    out.seconds = r.seconds;
    out.nodesDrafted = r.nodesDrafted;
    if (const auto tree = m_trees.find(round); tree != m_trees.end())
        out.tree = tree->second;
    out.baselineSeconds = r.baselineSeconds;
    const auto baseline = [&](double seconds) { return r.baseline ? std::optional(seconds) : std::nullopt; };
    MetricsAccumulator one;
    one.add(out.trace);
    out.round = one.metrics(r.seconds, baseline(r.baselineSeconds));
    // The cumulative sums: forward from the cursor when it is at or before this round within a checkpoint's
    // span, else from the checkpoint below it.
    const int checkpoint = round / kCheckpointEvery;
    if (m_cursorRound > round || m_cursorRound < checkpoint * kCheckpointEvery - 1) {
        m_cursor = m_checkpoints[static_cast<std::size_t>(checkpoint - m_first / kCheckpointEvery)];
        m_cursorRound = checkpoint * kCheckpointEvery - 1;
    }
    for (int i = m_cursorRound + 1; i < round; ++i)
        add(m_cursor, trace(i), at(i));
    if (m_cursorRound < round)
        add(m_cursor, out.trace, r);
    m_cursorRound = round;
    out.cumulative = m_cursor.metrics.metrics(m_cursor.seconds, baseline(m_cursor.baselineSeconds));
    return out;
}

std::size_t CompactRounds::bytes() const
{
    return m_rounds.size() * sizeof(Round) + m_positions.size() * sizeof(Position) + m_tokens.capacity() * sizeof(TokenId)
        + m_checkpoints.size() * sizeof(Sums) + m_extras.size() * (sizeof(std::size_t) + sizeof(Extra) + 16);
}

} // namespace specdec::gui
