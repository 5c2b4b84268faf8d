// SPDX-License-Identifier: GPL-3.0-or-later
// The frame (RoundFrame.h) without any widget: what each phase and step of a round reveals — cards, numbers,
// verdicts, distributions, and how many rounds the other views may count. Hand-made traces, exact checks.
#include "NumberText.h"
#include "RoundFrame.h"

#include <QtTest>

using namespace specdec;
using namespace specdec::gui;
using State = CardFrame::State;

namespace {

Eigen::VectorXd dist(std::initializer_list<double> values)
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double x : values)
        v[i++] = x;
    return v;
}

/// A trace the test owns, handed to frameOf without ownership (the aliasing constructor with no owner): every
/// trace here outlives its frames, and the distributions' pointers can be compared with its vectors.
std::shared_ptr<const RoundTrace> unowned(const RoundTrace &t)
{
    return {std::shared_ptr<const RoundTrace>(), &t};
}

/// K = 3 over a vocabulary of 3 tokens: card 0 accepted, card 1 rejected, card 2 discarded; correction 2.
RoundTrace rejectedTrace()
{
    RoundTrace t;
    t.index = 4;
    t.draftLength = 3;
    const double u[] = {0.1, 0.9, -1.0};
    const Verdict v[] = {Verdict::Accepted, Verdict::Rejected, Verdict::Discarded};
    for (int i = 0; i < 3; ++i) {
        DraftPosition p;
        p.token = i;
        p.q = 0.5;
        p.p = 0.25;
        p.ratio = 0.5;
        p.threshold = 0.5;
        p.u = u[i];
        p.verdict = v[i];
        p.qDist = dist({0.5, 0.3, 0.2});
        p.pDist = dist({0.25, 0.25, 0.5});
        t.positions.push_back(p);
    }
    t.rejectedAt = 1;
    t.correction = 2;
    t.residual = dist({0.0, 0.0, 1.0});
    t.bonusDist = dist({0.2, 0.2, 0.6});
    t.committed = {0, 2};
    return t;
}

RoundTrace acceptedTrace()
{
    RoundTrace t = rejectedTrace();
    for (DraftPosition &p : t.positions) {
        p.verdict = Verdict::Accepted;
        p.u = 0.1;
    }
    t.rejectedAt = -1;
    t.correction = -1;
    t.residual.resize(0);
    t.bonus = 1;
    t.committed = {0, 1, 2, 1};
    return t;
}

} // namespace

class TestFrame : public QObject
{
    Q_OBJECT
private slots:
    void promptAloneShowsNothing();
    void draftRevealsCardsOneByOneWithQOnly();
    void verifyRevealsPAfterTheSweep();
    void diceRevealsVerdictsInOrder();
    void residualAndCommit();
    void bonusRound();
    void otherViewsCountOnlyCommittedRounds();
    void distributionsFollowThePhase();
    void predictBeforeRevealHidesEachVerdictOneStep();
    void greedyRollsNoDie();
    void cachesGrowByPhaseAndRollBackAtCommit();
    void dieTextsShowWhatTheDrawCanTake();
};

void TestFrame::promptAloneShowsNothing()
{
    const RoundFrame f = frameOf(nullptr, -1, Phase::Draft);
    QVERIFY(f.empty());
    QVERIFY(f.cards.empty());
    QCOMPARE(f.roundsRevealed, 0);
    QVERIFY(!f.distributions(0).valid);
}

void TestFrame::draftRevealsCardsOneByOneWithQOnly()
{
    const RoundTrace t = rejectedTrace();
    QCOMPARE(stepsOf(t, Phase::Draft), 3);
    for (int step = 1; step <= 3; ++step) {
        const RoundFrame f = frameOf(unowned(t), 4, Phase::Draft, step);
        QCOMPARE(static_cast<int>(f.cards.size()), 4);
        for (int i = 0; i < 3; ++i) {
            const CardFrame &c = f.cards[static_cast<std::size_t>(i)];
            QCOMPARE(c.visible, i < step);
            QCOMPARE(c.q.has_value(), i < step);
            QVERIFY(!c.p && !c.u && !c.threshold && !c.passed && !c.testShown);
            QCOMPARE(c.state, State::Pending);
        }
        QVERIFY(!f.cards[3].visible); // the K+1 card comes with the verify pass
        QCOMPARE(f.currentCard, step - 1);
        QCOMPARE(f.verdictsRevealed, 0);
        QVERIFY(!f.outcomeRevealed);
    }
}

