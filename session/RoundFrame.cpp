// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundFrame.h"

#include <algorithm>

namespace specdec::gui {

namespace {

const Eigen::VectorXd *recorded(const Eigen::VectorXd &v)
{
    return v.size() > 0 ? &v : nullptr;
}

int phaseRank(Phase phase)
{
    switch (phase) {
    case Phase::Draft: return 0;
    case Phase::Verify: return 1;
    case Phase::Dice: return 2;
    case Phase::Residual:
    case Phase::Bonus: return 3;
    case Phase::Commit: return 4;
    }
    return 0;
}

/// The cache of `lengths` at a frame: `shownLength` tokens while it is being extended, or rolled back at Commit.
CacheFrame cacheAt(const CacheLengths &lengths, int shownLength, bool rolledBack)
{
    CacheFrame c;
    c.valid = true;
    c.before = lengths.before;
    if (rolledBack) {
        c.length = lengths.after;
        c.peak = lengths.extended;
        c.rolledBack = true;
        c.discarded = lengths.discarded;
    } else {
        c.length = c.peak = std::clamp(shownLength, lengths.before, std::max(lengths.before, lengths.extended));
    }
    if (c.peak > c.before)
        c.refills = lengths.refills;
    return c;
}

} // namespace

int stepsOf(const RoundTrace &trace, Phase phase, const RevealOptions &options)
{
    switch (phase) {
    case Phase::Draft: return std::max(1, trace.draftLength);
    case Phase::Verify: return 2;
    case Phase::Dice: return std::max(1, trace.testedCount() * (options.predictBeforeReveal ? 2 : 1));
    case Phase::Residual:
    case Phase::Bonus:
    case Phase::Commit: return 1;
    }
    return 1;
}

RoundFrame frameOf(std::shared_ptr<const RoundTrace> trace, int round, Phase phase, int step, const RevealOptions &options)
{
    RoundFrame f;
    if (!trace || round < 0)
        return f;
    // A phase the round does not have (Bonus after a rejection) is shown as the one it has.
    if ((phase == Phase::Residual || phase == Phase::Bonus))
        phase = trace->rejectedAt >= 0 ? Phase::Residual : Phase::Bonus;
    const RoundTrace &t = *trace;
    const int k = t.draftLength;
    const int rank = phaseRank(phase);
    step = std::clamp(step, 1, stepsOf(t, phase, options));
    f.trace = std::move(trace); // t stays valid: the frame owns it now
    f.round = round;
    f.phase = phase;
    f.committed = phase == Phase::Commit;
    f.roundsRevealed = round + (f.committed ? 1 : 0);

    const int drafted = phase == Phase::Draft ? std::min(step, k) : k;
    const bool verified = rank > 1 || (phase == Phase::Verify && step >= 2);
    f.sweeping = phase == Phase::Verify && step < 2;
    // Dice: how many tests are shown, and how many of them with their verdict.
    int testsShown = 0;
    int verdictsShown = 0;
    if (phase == Phase::Dice) {
        if (options.predictBeforeReveal) {
            testsShown = (step + 1) / 2;
            verdictsShown = step / 2;
        } else {
            testsShown = verdictsShown = step;
        }
    } else if (rank > 2) {
        testsShown = verdictsShown = t.testedCount();
    }
    testsShown = std::min(testsShown, t.testedCount());
    verdictsShown = std::min(verdictsShown, t.testedCount());
    f.verdictsRevealed = verdictsShown;
    f.outcomeRevealed = verdictsShown == t.testedCount() && rank >= 2;
    const bool rejectionShown = t.rejectedAt >= 0 && t.rejectedAt < verdictsShown;

    f.cards.resize(static_cast<std::size_t>(k + 1));
    for (int i = 0; i < k; ++i) {
        CardFrame &c = f.cards[static_cast<std::size_t>(i)];
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(i)];
        c.visible = i < drafted;
        if (!c.visible)
            continue;
        c.token = pos.token;
        c.q = pos.q;
        if (verified)
            c.p = pos.p;
        if (i < testsShown) {
            c.testShown = true;
            c.threshold = pos.threshold;
            // The die is rolled with the verdict: while the room predicts, only p, q and min(1, p/q) show.
            if (pos.u >= 0.0 && !t.greedy && i < verdictsShown)
                c.u = pos.u;
        }
        if (i < verdictsShown) {
            c.passed = pos.verdict == Verdict::Accepted;
            c.state = *c.passed ? CardFrame::State::Accepted : CardFrame::State::Rejected;
        } else if (rejectionShown && i > t.rejectedAt) {
            c.state = CardFrame::State::Discarded;
        }
    }
    CardFrame &extra = f.cards.back();
    extra.visible = rank >= 1; // the target's extra row appears with the verify pass
    extra.state = CardFrame::State::Placeholder;
    if (rank >= 3) {
        if (t.rejectedAt >= 0) {
            extra.token = t.correction;
            extra.state = CardFrame::State::Residual;
            if (t.correction >= 0 && t.residual.size() > t.correction)
                extra.r = t.residual[t.correction];
        } else {
            extra.token = t.bonus;
            extra.state = CardFrame::State::Bonus;
            if (t.bonus >= 0 && t.bonusDist.size() > t.bonus)
                extra.p = t.bonusDist[t.bonus];
        }
    }

