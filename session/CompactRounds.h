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
// Bounded: the numbers of the newest kept() rounds (at least; up to kept() + kCheckpointEvery) are kept.
// Older rounds leave in blocks of kCheckpointEvery: their exact numbers live on only in the running sums (the
// checkpoint at first() is the MetricsAccumulator of every round before it), so the cumulative metrics of
// every kept round stay exact; the rounds before first() can no longer be read or replayed.
//
// API: append(record) in round order from round 0; size() (every round appended); first() (the oldest kept);
// record(round) → a full RoundRecord with empty distribution vectors (first() <= round < size());
// committed(round) → the tokens the round committed, without building a record.

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
    /// Rounds whose numbers are kept by default: at K = 4 about 6 MB (and 2.4 MB more for the block in flight).
    static constexpr int kDefaultKept = 80 * kCheckpointEvery;

    /// `kept`: rounds whose numbers are kept (rounded up to whole checkpoint blocks).
    explicit CompactRounds(int kept = kDefaultKept);

    void append(const RoundRecord &record);
    void clear();
    int size() const { return m_first + static_cast<int>(m_rounds.size()); }
    /// The oldest round still kept (0 until more than kept() rounds were appended).
    int first() const { return m_first; }
    int kept() const { return m_kept; }

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
        double teachingSeconds;
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
    const Round &at(int round) const { return m_rounds[static_cast<std::size_t>(round - m_first)]; }
    /// Drops the oldest block of kCheckpointEvery rounds.
    void dropOldest();

    // Deques: they grow in small blocks, never holding twice the memory as a vector does while it reallocates.
    // Round::firstPosition and firstToken count from round 0; the dropped ones are m_positionsDropped and
    // m_tokensDropped.
    std::deque<Round> m_rounds; ///< rounds [m_first, size())
    std::deque<Position> m_positions;
    std::vector<TokenId> m_tokens; ///< contiguous, for committed()'s span; its head erased by block
    std::size_t m_positionsDropped = 0;
    std::size_t m_tokensDropped = 0;
    int m_first = 0;
    int m_kept;
    std::unordered_map<int, std::shared_ptr<const TreeTrace>> m_trees; ///< token-tree rounds: their trees
    std::unordered_map<std::size_t, Extra> m_extras;                   ///< by position index, for positions not derived
    std::deque<Sums> m_checkpoints; ///< [j]: the sums before round m_first + j · kCheckpointEvery
    Sums m_sums;                    ///< the sums after the last round appended
    mutable Sums m_cursor;          ///< the sums after round m_cursorRound
    mutable int m_cursorRound = -1;
};

} // namespace specdec::gui
