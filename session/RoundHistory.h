// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundHistory: the one owner of a session's played rounds (the main session, or one arena lane). Every view
// reads it; no view keeps copies of records (a view may hold the one shared record it shows on screen).
//
// Bounded by design: the newest window() rounds, and the pinned round (the one on screen), keep their full
// records with their distributions (p and q at every position, the residual, the bonus distribution). Every
// round's numbers are also kept in CompactRounds (~400 bytes a round at K = 4, flat arrays, no metrics structs);
// an older round read with at() or shared() is rebuilt from them (every number of its trace and metrics, empty
// vectors; hasDistributions() is false) and cached for the next few reads. So memory is
// O(window · vocabulary + rounds · K) with a small constant, not O(rounds · vocabulary).
//
// Rounds older than CompactRounds keeps (kept(), 20,480 by default) leave the history: first() is the oldest
// round still there, contains() is false before it, and its exact numbers live on in the cumulative metrics
// of the rounds kept. So a session of any length holds a bounded memory.
//
// Lifetimes: at() and back() are for reading within one statement (a loop body that reads no other round):
// the reference into an older round dies when that record leaves the cache of rebuilt rounds (kCached, first
// in, first out), which any later read may cause. Whatever keeps a record beyond that — a frame, a view's
// round on screen, the transcript's last round — holds shared() (or trace(): the same record's trace), which
// owns the record. Records must come in round order from round 0, with the metrics SessionRun gives them
// (CompactRounds rebuilds them that way).
//
// API (GUI thread only):
//   size(), empty(), at(round) / back()       the record of a round (trace, per-round and cumulative metrics)
//   first(), contains(round)                  the oldest round kept; whether a round can be read
//   shared(round), trace(round)               the same record (its trace) owned, for what a caller keeps
//   committed(round)                          the tokens a round committed, without building its record
//   hasDistributions(round)                   whether its full vectors are still kept
//   pin(round)                                keep this round's vectors while it is on screen (-1: none)
//   append(records), clear(), setKept(n)      the owner's side (SessionController, an arena lane)
//   signals roundsAdded(first, count), cleared()
//   distributionBytes(), compactBytes()       bytes of vectors held and of the numbers kept (tests)

#include "CompactRounds.h"
#include "RoundRecord.h"

#include <QObject>

#include <cstddef>
#include <deque>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

namespace specdec::gui {

/// The record without its full distributions: the same numbers, empty vectors.
RoundRecord withoutDistributions(const RoundRecord &record);
/// Bytes held by the Eigen vectors of a record (p, q per position, residual, bonus distribution).
std::size_t distributionBytes(const RoundRecord &record);

class RoundHistory : public QObject
{
    Q_OBJECT
public:
    /// Rounds whose full distributions are kept by default.
    static constexpr int kDefaultWindow = 400;
    /// Older rounds rebuilt and kept for the next reads.
    static constexpr int kCached = 256;

    /// `kept`: rounds whose numbers are kept (older ones leave, see first()).
    explicit RoundHistory(int window = kDefaultWindow, QObject *parent = nullptr, int kept = CompactRounds::kDefaultKept);

    /// Rounds appended (played), also those no longer kept.
    int size() const { return m_compact.size(); }
    bool empty() const { return size() == 0; }
    /// The oldest round kept: rounds before it were dropped, their numbers only in the sums.
    int first() const { return m_compact.first(); }
    /// Round `round` (first() <= round < size()), to read now: see "Lifetimes" above.
    const RoundRecord &at(int round) const { return *shared(round); }
    const RoundRecord &back() const { return at(size() - 1); }
    /// Round `round` owned by the caller: valid however many other rounds are read afterwards.
    std::shared_ptr<const RoundRecord> shared(int round) const;
    /// The trace of shared(round), owning the record (what frameOf takes).
    std::shared_ptr<const RoundTrace> trace(int round) const { return traceOf(shared(round)); }
    std::span<const TokenId> committed(int round) const { return m_compact.committed(round); }
    bool contains(int round) const { return round >= first() && round < size(); }

    int window() const { return m_window; }
    bool hasDistributions(int round) const;
    /// Keeps the vectors of `round` (if it still has them) while it is on screen; -1 pins nothing.
    void pin(int round);
    int pinned() const { return m_pinned; }

    /// Appends rounds (their trace.index must follow on); rounds that leave the window lose their vectors.
    void append(std::vector<std::shared_ptr<const RoundRecord>> rounds);
    void append(RoundRecord record);
    /// Drops every round and gives the memory back to the system.
    void clear();
    /// Drops every round and keeps the numbers of `kept` rounds from now on (at least window(); whole blocks
    /// of CompactRounds::kCheckpointEvery): a test seam, so a short test can play past the rounds kept.
    void setKept(int kept);
    int kept() const { return m_compact.kept(); }

    /// Bytes of distribution vectors held by the history.
    std::size_t distributionBytes() const;
    /// Bytes of the numbers kept of every round.
    std::size_t compactBytes() const { return m_compact.bytes(); }
    /// Full records held: the window, the pinned round and the rebuilt ones cached (tests).
    int recordsHeld() const;

signals:
    void roundsAdded(int first, int count);
    void cleared();

private:
    /// The full record of `round` when it is still held (the window or the pinned round), else nullptr.
    const std::shared_ptr<const RoundRecord> *full(int round) const;
    int firstRecent() const { return size() - static_cast<int>(m_recent.size()); }

    CompactRounds m_compact;                                 ///< every round's numbers
    std::deque<std::shared_ptr<const RoundRecord>> m_recent; ///< rounds [firstRecent(), size()), full
    std::shared_ptr<const RoundRecord> m_pinnedRecord;       ///< the pinned round's record once it left the window
    int m_window;
    int m_pinned = -1;
    mutable std::unordered_map<int, std::shared_ptr<const RoundRecord>> m_cache; ///< rebuilt older rounds
    mutable std::deque<int> m_cacheOrder;                                        ///< oldest first
};

} // namespace specdec::gui
