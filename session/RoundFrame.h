// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundFrame: what the window reveals of a round at one (phase, step) — a pure function of the trace.
// Every view renders a frame and nothing else: the cards (which token, which of q(x), p(x), p/q, u, r(x),
// which verdicts), the distributions a card may show, how many rounds the timeline, plots, theory and status
// count as played, whether the outcome (Residual or Bonus) is known. So nothing of a round appears before its
// phase is on screen, however far the engine has played ahead, and Home or a jump moves every view at once.
//
// Steps within a phase (what the card animation reveals): Draft has K steps (one card each), Verify 2 (the
// sweep, then the scores), Dice one per tested card (two with predictBeforeReveal: first the test without
// its verdict, then the verdict), Residual, Bonus and Commit one. kAllSteps is the phase fully shown.

#include "Phase.h"
#include "RoundTrace.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <vector>

namespace specdec::gui {

/// How a frame is revealed (issue 13's "predict before reveal" is one option).
struct RevealOptions
{
    /// In Dice, each test first shows p, q and min(1, p/q) with a '?' for the verdict and no die; the next
    /// step rolls u and reveals the verdict.
    bool predictBeforeReveal = false;
};

/// One card as the frame reveals it. Cards 0..K-1 are the drafts, card K the correction / bonus card.
struct CardFrame
{
    enum class State { Pending, Placeholder, Accepted, Rejected, Discarded, Residual, Bonus };
    bool visible = false;
    TokenId token = -1;              ///< -1: not known yet (the K+1 placeholder shows '?')
    std::optional<double> q;         ///< q(x)
    std::optional<double> p;         ///< p(x) (the bonus card: the (K+1)-th target probability of its token)
    std::optional<double> r;         ///< r(x): the residual probability of the corrected token
    std::optional<double> threshold; ///< min(1, p/q), shown with the test
    std::optional<double> u;         ///< the die, shown with the verdict (never for greedy)
    bool testShown = false;          ///< the die bar (or the greedy equality check) is drawn
    std::optional<bool> passed;      ///< the verdict, once revealed (testShown without it: '?')
    State state = State::Pending;
};

/// The distributions a card may show at this frame (null: not revealed or not recorded). The pointers point
/// into the frame's trace: valid while the frame (or another owner of the trace) lives.
struct DistributionFrame
{
    const Eigen::VectorXd *p = nullptr;
    const Eigen::VectorXd *q = nullptr;
    const Eigen::VectorXd *residual = nullptr;
    TokenId marked = -1; ///< the card's token, once known
    bool valid = false;  ///< the card exists and is visible
};

/// One model's decoding state (its key/value cache) as the frame reveals it: the draft's grows during Draft,
/// the target's with the verify pass (K + 1 positions in one call), and both are cut back to the committed
/// prefix at Commit (rollback; the discarded entries are shown for that round).
struct CacheFrame
{
    bool valid = false;
    int before = 0;          ///< length at the start of the round
    int length = 0;          ///< length at this frame
    int peak = 0;            ///< the longest it has been in this round so far (after extension)
    bool rolledBack = false; ///< Commit: truncated to the committed prefix
    int discarded = 0;       ///< entries the rollback removed (0 before Commit)
    int refills = 0;         ///< window refills in the round past the context (shown with the extension)
};

struct RoundFrame
{
    static constexpr int kAllSteps = 1 << 20;

    /// The round's trace, shared with its owner (a RoundHistory record): a frame kept for later reads the trace
    /// it was made from even after the history's cache has let that record go. Null: the prompt alone (before
    /// the first round, or after Home).
    std::shared_ptr<const RoundTrace> trace;
    int round = -1;
    Phase phase = Phase::Draft;
    std::vector<CardFrame> cards; ///< K + 1 when there is a trace
    /// Rounds whose results every other view may show (timeline marks, plots, theory, status): the rounds
    /// before this one, and this one once it is committed.
    int roundsRevealed = 0;
    /// Verdicts of this round revealed so far (the timeline row's ✓ ✗ marks), in draft order.
    int verdictsRevealed = 0;
    bool outcomeRevealed = false; ///< whether it is known that the round ends in Residual or Bonus
    bool committed = false;       ///< this round's tokens are part of the text
    bool sweeping = false;        ///< the verify pass is being drawn over all K + 1 cards
    int currentCard = -1;         ///< the card the phase is about (what the distribution view follows)
    CacheFrame targetCache;       ///< the head chef's state
    CacheFrame draftCache;        ///< the apprentice's state

    bool empty() const { return trace == nullptr; }
    /// What card `card` may show of its distributions at this frame.
    DistributionFrame distributions(int card) const;
};

/// Steps `phase` of `trace` is revealed in (see the header comment).
int stepsOf(const RoundTrace &trace, Phase phase, const RevealOptions &options = {});

/// The frame of round `round` (0-based; `trace` its trace, or null for the prompt alone) at `phase` after
/// `step` of its steps (1..stepsOf; kAllSteps: the whole phase). The frame shares `trace` (for a history's
/// record: traceOf(record), RoundRecord.h).
RoundFrame frameOf(std::shared_ptr<const RoundTrace> trace, int round, Phase phase, int step = RoundFrame::kAllSteps,
                   const RevealOptions &options = {});

} // namespace specdec::gui
