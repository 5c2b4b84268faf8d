// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline lists every round (its model passes QAbstractItemModelTester), and jumping back to a round
// restores exactly what the round view showed when that round was first played.
#include "GuiTestSupport.h"

#include "RoundView.h"
#include "Timeline.h"
#include "TimelineDelegate.h"

#include <QAbstractItemModelTester>
#include <QListView>
#include <QPainter>
#include <QStringListModel>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

class TestTimeline : public QObject
{
    Q_OBJECT
private slots:
    void modelIsSound();
    void jumpBackRestoresTheRoundExactly();
    void delegateCacheStaysBounded();
};

void TestTimeline::modelIsSound()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 12);
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setVocabulary(played.info.vocabulary);
    RoundHistory history(100);
    model.setHistory(&history);
    history.append({played.records.begin(), played.records.begin() + 4});
    QCOMPARE(model.rowCount(), 4);
    history.append({played.records.begin() + 4, played.records.end()});
    QCOMPARE(model.rowCount(), 12);
    for (int r = 0; r < 12; ++r) {
        const QModelIndex index = model.index(r, 0);
        const RoundTrace &t = played.records[static_cast<std::size_t>(r)]->trace;
        QCOMPARE(index.data(TimelineModel::RoundRole).toInt(), r);
        QCOMPARE(index.data(TimelineModel::AcceptedRole).toInt(), t.acceptedCount());
        QVERIFY(!index.data(Qt::ToolTipRole).toString().isEmpty());
    }
    history.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestTimeline::jumpBackRestoresTheRoundExactly()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 8);
    RoundView view;
    view.resize(1000, 520);
    view.setSession(played.info);
    Timeline timeline;
    timeline.resize(300, 400);
    timeline.model()->setVocabulary(played.info.vocabulary);
    timeline.model()->setHistory(played.history.get());
    connect(&timeline, &Timeline::roundActivated, &view,
            [&](int round) { view.showPosition(*played.history, round, Phase::Dice, false); });
    timeline.show();

    view.showPosition(*played.history, 2, Phase::Dice, false);
    const QImage first = view.grab().toImage();
    const QString firstText = view.transcript()->plainText();
    for (int r = 3; r < 8; ++r)
        view.showPosition(*played.history, r, Phase::Commit, false);
    QVERIFY(view.grab().toImage() != first);

    QSignalSpy spy(&timeline, &Timeline::roundActivated);
    const QRect row = timeline.view()->visualRect(timeline.model()->index(2, 0));
    QTest::mouseClick(timeline.view()->viewport(), Qt::LeftButton, {}, row.center());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.front().front().toInt(), 2);
    QCOMPARE(view.round(), 2);
    QCOMPARE(view.transcript()->plainText(), firstText);
    QCOMPARE(view.grab().toImage(), first);
}

void TestTimeline::delegateCacheStaysBounded()
{
    // A long run lists many rounds; the prepared row texts kept stay bounded however many rows were painted.
    QStringList rows;
    for (int i = 0; i < 5000; ++i)
        rows << QStringLiteral("round %1 ✓✓✗").arg(i);
    QStringListModel model(rows);
    TimelineDelegate delegate;
    QImage image(200, 20, QImage::Format_ARGB32);
    QPainter painter(&image);
    QStyleOptionViewItem option;
    option.rect = QRect(0, 0, 200, 20);
    for (int i = 0; i < model.rowCount(); ++i) {
        delegate.paint(&painter, option, model.index(i));
        QVERIFY(delegate.cachedRows() <= TimelineDelegate::kCachedRows);
    }
    QVERIFY(delegate.cachedRows() > 0);
}

QTEST_MAIN(TestTimeline)
#include "test_gui_timeline.moc"