void TestFrame::verifyRevealsPAfterTheSweep()
{
    const RoundTrace t = rejectedTrace();
    const RoundFrame sweep = frameOf(unowned(t), 4, Phase::Verify, 1);
    QVERIFY(sweep.sweeping);
    QVERIFY(!sweep.cards[0].p);
    QVERIFY(sweep.cards[3].visible);
    QCOMPARE(sweep.cards[3].state, State::Placeholder);
    QCOMPARE(sweep.cards[3].token, -1);
    const RoundFrame scored = frameOf(unowned(t), 4, Phase::Verify);
    QVERIFY(!scored.sweeping);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(scored.cards[static_cast<std::size_t>(i)].p, std::optional(0.25));
        QVERIFY(!scored.cards[static_cast<std::size_t>(i)].testShown);
        QVERIFY(!scored.cards[static_cast<std::size_t>(i)].u);
    }
    QVERIFY(!scored.outcomeRevealed);
}

void TestFrame::diceRevealsVerdictsInOrder()
{
    const RoundTrace t = rejectedTrace();
    QCOMPARE(stepsOf(t, Phase::Dice), 2); // tested: card 0 and the rejected card 1
    const RoundFrame first = frameOf(unowned(t), 4, Phase::Dice, 1);
    QCOMPARE(first.cards[0].passed, std::optional(true));
    QCOMPARE(first.cards[0].u, std::optional(0.1));
    QCOMPARE(first.cards[0].state, State::Accepted);
    QVERIFY(!first.cards[1].testShown);
    QCOMPARE(first.cards[1].state, State::Pending);
    QCOMPARE(first.cards[2].state, State::Pending); // not known to be discarded yet
    QCOMPARE(first.verdictsRevealed, 1);
    QVERIFY(!first.outcomeRevealed);
    const RoundFrame all = frameOf(unowned(t), 4, Phase::Dice);
    QCOMPARE(all.cards[1].passed, std::optional(false));
    QCOMPARE(all.cards[1].state, State::Rejected);
    QCOMPARE(all.cards[2].state, State::Discarded);
    QVERIFY(!all.cards[2].testShown);
    QCOMPARE(all.cards[3].state, State::Placeholder); // the correction comes in its own phase
    QCOMPARE(all.verdictsRevealed, 2);
    QVERIFY(all.outcomeRevealed);
    QCOMPARE(all.currentCard, 1);
}

void TestFrame::residualAndCommit()
{
    const RoundTrace t = rejectedTrace();
    // Asking for Bonus of a rejected round shows its Residual.
    const RoundFrame r = frameOf(unowned(t), 4, Phase::Bonus);
    QCOMPARE(r.phase, Phase::Residual);
    QCOMPARE(r.cards[3].state, State::Residual);
    QCOMPARE(r.cards[3].token, 2);
    QCOMPARE(r.cards[3].r, std::optional(1.0));
    QCOMPARE(r.currentCard, 3);
    QVERIFY(!r.committed);
    const RoundFrame c = frameOf(unowned(t), 4, Phase::Commit);
    QVERIFY(c.committed);
    QCOMPARE(c.currentCard, 1);
}

void TestFrame::bonusRound()
{
    const RoundTrace t = acceptedTrace();
    const RoundFrame dice = frameOf(unowned(t), 0, Phase::Dice);
    QCOMPARE(dice.cards[3].state, State::Placeholder);
    QVERIFY(dice.outcomeRevealed);
    const RoundFrame b = frameOf(unowned(t), 0, Phase::Bonus);
    QCOMPARE(b.cards[3].state, State::Bonus);
    QCOMPARE(b.cards[3].token, 1);
    QCOMPARE(b.cards[3].p, std::optional(0.2));
    QVERIFY(!b.cards[3].r);
}

