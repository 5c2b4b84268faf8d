// SPDX-License-Identifier: GPL-3.0-or-later
// RoundHistory is bounded: rounds older than its window keep their numbers but no distribution vectors (the
// bytes held stay O(window) however many rounds are played), the pinned round on screen keeps its vectors,
// views that read it copy nothing, and clear() gives everything back.
#include "GuiTestSupport.h"

#include "RoundHistory.h"
#include "TimelineModel.h"

#include <QSignalSpy>
#include <QtTest>

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

QTEST_MAIN(TestHistory)
#include "test_gui_history.moc"
