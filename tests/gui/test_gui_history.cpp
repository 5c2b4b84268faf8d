// SPDX-License-Identifier: GPL-3.0-or-later
// RoundHistory is bounded: rounds older than its window keep their numbers but no distribution vectors (the
// bytes held stay O(window) however many rounds are played), the pinned round on screen keeps its vectors,
// views that read it copy nothing, and clear() gives everything back. Older rounds are rebuilt from compact
// numbers (CompactRounds): every number equals the record SessionRun made, and the records and bytes held stay
// bounded after many rounds.
#include "GuiTestSupport.h"

#include "../TestSupport.h"

#include "RoundFrame.h"
#include "RoundHistory.h"
#include "SessionRun.h"
#include "TimelineModel.h"

#include "ModelFactory.h"
#include "Utf8.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <deque>

using namespace specdec;
using namespace specdec::gui;

namespace {

constexpr int kVocabulary = 5000; // a vocabulary the size of tang-song's: 40 kB per vector

/// A round with K = 4 and full vectors of `kVocabulary` entries (what a recorded round holds).
std::shared_ptr<const RoundRecord> syntheticRound(int index)
{
    RoundRecord r;
    r.trace.index = index;
    r.trace.draftLength = 4;
    r.trace.rejectedAt = index % 5 == 4 ? -1 : index % 4;
    for (int i = 0; i < 4; ++i) {
        DraftPosition p;
        p.token = index + i;
        p.p = 0.25 + 0.001 * i;
        p.q = 0.5;
        p.u = 0.125 * i;
        p.pDist = Eigen::VectorXd::Constant(kVocabulary, 1.0 / kVocabulary);
        p.qDist = Eigen::VectorXd::Constant(kVocabulary, 1.0 / kVocabulary);
        r.trace.positions.push_back(p);
    }
    r.trace.residual = Eigen::VectorXd::Constant(kVocabulary, 1.0 / kVocabulary);
    r.trace.committed = {index, index + 1};
    r.cumulative.rounds = index + 1;
    r.seconds = 1e-3 * index;
    return std::make_shared<const RoundRecord>(std::move(r));
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT
private slots:
    void oldRoundsKeepNumbersOnly();
    void distributionBytesStayBounded();
    void pinnedRoundKeepsItsVectors();
    void clearGivesEverythingBack();
    void timelineReadsWithoutCopying();
    void rebuiltRoundsEqualTheOriginals();
    void recordsAndBytesStayBounded();
    void oldestRoundsLeaveTheirSumsStay();
    void keptFrameOutlivesTheCache();
};

void TestHistory::oldRoundsKeepNumbersOnly()
{
    RoundHistory history(10);
    QSignalSpy added(&history, &RoundHistory::roundsAdded);
    for (int i = 0; i < 25; ++i)
        history.append({syntheticRound(i)});
    QCOMPARE(history.size(), 25);
    QCOMPARE(added.count(), 25);
    for (int i = 0; i < 25; ++i) {
        const RoundRecord &r = history.at(i);
        const bool recent = i >= 15;
        QCOMPARE(history.hasDistributions(i), recent);
        QCOMPARE(r.trace.positions.front().pDist.size(), recent ? kVocabulary : 0);
        QCOMPARE(r.trace.positions.back().qDist.size(), recent ? kVocabulary : 0);
        QCOMPARE(r.trace.residual.size(), recent ? kVocabulary : 0);
        // every number stays
        const auto expected = syntheticRound(i);
        QCOMPARE(r.trace.index, i);
        QCOMPARE(r.trace.rejectedAt, expected->trace.rejectedAt);
        QCOMPARE(r.trace.committed, expected->trace.committed);
        QCOMPARE(r.trace.positions.size(), std::size_t(4));
        for (std::size_t k = 0; k < 4; ++k) {
            QCOMPARE(r.trace.positions[k].p, expected->trace.positions[k].p);
            QCOMPARE(r.trace.positions[k].u, expected->trace.positions[k].u);
            QCOMPARE(r.trace.positions[k].token, expected->trace.positions[k].token);
        }
        QCOMPARE(r.cumulative.rounds, i + 1);
        QCOMPARE(r.seconds, expected->seconds);
    }
}

void TestHistory::distributionBytesStayBounded()
{
    const std::size_t perRound = distributionBytes(*syntheticRound(0));
    QCOMPARE(perRound, std::size_t(9) * kVocabulary * sizeof(double));
    RoundHistory history(50);
    std::size_t most = 0;
    for (int batch = 0; batch < 40; ++batch) { // 2,000 rounds in batches of 50
        std::vector<std::shared_ptr<const RoundRecord>> rounds;
        for (int i = 0; i < 50; ++i)
            rounds.push_back(syntheticRound(batch * 50 + i));
        history.append(std::move(rounds));
        most = std::max(most, history.distributionBytes());
    }
    QCOMPARE(history.size(), 2000);
    QCOMPARE(most, 50 * perRound); // the window, never more
    int withVectors = 0;
    for (int i = 0; i < history.size(); ++i)
        withVectors += history.hasDistributions(i) ? 1 : 0;
    QCOMPARE(withVectors, 50);
}

void TestHistory::pinnedRoundKeepsItsVectors()
{
    RoundHistory history(5);
    for (int i = 0; i < 3; ++i)
        history.append({syntheticRound(i)});
    history.pin(1); // the round on screen
    for (int i = 3; i < 20; ++i)
        history.append({syntheticRound(i)});
    QVERIFY(history.hasDistributions(1));
    QVERIFY(!history.hasDistributions(0));
    QVERIFY(!history.hasDistributions(2));
    QCOMPARE(history.distributionBytes(), 6 * distributionBytes(*syntheticRound(0)));
    history.pin(18); // moving on releases the old one
    QVERIFY(!history.hasDistributions(1));
    QVERIFY(history.hasDistributions(18));
    QCOMPARE(history.distributionBytes(), 5 * distributionBytes(*syntheticRound(0)));
    history.pin(-1);
    QCOMPARE(history.pinned(), -1);
}

void TestHistory::clearGivesEverythingBack()
{
    RoundHistory history(8);
    std::weak_ptr<const RoundRecord> watched;
    {
        auto first = syntheticRound(0);
        watched = first;
        history.append({std::move(first)});
    }
    for (int i = 1; i < 30; ++i)
        history.append({syntheticRound(i)});
    QVERIFY(watched.expired()); // the thinned round's full record is gone, not kept by anyone
    std::weak_ptr<const RoundRecord> last = history.shared(29);
    QSignalSpy cleared(&history, &RoundHistory::cleared);
    history.clear();
    QCOMPARE(cleared.count(), 1);
    QCOMPARE(history.size(), 0);
    QCOMPARE(history.distributionBytes(), std::size_t(0));
    QVERIFY(last.expired());
}

void TestHistory::timelineReadsWithoutCopying()
{
    RoundHistory history(4);
    TimelineModel model;
    model.setHistory(&history);
    std::weak_ptr<const RoundRecord> first;
    for (int i = 0; i < 12; ++i) {
        auto r = syntheticRound(i);
        if (i == 0)
            first = r;
        history.append({std::move(r)});
    }
    QCOMPARE(model.rowCount(), 12);
    QVERIFY(first.expired()); // the model kept no copy of the full record
    QCOMPARE(model.index(0, 0).data(TimelineModel::RoundRole).toInt(), 0);
    QCOMPARE(history.distributionBytes(), 4 * distributionBytes(*syntheticRound(0)));
    history.clear();
    QCOMPARE(model.rowCount(), 0);
}

namespace {

void compareMetrics(const RunMetrics &a, const RunMetrics &b)
{
    QCOMPARE(a.rounds, b.rounds);
    QCOMPARE(a.generatedTokens, b.generatedTokens);
    QCOMPARE(a.drafted, b.drafted);
    QCOMPARE(a.tested, b.tested);
    QCOMPARE(a.accepted, b.accepted);
    QCOMPARE(a.maxDraftLength, b.maxDraftLength);
    // exactly the same bits: rebuilt in the same order of operations, not approximately
    QVERIFY(a.acceptanceRate == b.acceptanceRate);
    QVERIFY(a.draftAcceptance == b.draftAcceptance);
    QCOMPARE(a.perPositionTested, b.perPositionTested);
    QCOMPARE(a.perPositionAcceptance.size(), b.perPositionAcceptance.size());
    for (std::size_t i = 0; i < a.perPositionAcceptance.size(); ++i)
        QVERIFY(a.perPositionAcceptance[i] == b.perPositionAcceptance[i]
                || (std::isnan(a.perPositionAcceptance[i]) && std::isnan(b.perPositionAcceptance[i])));
    QVERIFY(a.tokensPerRound == b.tokensPerRound);
    QVERIFY(a.meanOverlap == b.meanOverlap);
    QVERIFY(a.meanTotalVariation == b.meanTotalVariation);
    QCOMPARE(a.targetCalls, b.targetCalls);
    QCOMPARE(a.draftCalls, b.draftCalls);
    QVERIFY(a.targetSeconds == b.targetSeconds);
    QVERIFY(a.draftSeconds == b.draftSeconds);
    QVERIFY(a.costRatio == b.costRatio);
    QVERIFY(a.expectedTokensPerRound == b.expectedTokensPerRound);
    QVERIFY(a.speedupForwardPasses == b.speedupForwardPasses);
    QVERIFY(a.speedupCostModel == b.speedupCostModel);
    QCOMPARE(a.targetFed, b.targetFed);
    QCOMPARE(a.targetDiscarded, b.targetDiscarded);
    QCOMPARE(a.draftDiscarded, b.draftDiscarded);
    QCOMPARE(a.cacheDiscarded, b.cacheDiscarded);
    QCOMPARE(a.cacheRefills, b.cacheRefills);
    QVERIFY(a.rejectedComputeShare == b.rejectedComputeShare);
    QCOMPARE(a.speedupWallClock.has_value(), b.speedupWallClock.has_value());
    if (a.speedupWallClock)
        QVERIFY(*a.speedupWallClock == *b.speedupWallClock);
    QVERIFY(a.seconds == b.seconds);
}

void compareTraces(const RoundTrace &a, const RoundTrace &b)
{
    QCOMPARE(a.index, b.index);
    QCOMPARE(a.contextLength, b.contextLength);
    QCOMPARE(a.draftLength, b.draftLength);
    QCOMPARE(a.greedy, b.greedy);
    QCOMPARE(a.positions.size(), b.positions.size());
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
        const DraftPosition &x = a.positions[i];
        const DraftPosition &y = b.positions[i];
        QCOMPARE(x.token, y.token);
        QVERIFY(x.q == y.q && x.p == y.p && x.ratio == y.ratio && x.threshold == y.threshold && x.u == y.u);
        QVERIFY(x.overlap == y.overlap && x.totalVariation == y.totalVariation);
        QCOMPARE(x.verdict, y.verdict);
    }
    QCOMPARE(a.rejectedAt, b.rejectedAt);
    QCOMPARE(a.correction, b.correction);
    QCOMPARE(a.bonus, b.bonus);
    QCOMPARE(a.committed, b.committed);
    QCOMPARE(a.targetCalls, b.targetCalls);
    QCOMPARE(a.draftCalls, b.draftCalls);
    QVERIFY(a.targetSeconds == b.targetSeconds && a.draftSeconds == b.draftSeconds);
    QVERIFY(a.teachingSeconds == b.teachingSeconds);
    for (const auto &[x, y] : {std::pair(a.targetCache, b.targetCache), std::pair(a.draftCache, b.draftCache)}) {
        QCOMPARE(x.before, y.before);
        QCOMPARE(x.extended, y.extended);
        QCOMPARE(x.after, y.after);
        QCOMPARE(x.discarded, y.discarded);
        QCOMPARE(x.refills, y.refills);
        QCOMPARE(x.fed, y.fed);
    }
}

} // namespace

