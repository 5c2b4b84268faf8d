// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CompactRounds: every number of a session's rounds in flat arrays, without the distributions and without
// per-round metrics structs: what RoundHistory keeps of rounds that left its window. A round costs about
// 128 bytes plus 40 per draft position and 4 per committed token (a RoundRecord without vectors: ~1.3 kB).
// A position's ratio p/q, threshold min(1, p/q) and TV = 1 - beta are stored only where they are not what
// the decoder's formulas give from its p, q and beta (never, for the decoder's own rounds).
//
// Metrics are not stored but rebuilt exactly as SessionRun makes them: a round's own metrics are a
// MetricsAccumulator fed that round alone; the cumulative metrics of round r are an accumulator fed rounds
// 0..r, with seconds and baseline seconds summed in order. Checkpoints of that accumulator every
// kCheckpointEvery rounds (and a cursor at the last round rebuilt) make rebuilding round r O(K · 256) at
// worst and O(K) when reading forward.
//
// A token-tree round also keeps its TreeTrace without vectors (treeWithoutDistributions).
//
// API: append(record) in round order from round 0; size(); record(round) → a full RoundRecord with empty
// distribution vectors; committed(round) → the tokens the round committed, without building a record.

#include "RoundRecord.h"

#include "MetricsAccumulator.h"
#include "TreeTrace.h"

#include <cstdint>
#include <deque>
#include <span>
#include <unordered_map>
#include <vector>

namespace specdec::gui {

/// A token tree with every number and none of its vectors (p, q, p' per node, the residual, the bonus).
std::shared_ptr<const TreeTrace> treeWithoutDistributions(const TreeTrace &tree);

class CompactRounds
{
public:
    static constexpr int kCheckpointEvery = 256;

    void append(const RoundRecord &record);
    void clear();
    int size() const { return static_cast<int>(m_rounds.size()); }

    /// Round `round` with every number of its trace and metrics; its distribution vectors are empty.
    RoundRecord record(int round) const;
    std::span<const TokenId> committed(int round) const;
    /// Bytes held by the arrays (without the deques' block maps), for the bound's tests.
    std::size_t bytes() const;

private:
    struct Round
    {
        double seconds;
        double baselineSeconds;
        double targetSeconds;
        double draftSeconds;
        std::int64_t nodesDrafted;
        CacheLengths targetCache;
        CacheLengths draftCache;
        std::uint32_t firstPosition;
        std::uint32_t firstToken;
        std::int32_t contextLength;
        std::int32_t correction;
        std::int32_t bonus;
        std::int32_t targetCalls;
        std::int32_t draftCalls;
        std::int32_t draftLength;
        std::int32_t rejectedAt;
        std::uint16_t positions;
        std::uint16_t committed;
        bool greedy;
        bool baseline; ///< the metrics were given the baseline's seconds (a wall-clock speedup)
    };
    struct Position
    {
        double q, p, u, overlap;
        TokenId token;
        Verdict verdict;
        bool derived; ///< ratio, threshold and TV follow from q, p and overlap (else in m_extras)
    };
    struct Extra
    {
        double ratio, threshold, totalVariation;
    };
    struct Sums
    {
        MetricsAccumulator metrics;
        double seconds = 0.0;
        double baselineSeconds = 0.0;
    };

    static Extra derive(double q, double p, double overlap);
    RoundTrace trace(int round) const;
    static void add(Sums &sums, const RoundTrace &trace, const Round &round);

    // Deques: they grow in small blocks, never holding twice the memory as a vector does while it reallocates.
    std::deque<Round> m_rounds;
    std::deque<Position> m_positions;
    std::vector<TokenId> m_tokens;
    std::unordered_map<int, std::shared_ptr<const TreeTrace>> m_trees; ///< token-tree rounds: their trees
    std::unordered_map<std::size_t, Extra> m_extras; ///< by position index, for positions not derived
    std::vector<Sums> m_checkpoints; ///< [j]: the sums before round j · kCheckpointEvery
    Sums m_sums;                     ///< the sums after the last round appended
    mutable Sums m_cursor;           ///< the sums after round m_cursorRound
    mutable int m_cursorRound = -1;
};

} // namespace specdec::gui
