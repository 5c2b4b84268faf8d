// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TreeFrame: what the tree view reveals of a token-tree round at one (phase, step) — a pure function of the
// TreeTrace, so nothing appears before its phase and the view can be tested without painting.
//
// Steps: Draft has D (the tree grows one depth per step), Verify 1 (one sweep scores every node), Dice one
// per tested child (down the accepted path, child by child, p' shrinking after each rejection), Residual or
// Bonus 1, Commit 1. kAllSteps is the phase fully shown.

#include "Phase.h"
#include "RoundFrame.h"
#include "TreeTrace.h"

#include <optional>
#include <vector>

namespace specdec::gui {

struct TreeNodeFrame
{
    enum class State { Hidden, Drafted, Scored, Accepted, Rejected, Faded };
    State state = State::Hidden;
    std::optional<double> q;         ///< q(x), from the draft phase on
    std::optional<double> p;         ///< p(x), from the verify sweep on
    std::optional<double> pUsed;     ///< p'(x) the child was tested against, with its test
    std::optional<double> threshold; ///< min(1, p'/q)
    std::optional<double> u;         ///< the die (never for greedy)
    bool onPath = false;             ///< on the accepted path (revealed)
};

struct TreeFrame
{
    static constexpr int kAllSteps = 1 << 20;
    static constexpr int kOutcome = -2; ///< the node id of the correction or bonus

    const TreeTrace *trace = nullptr;
    Phase phase = Phase::Draft;
    std::vector<TreeNodeFrame> nodes;
    int depthShown = 0;        ///< depths drawn so far (the draft phase grows it)
    bool sweeping = false;     ///< the verify sweep is being drawn
    int testsShown = 0;        ///< dice rolled so far
    int currentNode = -1;      ///< the node the phase is about (the last tested child), -1: none
    bool outcomeShown = false; ///< the correction or the bonus is attached
    bool committed = false;

    /// What node `node` (or kOutcome) may show of its distributions at this frame: q (the draft's, from the
    /// draft phase on) and p (the target's, from the verify sweep on) at its parent, and as `residual` the p'
    /// it was tested against once its test is shown; for the outcome, the final p' (correction) or p after
    /// the accepted leaf (bonus, as `p`). Null where not revealed or not recorded (older rounds).
    DistributionFrame distributions(int node) const;
};

/// The tested children in the order the rule tests them (depth 1 first, siblings in order).
std::vector<int> testOrder(const TreeTrace &trace);
/// The phases of a tree round: Draft, Verify, Dice, Residual (all children of a node rejected) or Bonus, Commit.
std::vector<Phase> treePhasesOf(const TreeTrace &trace);
/// Steps `phase` of `trace` is revealed in.
int treeStepsOf(const TreeTrace &trace, Phase phase);
/// The frame at (phase, step); steps beyond the phase's count show the whole phase.
TreeFrame treeFrameAt(const TreeTrace &trace, Phase phase, int step = TreeFrame::kAllSteps);

} // namespace specdec::gui