void TestFrame::otherViewsCountOnlyCommittedRounds()
{
    const RoundTrace t = rejectedTrace();
    for (Phase p : {Phase::Draft, Phase::Verify, Phase::Dice, Phase::Residual})
        QCOMPARE(frameOf(unowned(t), 4, p).roundsRevealed, 4);
    QCOMPARE(frameOf(unowned(t), 4, Phase::Commit).roundsRevealed, 5);
}

void TestFrame::distributionsFollowThePhase()
{
    const RoundTrace t = rejectedTrace();
    const DistributionFrame draft = frameOf(unowned(t), 4, Phase::Draft).distributions(1);
    QVERIFY(draft.valid && draft.q && !draft.p && !draft.residual);
    QCOMPARE(draft.marked, 1);
    QVERIFY(!frameOf(unowned(t), 4, Phase::Draft, 1).distributions(1).valid); // card 1 not drafted yet
    const DistributionFrame verify = frameOf(unowned(t), 4, Phase::Verify).distributions(1);
    QVERIFY(verify.q && verify.p && !verify.residual);
    QVERIFY(!frameOf(unowned(t), 4, Phase::Dice).distributions(1).residual);
    const DistributionFrame rejected = frameOf(unowned(t), 4, Phase::Residual).distributions(1);
    QVERIFY(rejected.residual);
    // The K+1 card: p of position K+1 after the sweep, the residual once the correction is drawn.
    QVERIFY(!frameOf(unowned(t), 4, Phase::Draft).distributions(3).valid);
    const DistributionFrame extraVerify = frameOf(unowned(t), 4, Phase::Verify).distributions(3);
    QVERIFY(extraVerify.p == &t.bonusDist && extraVerify.marked == -1);
    const DistributionFrame extra = frameOf(unowned(t), 4, Phase::Residual).distributions(3);
    QVERIFY(extra.residual == &t.residual && extra.p == &t.positions[1].pDist);
    QCOMPARE(extra.marked, 2);
    // Rounds without their vectors (older than the history's window) reveal no distributions.
    RoundTrace light = t;
    for (DraftPosition &p : light.positions) {
        p.pDist.resize(0);
        p.qDist.resize(0);
    }
    const DistributionFrame none = frameOf(unowned(light), 4, Phase::Commit).distributions(0);
    QVERIFY(none.valid && !none.p && !none.q);
}

void TestFrame::predictBeforeRevealHidesEachVerdictOneStep()
{
    const RoundTrace t = rejectedTrace();
    RevealOptions predict;
    predict.predictBeforeReveal = true;
    QCOMPARE(stepsOf(t, Phase::Dice, predict), 4);
    const RoundFrame ask = frameOf(unowned(t), 4, Phase::Dice, 1, predict);
    QVERIFY(ask.cards[0].testShown);
    QCOMPARE(ask.cards[0].threshold, std::optional(0.5));
    QVERIFY(ask.cards[0].p && ask.cards[0].q); // p, q and the threshold to predict from
    QVERIFY(!ask.cards[0].passed);             // '?'
    QVERIFY(!ask.cards[0].u);                  // the die is not rolled yet
    QCOMPARE(ask.cards[0].state, State::Pending);
    QCOMPARE(ask.verdictsRevealed, 0);
    const RoundFrame told = frameOf(unowned(t), 4, Phase::Dice, 2, predict);
    QCOMPARE(told.cards[0].passed, std::optional(true));
    QCOMPARE(told.cards[0].u, std::optional(t.positions[0].u)); // rolled with the verdict
    QCOMPARE(told.verdictsRevealed, 1);
    QVERIFY(!told.outcomeRevealed);
    QVERIFY(!told.cards[1].testShown);
    const RoundFrame last = frameOf(unowned(t), 4, Phase::Dice, RoundFrame::kAllSteps, predict);
    QCOMPARE(last.cards[1].passed, std::optional(false));
}

