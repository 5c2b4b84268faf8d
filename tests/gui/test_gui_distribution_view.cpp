// SPDX-License-Identifier: GPL-3.0-or-later
// The distribution view draws the trace's own p and q for the selected card (and the residual after a
// rejection), with "others" holding the rest of the mass; p stays hidden until the verify phase.
#include "GuiTestSupport.h"

#include "DistributionView.h"
#include "TokenText.h"

#include <QFontDatabase>
#include <QRawFont>
#include <QtTest>

#include <algorithm>

using namespace specdec;
using namespace specdec::gui;

class TestDistributionView : public QObject
{
    Q_OBJECT
private slots:
    void showsTheTracesPAndQ();
    void hidesPBeforeVerify();
    void showsTheResidualOfTheRejectedCard();
    void showsTheBonusDistribution();
    void controlCharactersAreVisible();
};

void TestDistributionView::showsTheTracesPAndQ()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 3);
    DistributionView view;
    view.setSession(played.info);
    const auto &record = played.records[2];
    for (int card = 0; card < record->trace.draftLength; ++card) {
        const DraftPosition &pos = record->trace.positions[static_cast<std::size_t>(card)];
        view.showCard(record, card, Phase::Commit);
        const auto tokens = view.tokens();
        QVERIFY(tokens.contains(pos.token)); // the drafted token is always drawn
        QCOMPARE(view.labels().size(), tokens.size() + 1);
        double pShown = 0, qShown = 0;
        for (int i = 0; i < tokens.size(); ++i) {
            QCOMPARE(view.pValues()[i], pos.pDist[tokens[i]]);
            QCOMPARE(view.qValues()[i], pos.qDist[tokens[i]]);
            QCOMPARE(view.labels()[i], tokenGlyph(*played.info.vocabulary, tokens[i]));
            pShown += pos.pDist[tokens[i]];
            qShown += pos.qDist[tokens[i]];
        }
        QCOMPARE(view.pValues().back(), std::max(0.0, 1.0 - pShown));
        QCOMPARE(view.qValues().back(), std::max(0.0, 1.0 - qShown));
        // The numbers are the trace's.
        QVERIFY(view.numbersText().contains(QString::number(pos.p, 'f', 3)));
        QVERIFY(view.numbersText().contains(QString::number(pos.q, 'f', 3)));
        QVERIFY(view.numbersText().contains(QString::number(pos.overlap, 'f', 3)));
    }
}

void TestDistributionView::hidesPBeforeVerify()
{
    const auto played = test::playRounds("ngram:4", "ngram:2", 1.0, 1);
    DistributionView view;
    view.setSession(played.info);
    view.showCard(played.records[0], 0, Phase::Draft);
    const auto positive = [](const QVector<double> &values) {
        return std::any_of(values.begin(), values.end(), [](double v) { return v > 0; });
    };
    QVERIFY(!positive(view.pValues()));
    QVERIFY(positive(view.qValues()));
    view.showCard(played.records[0], 0, Phase::Verify);
    QVERIFY(positive(view.pValues()));
}

void TestDistributionView::showsTheResidualOfTheRejectedCard()
{
    const auto played = test::playRounds("ngram:4", "uniform", 1.0, 10);
    const int round = test::findRound(played, true);
    QVERIFY(round >= 0);
    const auto &record = played.records[static_cast<std::size_t>(round)];
    const RoundTrace &t = record->trace;
    DistributionView view;
    view.setSession(played.info);
    view.showCard(record, t.rejectedAt, Phase::Dice);
    for (double r : view.residualValues())
        QCOMPARE(r, 0.0);
    view.showCard(record, t.draftLength, Phase::Residual); // the corrected card
    QVERIFY(view.tokens().contains(t.correction));
    for (int i = 0; i < view.tokens().size(); ++i)
        QCOMPARE(view.residualValues()[i], t.residual[view.tokens()[i]]);
}

void TestDistributionView::showsTheBonusDistribution()
{
    const auto played = test::playRounds("ngram:4", "same", 1.0, 3);
    const int round = test::findRound(played, false);
    QVERIFY(round >= 0);
    const auto &record = played.records[static_cast<std::size_t>(round)];
    DistributionView view;
    view.setSession(played.info);
    view.showCard(record, record->trace.draftLength, Phase::Bonus);
    QVERIFY(view.tokens().contains(record->trace.bonus));
    for (int i = 0; i < view.tokens().size(); ++i)
        QCOMPARE(view.pValues()[i], record->trace.bonusDist[view.tokens()[i]]);
}

// A token that is a control character is drawn as its code, like a byte (a model's U+0005 showed as an empty box
// on the axis and the timeline, and so did its control picture ␅: no installed font has one); space, newline and
// tab keep their marks. Every glyph is one that an installed font draws.
void TestDistributionView::controlCharactersAreVisible()
{
    const Tokenizer chars = Tokenizer::chars(Vocabulary::fromTokens(
        std::vector<char32_t>({U'a', U'\u0005', U'\u001B', U'\u007F', U'\n', U' ', U'\t', U'\0', U'\r'})));
    QStringList glyphs;
    for (TokenId id = 0; id < chars.size(); ++id)
        glyphs << tokenGlyph(chars, id);
    QCOMPARE(glyphs,
             QStringList({QStringLiteral("a"), QStringLiteral("<05>"), QStringLiteral("<1B>"), QStringLiteral("<7F>"),
                          QStringLiteral("⏎"), QStringLiteral("␣"), QStringLiteral("⇥"), QStringLiteral("<00>"),
                          QStringLiteral("<0D>")}));
    const QStringList families = QFontDatabase::families();
    for (const QString &glyph : glyphs)
        for (const uint c : glyph.toUcs4()) {
            const bool drawn = std::any_of(families.begin(), families.end(), [c](const QString &family) {
                return QRawFont::fromFont(QFont(family)).supportsCharacter(c);
            });
            QVERIFY2(drawn, qPrintable(QStringLiteral("no installed font draws U+%1").arg(c, 4, 16, QLatin1Char('0'))));
        }
}

QTEST_MAIN(TestDistributionView)
#include "test_gui_distribution_view.moc"