void TestHistory::rebuiltRoundsEqualTheOriginals()
{
    // The session's own rounds (SessionRun: per-round and cumulative metrics, wall times, the baseline), kept
    // in a history whose window holds 8 of them: the rest are rebuilt from compact numbers.
    const Setup setup = test::tinySetup();
    const Corpus corpus = test::tinyEnglish();
    auto target = buildModel(ModelSpec::parse("ngram:4"), corpus).model;
    auto draft = buildModel(ModelSpec::parse("ngram:2"), corpus, &target->tokenizer(), target.get()).model;
    DecodingSettings settings = setup.decoding;
    settings.recordDistributions = true;
    SessionRun run(*target, *draft, settings, target->tokenizer().encode(decodeUtf8("the ", "prompt")), 100000);
    std::vector<std::shared_ptr<const RoundRecord>> originals;
    RoundHistory history(8);
    for (int i = 0; i < 700; ++i) { // past two checkpoints of the cumulative sums
        originals.push_back(run.playRound());
        history.append({originals.back()});
    }
    auto check = [&](int i) {
        const RoundRecord &r = history.at(i);
        QCOMPARE(history.hasDistributions(i), i >= 692);
        compareTraces(r.trace, originals[static_cast<std::size_t>(i)]->trace);
        compareMetrics(r.round, originals[static_cast<std::size_t>(i)]->round);
        compareMetrics(r.cumulative, originals[static_cast<std::size_t>(i)]->cumulative);
        QVERIFY(r.seconds == originals[static_cast<std::size_t>(i)]->seconds);
        QVERIFY(r.baselineSeconds == originals[static_cast<std::size_t>(i)]->baselineSeconds);
        const auto committed = history.committed(i);
        QCOMPARE(std::vector<TokenId>(committed.begin(), committed.end()), r.trace.committed);
    };
    for (int i = 0; i < 700; ++i) // forward (the cursor)
        check(i);
    for (int i : {699, 300, 5, 511, 512, 256, 255, 0, 691}) // jumps (the checkpoints)
        check(i);
    QVERIFY(originals[0]->round.speedupWallClock.has_value()); // the baseline was measured, and rebuilt
}