    switch (phase) {
    case Phase::Draft: f.currentCard = std::max(0, drafted - 1); break;
    case Phase::Verify: f.currentCard = 0; break;
    case Phase::Dice: f.currentCard = std::max(0, testsShown - 1); break;
    case Phase::Residual:
    case Phase::Bonus: f.currentCard = k; break;
    case Phase::Commit: f.currentCard = t.rejectedAt >= 0 ? t.rejectedAt : k; break;
    }
    if (k == 0)
        f.currentCard = 0;

    // The caches: draft call s (card s shown) leaves the draft's state at contextLength + s - 1 tokens (its last
    // draft is never fed), the whole extension once every card is drafted; the target's grows with the verify
    // pass; both are rolled back at Commit.
    const bool draftDone = phase != Phase::Draft || drafted >= k;
    f.draftCache = cacheAt(t.draftCache, draftDone ? t.draftCache.extended : t.contextLength + drafted - 1, f.committed);
    f.targetCache = cacheAt(t.targetCache, rank >= 1 ? t.targetCache.extended : t.targetCache.before, f.committed);
    return f;
}

DistributionFrame RoundFrame::distributions(int card) const
{
    DistributionFrame d;
    if (!trace || card < 0 || card >= static_cast<int>(cards.size()) || !cards[static_cast<std::size_t>(card)].visible)
        return d;
    const RoundTrace &t = *trace;
    const CardFrame &c = cards[static_cast<std::size_t>(card)];
    const int k = t.draftLength;
    const bool decided = c.state == CardFrame::State::Residual || c.state == CardFrame::State::Bonus
        || phase == Phase::Residual || phase == Phase::Bonus || phase == Phase::Commit;
    d.valid = true;
    if (card < k) {
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(card)];
        d.q = recorded(pos.qDist);
        if (c.p)
            d.p = recorded(pos.pDist);
        if (decided && card == t.rejectedAt)
            d.residual = recorded(t.residual);
        d.marked = c.token;
    } else if (c.state == CardFrame::State::Residual) {
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(t.rejectedAt)];
        d.q = recorded(pos.qDist);
        d.p = recorded(pos.pDist);
        d.residual = recorded(t.residual);
        d.marked = c.token;
    } else if (!sweeping) {
        // The (K+1)-th target row, scored in the verify pass; its token once the bonus is drawn.
        d.p = recorded(t.bonusDist);
        d.marked = c.state == CardFrame::State::Bonus ? c.token : -1;
    }
    return d;
}

} // namespace specdec::gui
