// SPDX-License-Identifier: GPL-3.0-or-later
// The round view shows a round phase by phase in the documented order: Draft (cards with q), Verify (p on
// every card, the K+1 slot), Dice (verdicts in order, discarded cards after a rejection), Residual or Bonus
// (the extra card), Commit (the tokens join the text). The text's box is as tall as its text, so the space of a
// short text goes to the cards.
#include "GuiTestSupport.h"

#include "CacheStrip.h"
#include "RoundView.h"
#include "TheoryPanel.h"
#include "TokenText.h"

#include <QAbstractTextDocumentLayout>
#include <QScrollBar>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;
using State = CardContent::State;

class TestRoundView : public QObject
{
    Q_OBJECT
private slots:
    void phasesOfRounds();
    void stepsInDocumentedOrder_data();
    void stepsInDocumentedOrder();
    void draftCardsAppearOneByOne();
    void transcriptColoursByOrigin();
    void cacheStripsRollBackToTheCommittedPrefix_data();
    void cacheStripsRollBackToTheCommittedPrefix();
    void shortTextLeavesNoEmptyBox_data();
    void shortTextLeavesNoEmptyBox();
    void cacheStripSaysWhatItCounts();
    void theoryNotesWindowRefills();
};

void TestRoundView::phasesOfRounds()
{
    RoundTrace rejected;
    rejected.rejectedAt = 1;
    RoundTrace passed;
    QCOMPARE(phasesOf(rejected), (std::vector{Phase::Draft, Phase::Verify, Phase::Dice, Phase::Residual, Phase::Commit}));
    QCOMPARE(phasesOf(passed), (std::vector{Phase::Draft, Phase::Verify, Phase::Dice, Phase::Bonus, Phase::Commit}));
    for (Phase p : {Phase::Draft, Phase::Verify, Phase::Dice, Phase::Residual, Phase::Bonus, Phase::Commit})
        QCOMPARE(phaseFromKey(phaseKey(p)), std::optional(p));
}

void TestRoundView::stepsInDocumentedOrder_data()
{
    QTest::addColumn<QString>("draft");
    QTest::addColumn<double>("temperature");
    QTest::addColumn<bool>("rejected");
    QTest::addRow("sampled, a rejection") << QStringLiteral("uniform") << 1.0 << true;
    QTest::addRow("sampled, all pass") << QStringLiteral("same") << 1.0 << false;
    QTest::addRow("greedy, a rejection") << QStringLiteral("ngram:1") << 0.0 << true;
}

void TestRoundView::stepsInDocumentedOrder()
{
    QFETCH(QString, draft);
    QFETCH(double, temperature);
    QFETCH(bool, rejected);
    const auto played = test::playRounds("ngram:4", draft.toStdString(), temperature, 12);
    const int round = test::findRound(played, rejected);
    QVERIFY(round >= 0);
    const RoundTrace &t = played.records[static_cast<std::size_t>(round)]->trace;
    const int k = t.draftLength;

    RoundView view;
    view.resize(1000, 500);
    view.setSession(played.info);
    std::vector<Phase> seen;
    for (Phase phase : phasesOf(t)) {
        view.showPosition(*played.history, round, phase, false);
        seen.push_back(view.phase());
        QVERIFY(view.headerText().contains(phaseName(phase)));
        const CardStrip *cards = view.cards();
        QCOMPARE(cards->cardCount(), k + 1);
        for (int i = 0; i < k; ++i) {
            const auto s = cards->cardState(i);
            const Verdict v = t.positions[static_cast<std::size_t>(i)].verdict;
            QVERIFY(s.visible);
            QVERIFY(s.showsQ);
            QCOMPARE(s.showsP, phase != Phase::Draft);
            const bool tested = phase != Phase::Draft && phase != Phase::Verify && v != Verdict::Discarded;
            QCOMPARE(s.showsTest, tested);
            if (!tested && v != Verdict::Discarded)
                QCOMPARE(s.state, State::Pending);
            else if (tested)
                QCOMPARE(s.state, v == Verdict::Accepted ? State::Accepted : State::Rejected);
            else
                QCOMPARE(s.state, phase == Phase::Draft || phase == Phase::Verify ? State::Pending : State::Discarded);
        }
        const auto extra = cards->cardState(k);
        QCOMPARE(extra.visible, phase != Phase::Draft);
        if (phase == Phase::Residual || (phase == Phase::Commit && rejected))
            QCOMPARE(extra.state, State::Residual);
        else if (phase == Phase::Bonus || phase == Phase::Commit)
            QCOMPARE(extra.state, State::Bonus);
        else if (phase != Phase::Draft)
            QCOMPARE(extra.state, State::Placeholder);

        // The text holds the round's tokens only once it commits.
        QString expected = tokensString(*played.info.vocabulary, played.info.prompt);
        for (int r = 0; r < round + (phase == Phase::Commit ? 1 : 0); ++r)
            expected += tokensString(*played.info.vocabulary,
                                     played.records[static_cast<std::size_t>(r)]->trace.committed);
        QCOMPARE(view.transcript()->plainText(), expected);
    }
    QCOMPARE(seen, phasesOf(t));
    QCOMPARE(t.greedy, temperature == 0.0);
}