void TestHistory::recordsAndBytesStayBounded()
{
    RoundHistory history(20);
    constexpr int kRounds = 40000;
    for (int batch = 0; batch < kRounds / 500; ++batch) {
        std::vector<std::shared_ptr<const RoundRecord>> rounds;
        for (int i = 0; i < 500; ++i) {
            RoundRecord r;
            r.trace.index = batch * 500 + i;
            r.trace.draftLength = 4;
            r.trace.positions.resize(4);
            for (DraftPosition &x : r.trace.positions)
                x.totalVariation = 1.0 - x.overlap; // as the decoder sets it
            r.trace.committed = {1, 2, 3};
            rounds.push_back(std::make_shared<const RoundRecord>(std::move(r)));
        }
        history.append(std::move(rounds));
    }
    // a position whose ratio, threshold and TV are not the decoder's formulas keeps them all the same
    RoundRecord odd;
    odd.trace.index = kRounds;
    odd.trace.draftLength = 1;
    DraftPosition p;
    p.p = 0.2;
    p.q = 0.4;
    p.overlap = 0.6;
    p.ratio = 7.0;
    p.threshold = 0.3;
    p.totalVariation = 0.9;
    odd.trace.positions = {p};
    history.append(std::move(odd));
    for (int i = 0; i < 30; ++i) {
        RoundRecord r;
        r.trace.index = kRounds + 1 + i;
        history.append(std::move(r));
    }
    QVERIFY(!history.hasDistributions(kRounds));
    const DraftPosition &kept = history.at(kRounds).trace.positions.front();
    QVERIFY(kept.ratio == 7.0 && kept.threshold == 0.3 && kept.totalVariation == 0.9 && kept.p == 0.2);
    // 40,000 rounds: the oldest have left (the numbers of 20,480 to 20,736 rounds are kept); a view reads
    // every round kept
    QCOMPARE(history.first() % CompactRounds::kCheckpointEvery, 0);
    QVERIFY(history.size() - history.first() >= CompactRounds::kDefaultKept);
    QVERIFY(history.size() - history.first() < CompactRounds::kDefaultKept + CompactRounds::kCheckpointEvery);
    for (int i = history.first(); i < kRounds; i += 7)
        QCOMPARE(history.at(i).trace.index, i);
    QCOMPARE(history.size(), kRounds + 31);
    QVERIFY(history.recordsHeld() <= history.window() + 1 + RoundHistory::kCached);
    // K = 4, three tokens: 136 bytes of numbers, 4 positions of 40, 12 bytes of tokens, checkpoints
    const double perRound = static_cast<double>(history.compactBytes()) / (history.size() - history.first());
    QVERIFY2(perRound < 330.0, qPrintable(QString::number(perRound)));
}

