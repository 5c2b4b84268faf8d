// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundHistory: the one owner of a session's played rounds (the main session, or one arena lane). Every view
// reads it; no view keeps copies of records (a view may hold the one shared record it shows on screen).
//
// Bounded by design: the newest window() rounds, and the pinned round (the one on screen), keep their full
// distributions (p and q at every position, the residual, the bonus distribution). Older rounds keep every
// number of their trace and metrics, but their vectors are dropped (hasDistributions() is false, the
// Eigen vectors are empty). So memory is O(window · vocabulary + rounds · K), not O(rounds · vocabulary).
//
// API (GUI thread only):
//   size(), empty(), at(round) / back()       the record of a round (trace, per-round and cumulative metrics)
//   shared(round)                             the same record shared, for the one a view keeps on screen
//   hasDistributions(round)                   whether its full vectors are still kept
//   pin(round)                                keep this round's vectors while it is on screen (-1: none)
//   append(records), clear()                  the owner's side (SessionController, an arena lane)
//   signals roundsAdded(first, count), cleared()
//   distributionBytes()                       bytes of vectors held: what the bound is about (tests)

#include "RoundRecord.h"

#include <QObject>

#include <cstddef>
#include <memory>
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

    explicit RoundHistory(int window = kDefaultWindow, QObject *parent = nullptr);

    int size() const { return static_cast<int>(m_records.size()); }
    bool empty() const { return m_records.empty(); }
    /// Round `round` (0 <= round < size()).
    const RoundRecord &at(int round) const { return *m_records[static_cast<std::size_t>(round)]; }
    const RoundRecord &back() const { return *m_records.back(); }
    std::shared_ptr<const RoundRecord> shared(int round) const { return m_records[static_cast<std::size_t>(round)]; }
    bool contains(int round) const { return round >= 0 && round < size(); }

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

    /// Bytes of distribution vectors held by the history.
    std::size_t distributionBytes() const;

signals:
    void roundsAdded(int first, int count);
    void cleared();

private:
    void thin(int round);

    std::vector<std::shared_ptr<const RoundRecord>> m_records;
    int m_window;
    int m_pinned = -1;
    int m_thinnedUpTo = 0; ///< rounds below this, except the pinned one, have no vectors
};

} // namespace specdec::gui