void TestRoundView::draftCardsAppearOneByOne()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 1);
    RoundView view;
    view.resize(1000, 500);
    view.setSession(played.info);
    view.setAnimationDuration(10000);
    view.showPosition(*played.history, 0, Phase::Draft, true);
    QVERIFY(!view.cards()->cardState(0).visible); // the animation starts before the first card
    view.cards()->finishAnimation();
    for (int i = 0; i < played.records[0]->trace.draftLength; ++i)
        QVERIFY(view.cards()->cardState(i).visible);
}

void TestRoundView::transcriptColoursByOrigin()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 6);
    TranscriptView view;
    view.setSession(played.info);
    view.showRounds(*played.history, 6);
    const RoundTrace &t = played.records[5]->trace;
    QTextCursor cursor(view.document());
    cursor.movePosition(QTextCursor::End); // charFormat(): the format of the last character
    const LabColors c = LabColors::from(view.palette());
    const QColor last = cursor.charFormat().foreground().color();
    QCOMPARE(last, t.rejectedAt >= 0 ? c.residual : c.bonus);
    // Jumping back rebuilds the text exactly.
    view.showRounds(*played.history, 2);
    QCOMPARE(view.roundsShown(), 2);
    QString expected = tokensString(*played.info.vocabulary, played.info.prompt);
    for (int r = 0; r < 2; ++r)
        expected += tokensString(*played.info.vocabulary, played.records[static_cast<std::size_t>(r)]->trace.committed);
    QCOMPARE(view.plainText(), expected);
}

void TestRoundView::shortTextLeavesNoEmptyBox_data()
{
    QTest::addColumn<QSize>("size");
    // The round view in the main window at 1280×720 and 1600×1000, and the presenter's round stage at 1280×720.
    QTest::addRow("window 1280x720") << QSize(650, 575);
    QTest::addRow("window 1600x1000") << QSize(886, 535);
    QTest::addRow("presenter 1280x720") << QSize(1264, 610);
}

void TestRoundView::shortTextLeavesNoEmptyBox()
{
    QFETCH(QSize, size);
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 4);
    RoundView view;
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.transcript()->isVisible()); // no session, no text: no empty box
    view.setSession(played.info);
    QVERIFY(view.transcript()->isVisible());
    view.showPosition(*played.history, 3, Phase::Dice, false);
    QCoreApplication::processEvents();
    TranscriptView *text = view.transcript();
    const double line = QFontMetricsF(text->font()).lineSpacing();
    const double textHeight = text->document()->size().height();
    QVERIFY(textHeight < 4 * line); // a short text: the prompt and four rounds
    // The box holds its text and no more (two lines at the least), all of it in view.
    QVERIFY2(text->height() <= std::max(textHeight, 2 * line + 2 * text->document()->documentMargin()) + 2,
             qPrintable(QStringLiteral("%1 px for %2 px of text").arg(text->height()).arg(textHeight)));
    QCOMPARE(text->verticalScrollBar()->maximum(), 0);
    // The space went to the cards: as large as the strip's width or its height allows.
    const CardStrip *cards = view.cards();
    const QRectF card = cards->cardRect(0);
    const QRectF last = cards->cardRect(cards->cardCount() - 1);
    const bool widthBound = last.right() >= cards->width() - 16 - 1 || card.width() >= 1.5 * kCardBaseWidth - 0.5;
    const bool heightBound = card.height() >= cards->height() - 2 * 16 - 1;
    QVERIFY2(widthBound || heightBound,
             qPrintable(QStringLiteral("cards %1×%2 in a strip of %3×%4")
                            .arg(card.width())
                            .arg(card.height())
                            .arg(cards->width())
                            .arg(cards->height())));
    // A text longer than the box's share scrolls in its share; the cards keep their room.
    SessionInfo longer = played.info;
    for (int i = 0; i < 9; ++i) {
        const std::vector<TokenId> once = longer.prompt;
        longer.prompt.insert(longer.prompt.end(), once.begin(), once.end());
    }
    view.setSession(longer);
    view.showPosition(*played.history, 3, Phase::Dice, false);
    QCoreApplication::processEvents();
    QTRY_VERIFY2(
        text->document()->size().height() > text->height(),
        qPrintable(QStringLiteral("%1 px of text in %2 px").arg(text->document()->size().height()).arg(text->height())));
    QVERIFY(text->height() >= 3 * line);
    QVERIFY(text->verticalScrollBar()->maximum() > 0);
    QVERIFY(cards->cardRect(0).height() >= 120);
}