void TestHistory::oldestRoundsLeaveTheirSumsStay()
{
    // A history keeping 512 rounds' numbers: after 2,000 and 4,000 rounds the oldest have left in whole blocks
    // of 256, the bytes held do not grow, and every round kept still equals the record SessionRun made,
    // cumulative metrics included (the sums of the rounds that left live on in the checkpoint).
    const Setup setup = test::tinySetup();
    const Corpus corpus = test::tinyEnglish();
    auto target = buildModel(ModelSpec::parse("ngram:3"), corpus).model;
    auto draft = buildModel(ModelSpec::parse("ngram:1"), corpus, &target->tokenizer(), target.get()).model;
    DecodingSettings settings = setup.decoding;
    settings.recordDistributions = false;
    SessionRun run(*target, *draft, settings, target->tokenizer().encode(decodeUtf8("the ", "prompt")), 1000000);
    RoundHistory history(8, nullptr, 512);
    TimelineModel timeline;
    timeline.setHistory(&history);
    std::deque<std::shared_ptr<const RoundRecord>> originals; // the newest 1,000 (older ones are not compared)
    std::size_t bytesAt2000 = 0;
    for (int i = 0; i < 4000; ++i) {
        originals.push_back(run.playRound());
        if (originals.size() > 1000)
            originals.pop_front();
        history.append({originals.back()});
        if (i == 1999)
            bytesAt2000 = history.compactBytes();
    }
    QCOMPARE(history.size(), 4000);
    QVERIFY(history.first() > 0);
    QCOMPARE(history.first() % CompactRounds::kCheckpointEvery, 0);
    QVERIFY(history.size() - history.first() >= 512);
    QVERIFY(history.size() - history.first() < 512 + CompactRounds::kCheckpointEvery);
    QVERIFY(!history.contains(history.first() - 1));
    QVERIFY(history.contains(history.first()));
    QVERIFY2(history.compactBytes() <= bytesAt2000 + bytesAt2000 / 10,
             qPrintable(QStringLiteral("%1 > %2").arg(history.compactBytes()).arg(bytesAt2000)));
    const int oldestCompared = 4000 - static_cast<int>(originals.size());
    for (int i : {history.first(), history.first() + 1, history.first() + 255, history.first() + 256, 3999, 3500,
                  history.first()}) {
        QVERIFY(i >= oldestCompared);
        const RoundRecord &r = history.at(i);
        const RoundRecord &o = *originals[static_cast<std::size_t>(i - oldestCompared)];
        compareTraces(r.trace, o.trace);
        compareMetrics(r.round, o.round);
        compareMetrics(r.cumulative, o.cumulative);
        QCOMPARE(r.cumulative.rounds, i + 1);
        const auto committed = history.committed(i);
        QCOMPARE(std::vector<TokenId>(committed.begin(), committed.end()), o.trace.committed);
    }
    // The timeline still counts every round; a row that left says so and names its round.
    timeline.setRevealed(4000, 0, true);
    QCOMPARE(timeline.rowCount(), 4000);
    QCOMPARE(timeline.index(0).data(TimelineModel::RoundRole).toInt(), 0);
    QVERIFY(timeline.index(0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("totals only")));
    QVERIFY(timeline.index(3999).data(Qt::DisplayRole).toString().startsWith(QStringLiteral("4000")));
}