void TestFrame::greedyRollsNoDie()
{
    RoundTrace t = rejectedTrace();
    t.greedy = true;
    const RoundFrame f = frameOf(unowned(t), 4, Phase::Dice);
    QVERIFY(f.cards[0].testShown);
    QVERIFY(!f.cards[0].u);
    QCOMPARE(f.cards[0].passed, std::optional(true));
}

void TestFrame::cachesGrowByPhaseAndRollBackAtCommit()
{
    // A round after a context of 10 tokens: the draft's state holds 9 (the last committed token is fed with
    // its first call) and ends its 3 calls at 10 + 3 - 1; the target's holds 9, scores 10 + 3 positions, and
    // both keep the context and the one accepted draft.
    RoundTrace t = rejectedTrace();
    t.contextLength = 10;
    t.draftCache = {9, 12, 11, 1, 0, 3};
    t.targetCache = {9, 13, 11, 2, 1, 4};
    for (int step = 1; step <= 3; ++step) {
        const RoundFrame f = frameOf(unowned(t), 4, Phase::Draft, step);
        QVERIFY(f.draftCache.valid);
        QCOMPARE(f.draftCache.length, step == 3 ? 12 : 10 + step - 1);
        QCOMPARE(f.targetCache.length, 9); // the head chef has not been called
        QCOMPARE(f.targetCache.refills, 0);
        QVERIFY(!f.draftCache.rolledBack);
    }
    for (Phase phase : {Phase::Verify, Phase::Dice, Phase::Residual}) {
        const RoundFrame f = frameOf(unowned(t), 4, phase);
        QCOMPARE(f.targetCache.length, 13);
        QCOMPARE(f.targetCache.peak, 13);
        QCOMPARE(f.targetCache.refills, 1);
        QCOMPARE(f.targetCache.discarded, 0); // the rollback comes with the commit
        QCOMPARE(f.draftCache.length, 12);
    }
    const RoundFrame commit = frameOf(unowned(t), 4, Phase::Commit);
    QVERIFY(commit.targetCache.rolledBack && commit.draftCache.rolledBack);
    QCOMPARE(commit.targetCache.length, t.contextLength + t.acceptedCount());
    QCOMPARE(commit.draftCache.length, t.contextLength + t.acceptedCount());
    QCOMPARE(commit.targetCache.discarded, 2);
    QCOMPARE(commit.targetCache.peak, 13);
    QCOMPARE(commit.draftCache.discarded, 1);
    QVERIFY(!frameOf(nullptr, -1, Phase::Commit).targetCache.valid);
}

// u ∈ [0, 1) never reads "1.000" (a card once showed "u 1.000 ≥ 0.440"), and the two numbers written side by
// side always show the comparison that was made.
void TestFrame::dieTextsShowWhatTheDrawCanTake()
{
    QCOMPARE(dieTexts(0.99996, 0.44).u, QStringLiteral("0.999"));
    QCOMPARE(dieTexts(0.99996, 0.44).threshold, QStringLiteral("0.440"));
    QCOMPARE(dieTexts(0.9999999, 1.0).u, QStringLiteral("0.999")); // accepted: 0.999 < 1.000
    QCOMPARE(dieTexts(0.25, 0.5).u, QStringLiteral("0.250"));
    // Close calls get the digits that tell them apart, either way.
    for (const auto &[u, t] : {std::pair{0.44061, 0.44053}, std::pair{0.44049, 0.44051}, std::pair{0.1234567, 0.1234571},
                               std::pair{0.5, 0.5}, std::pair{0.0, 0.0004}, std::pair{0.7345, 0.0006}}) {
        const DieTexts texts = dieTexts(u, t);
        QVERIFY2((texts.u.toDouble() < texts.threshold.toDouble()) == (u < t),
                 qPrintable(QStringLiteral("u %1 vs %2 written %3 vs %4").arg(u).arg(t).arg(texts.u, texts.threshold)));
        QVERIFY(texts.u.toDouble() <= u);
        QVERIFY(texts.u.toDouble() < 1.0);
        QCOMPARE(texts.u.section(QLatin1Char('.'), 1).size(), texts.threshold.section(QLatin1Char('.'), 1).size());
    }
}

QTEST_APPLESS_MAIN(TestFrame)
#include "test_frame.moc"