// The cache strip says what it counts (tokens of text, not positions of a 128-token context: a long run read
// "target cache: 126239 → 126244") and is not drawn when the session decodes without the KV cache.
void TestRoundView::cacheStripSaysWhatItCounts()
{
    auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 1);
    RoundView view;
    view.resize(1000, 500);
    view.show();
    view.setSession(played.info);
    view.showPosition(*played.history, 0, Phase::Verify, false);
    QVERIFY(view.caches()->isVisible());
    QVERIFY2(view.caches()->rowText(CacheStrip::Model::Target).contains(QStringLiteral("tokens")),
             qPrintable(view.caches()->rowText(CacheStrip::Model::Target)));
    QVERIFY(view.caches()->toolTip().contains(QStringLiteral("tokens of text")));
    played.info.kvCache = false;
    view.setSession(played.info);
    view.showPosition(*played.history, 0, Phase::Verify, false);
    QVERIFY(!view.caches()->isVisible());
}

// "Measured 3.27 tokens per round" beside "target passes 2.92×": past its context the target refills its
// window, one more pass each time; the theory panel says so whenever there are more passes than rounds.
void TestRoundView::theoryNotesWindowRefills()
{
    TheoryPanel panel;
    RunMetrics m;
    m.rounds = 100;
    m.tested = 400;
    m.accepted = 300;
    m.acceptanceRate = 0.75;
    m.generatedTokens = 327;
    m.tokensPerRound = 3.27;
    m.targetCalls = 112;
    m.speedupForwardPasses = 327.0 / 112.0;
    panel.setMetrics(m, 4);
    QVERIFY2(panel.toPlainText().contains(QStringLiteral("12 passes more than rounds")), qPrintable(panel.toPlainText()));
    m.targetCalls = 100;
    m.speedupForwardPasses = 3.27;
    panel.setMetrics(m, 4);
    QVERIFY(!panel.toPlainText().contains(QStringLiteral("passes more than rounds")));
}

QTEST_MAIN(TestRoundView)
#include "test_gui_round_view.moc"

void TestRoundView::cacheStripsRollBackToTheCommittedPrefix_data()
{
    QTest::addColumn<QString>("draft");
    QTest::addColumn<double>("temperature");
    QTest::addRow("sampled") << QStringLiteral("uniform") << 1.0;
    QTest::addRow("greedy") << QStringLiteral("ngram:1") << 0.0;
}

void TestRoundView::cacheStripsRollBackToTheCommittedPrefix()
{
    QFETCH(QString, draft);
    QFETCH(double, temperature);
    const auto played = test::playRounds("ngram:4", draft.toStdString(), temperature, 12);
    const int round = test::findRound(played, true);
    QVERIFY(round >= 0);
    const RoundTrace &t = played.records[static_cast<std::size_t>(round)]->trace;
    const int committedPrefix = t.contextLength
        + t.acceptedCount(); // the accepted drafts; the correction is fed next round
    RoundView view;
    view.resize(1000, 500);
    view.setSession(played.info);
    using Model = CacheStrip::Model;
    const CacheStrip *caches = view.caches();
    // Draft: the apprentice's cache has grown by its drafts, the head chef's not yet.
    view.showPosition(*played.history, round, Phase::Draft, false);
    QCOMPARE(caches->shown(Model::Draft).length, t.draftCache.extended);
    QCOMPARE(caches->shown(Model::Target).length, t.targetCache.before);
    QVERIFY(!caches->shown(Model::Target).rolledBack);
    // Verify: the head chef's cache holds the K + 1 positions it scored.
    view.showPosition(*played.history, round, Phase::Verify, false);
    QCOMPARE(caches->shown(Model::Target).length, t.targetCache.extended);
    QVERIFY(t.targetCache.extended > committedPrefix);
    QCOMPARE(caches->shown(Model::Target).discarded, 0);
    // Commit after the rejection: both caches are cut back to the committed prefix, the discarded cells shown.
    view.showPosition(*played.history, round, Phase::Commit, false);
    for (Model m : {Model::Target, Model::Draft}) {
        const CacheFrame &c = caches->shown(m);
        QVERIFY(c.rolledBack);
        QCOMPARE(c.length, committedPrefix);
        QCOMPARE(c.discarded, c.peak - c.length);
        QVERIFY(caches->rowText(m).contains(QString::number(c.discarded)));
    }
    QCOMPARE(caches->shown(Model::Target).discarded, t.targetCache.extended - committedPrefix);
    QVERIFY(caches->shown(Model::Target).discarded >= 1);
    view.clear();
    QVERIFY(!caches->shown(Model::Target).valid);
}