void TestHistory::keptFrameOutlivesTheCache()
{
    // A frame kept past the call (the window keeps the position on screen while it reads other rounds) must
    // own its trace: an older round's record lives in the history's small cache of rebuilt rounds, and reading
    // kCached other old rounds lets it go. A raw pointer into it would then read freed memory, soon another
    // rebuilt round's record (same size, the allocator's first choice): a wrong index here, or ASan's
    // heap-use-after-free.
    RoundHistory history(4);
    const int rounds = 2 * RoundHistory::kCached + 40;
    for (int i = 0; i < rounds; ++i)
        history.append({syntheticRound(i)});
    const int round = 3;
    QVERIFY(!history.hasDistributions(round)); // older than the window: rebuilt when read, then cached
    const RoundFrame frame = frameOf(history.trace(round), round, Phase::Commit);
    const RoundTrace expected = frame.trace ? *frame.trace : RoundTrace{}; // a copy of its numbers while fresh
    QCOMPARE(expected.index, round);
    const std::weak_ptr<const RoundTrace> watched = frame.trace;
    for (int r = round + 1; r < round + 1 + RoundHistory::kCached + 8; ++r) {
        QVERIFY(!history.hasDistributions(r));
        QCOMPARE(history.at(r).trace.index, r);
    }
    // Round 3 left the cache and is rebuilt anew when read, while the frame still owns its own record.
    QVERIFY(history.recordsHeld() <= 4 + RoundHistory::kCached);
    QVERIFY(&history.at(round).trace != frame.trace.get());
    QVERIFY(!watched.expired());
    compareTraces(*frame.trace, expected);
    const std::shared_ptr<const RoundRecord> original = syntheticRound(round);
    QCOMPARE(frame.trace->committed, original->trace.committed);
    QCOMPARE(frame.trace->rejectedAt, original->trace.rejectedAt);
    for (std::size_t i = 0; i < original->trace.positions.size(); ++i)
        QCOMPARE(frame.trace->positions[i].token, original->trace.positions[i].token);
    QCOMPARE(frame.cards.size(), original->trace.positions.size() + 1);
    // It even outlives the history's records: clear() frees everything the history holds, not the frame's.
    history.clear();
    compareTraces(*frame.trace, expected);
    QCOMPARE(frame.distributions(0).marked, original->trace.positions[0].token);
}

QTEST_MAIN(TestHistory)
#include "test_gui_history.moc"
