// SPDX-License-Identifier: GPL-3.0-or-later
// Subword tokens in the window: the setup bar's tokenizer box (kept in session files, a change restarts only when
// the value changed, a bad file or a mismatch leaves the session), pieces on the cards ("␣the", byte chips, long
// pieces cut with their tooltip), the timeline's pieces and the transcript decoded with a split character's bytes
// held. The tokenizer.json files come from the tokenizer_files fixture (tests/tokenizer/fetch-tokenizers.sh).
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "CardPainter.h"
#include "CardStrip.h"
#include "ClassroomTools.h"
#include "MessageBanner.h"
#include "RoundView.h"
#include "SessionFile.h"
#include "SetupBar.h"
#include "Timeline.h"
#include "TimelineModel.h"
#include "TokenText.h"
#include "TranscriptView.h"

#include <algorithm>

#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// The fixture's tokenizer.json of `name`, or "" when the fixture has not laid it out.
QString tokenizerFile(const char *name)
{
    const QString path = QString::fromStdString(test::tokenizerFolder(name)) + QStringLiteral("/tokenizer.json");
    return QFile::exists(path) ? path : QString();
}

/// n-grams over tiny-en.txt cut by `tokenizer`.
Setup tinySubword(const QString &tokenizer)
{
    Setup s = test::tinySetup();
    s.tokenizer = tokenizer.toStdString();
    s.decoding.seed = 7;
    return s;
}

QComboBox *tokenizerBox(const MainWindow &window)
{
    return window.setupBar()->findChild<QComboBox *>(QStringLiteral("tokenizer"));
}

/// Steps the window's player to the commit phase of round `round` (every card of it shown).
bool showRound(test::Window &w, int round)
{
    w.session.playTo(round + 1);
    if (!QTest::qWaitFor([&] { return w.session.history().size() > round; }, 60000))
        return false;
    w.player.jumpTo(round, Phase::Commit);
    return w.player.round() == round;
}

} // namespace

class TestTokens : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cardsShowPieces();
    void byteTokensAreChipsAndTheTranscriptWaits();
    void longPieceIsCutWithItsTooltip();
    void tokenizerRoundTripsThroughASessionFile();
    void sameTokenizerDoesNotRestart();
    void chooseItemAsksForAFile();
    void badTokenizerKeepsTheSession();
};

void TestTokens::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings of the window go to a test location
}

// Qwen3's tokenizer over kjv: the cards hold pieces ("␣God"), not characters, written as the tokenizer displays
// them (never "Ġ"); the timeline's row separates its pieces; the transcript is the decoded text.
void TestTokens::cardsShowPieces()
{
    const QString qwen3 = tokenizerFile("qwen3");
    if (qwen3.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out qwen3/tokenizer.json");
    test::Window w;
    Setup setup;
    setup.corpus = "kjv";
    setup.tokenizer = qwen3.toStdString();
    setup.target = "ngram:4";
    setup.draft = "ngram:2";
    setup.prompt = "And God said";
    setup.decoding.draftLength = 4;
    setup.decoding.seed = 11;
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(setup);
    QVERIFY(ready.wait(180000));
    QCOMPARE(tokenizerBox(w.window)->currentText(), QStringLiteral("qwen3"));
    const Tokenizer &tokenizer = *w.session.info().vocabulary;
    QCOMPARE(tokenizer.kind(), Tokenizer::Kind::HuggingFace);
    int longer = 0, cards = 0;
    for (int round = 0; round < 4; ++round) {
        QVERIFY(showRound(w, round));
        const CardStrip *strip = w.window.roundView()->cards();
        for (int card = 0; card < strip->cardCount(); ++card) {
            const CardContent c = strip->contentOf(card);
            if (c.frame.token < 0)
                continue;
            ++cards;
            QCOMPARE(c.glyph, tokenGlyph(tokenizer, c.frame.token));
            QVERIFY2(!c.glyph.contains(QChar(0x0120)), qPrintable(c.glyph));     // 'Ġ' is shown as '␣'
            QVERIFY2(!c.glyph.contains(QLatin1Char('\n')), qPrintable(c.glyph)); // one line: ".⏎"
            if (c.glyph.size() > 1)
                ++longer;
            QVERIFY(strip->toolTipOf(card).contains(QString::number(c.frame.token)));
        }
    }
    QVERIFY(cards >= 8);
    QVERIFY2(longer * 2 > cards,
             qPrintable(QStringLiteral("%1 of %2 cards hold more than a character").arg(longer).arg(cards)));
    const QString transcript = w.window.roundView()->transcript()->plainText();
    QVERIFY2(transcript.startsWith(QStringLiteral("And God said")), qPrintable(transcript));
    QVERIFY(!transcript.contains(QChar(0x0120)) && !transcript.contains(QChar(0x2423))
            && !transcript.contains(QChar(0xFFFD)));
    // The timeline's rows: pieces separated ("␣God|␣said"), in a row of several tokens.
    QStringList rows;
    for (int i = 0; i < 4; ++i)
        rows << w.window.timeline()->model()->index(i, 0).data().toString();
    QVERIFY2(rows.join(QString()).contains(QLatin1Char('|')), qPrintable(rows.join(QLatin1Char('\n'))));
}

// Mixtral's tokenizer (SentencePiece, byte fallback) over Chinese poems: a character outside its vocabulary is
// written in byte tokens, each card a byte chip ("<E5>"); the transcript shows the decoded text, the bytes of a
// character not yet whole as a chip at its end, never U+FFFD.
void TestTokens::byteTokensAreChipsAndTheTranscriptWaits()
{
    const QString mixtral = tokenizerFile("mixtral");
    if (mixtral.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out mixtral/tokenizer.json");
    test::Window w;
    Setup setup = tinySubword(mixtral);
    setup.corpus = test::dataPath("tiny-zh.txt");
    setup.target = "ngram:3";
    setup.draft = "ngram:1";
    setup.prompt = "春眠";
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(setup);
    QVERIFY(ready.wait(60000));
    const Tokenizer &tokenizer = *w.session.info().vocabulary;
    int chips = 0;
    bool pendingSeen = false;
    const CardStrip *strip = w.window.roundView()->cards();
    for (int round = 0; round < 12; ++round) {
        QVERIFY(showRound(w, round));
        for (int card = 0; card < strip->cardCount(); ++card) {
            const CardContent c = strip->contentOf(card);
            if (c.frame.token < 0 || c.look != TokenLook::Kind::Byte)
                continue;
            ++chips;
            QVERIFY2(QRegularExpression(QStringLiteral("^(<[0-9A-F]{2}>)+$")).match(c.glyph).hasMatch(),
                     qPrintable(c.glyph));
            const CardLayout layout = layoutCard(QRectF(0, 0, 150, 225), c, LabColors::from(QPalette()), strip->font());
            QVERIFY(!layout.chip.isEmpty());
        }
        // The transcript is the decoded text of prompt and rounds, then the pending bytes' chip.
        std::vector<TokenId> all = w.session.info().prompt;
        for (int i = 0; i <= round; ++i) {
            const auto &committed = w.session.history().at(i).trace.committed;
            all.insert(all.end(), committed.begin(), committed.end());
        }
        const TranscriptView *transcript = w.window.roundView()->transcript();
        const QString pending = transcript->pendingText();
        pendingSeen = pendingSeen || !pending.isEmpty();
        QCOMPARE(transcript->plainText(), QString::fromStdString(tokenizer.decode(all)) + pending);
        if (!pending.isEmpty()) // (bytes in an order UTF-8 never has, which an n-gram of bytes can write, are U+FFFD)
            QVERIFY(!transcript->plainText().chopped(pending.size()).endsWith(QChar(0xFFFD)));
    }
    QVERIFY2(chips > 0, "no byte token was drawn in 12 rounds");
    QVERIFY2(pendingSeen, "no round ended inside a character (seed 7 has one)");
}

// The longest piece of GPT-2 does not fit a card: it is cut with "…" inside the card, and the tooltip holds it
// whole with its id.
void TestTokens::longPieceIsCutWithItsTooltip()
{
    const QString gpt2 = tokenizerFile("gpt2");
    if (gpt2.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out gpt2/tokenizer.json");
    const Tokenizer tokenizer = Tokenizer::load(gpt2.toStdString());
    TokenId longest = 0;
    for (TokenId id = 0; id < tokenizer.size(); ++id)
        if (tokenGlyph(tokenizer, id).size() > tokenGlyph(tokenizer, longest).size())
            longest = id;
    const QString whole = tokenGlyph(tokenizer, longest);
    QVERIFY2(whole.size() > 20, qPrintable(whole));
    CardContent card;
    card.glyph = whole;
    card.caption = QStringLiteral("#1");
    card.frame.token = longest;
    card.frame.state = CardContent::State::Pending;
    card.frame.q = 0.25;
    const QFont font;
    const QRectF rect(0, 0, 150, 225);
    const CardLayout layout = layoutCard(rect, card, LabColors::from(QPalette()), font);
    QVERIFY(layout.glyphElided);
    bool found = false;
    for (const CardText &t : layout.texts) {
        QVERIFY2(rect.contains(t.rect), qPrintable(t.text));
        QVERIFY2(QFontMetricsF(t.font).horizontalAdvance(t.text) <= t.rect.width() + 0.5, qPrintable(t.text));
        if (t.text.endsWith(QStringLiteral("…")) && whole.startsWith(t.text.chopped(1)))
            found = true;
    }
    QVERIFY(found);
    const TokenLook look = tokenLook(tokenizer, longest);
    QVERIFY(look.toolTip.contains(whole));
    QVERIFY(look.toolTip.contains(QString::number(longest)));
    // A one-character token is never cut.
    card.glyph = QStringLiteral("e");
    QVERIFY(!layoutCard(rect, card, LabColors::from(QPalette()), font).glyphElided);
    QVERIFY(layoutCard(rect, card, LabColors::from(QPalette()), font).chip.isEmpty());

    // Byte-level pieces that are not whole characters: only bytes ("æĪ" -> <E6><88>) a byte chip, a space and a
    // character's first byte ("Ġâ" -> ␣<E2>) part of a character; both drawn in a chip around the token.
    TokenId bytes = -1, partial = -1;
    for (TokenId id = 0; id < tokenizer.size() && (bytes < 0 || partial < 0); ++id) {
        const TokenLook::Kind kind = tokenLook(tokenizer, id).kind;
        if (kind == TokenLook::Kind::Byte && bytes < 0)
            bytes = id;
        if (kind == TokenLook::Kind::Partial && partial < 0)
            partial = id;
    }
    QVERIFY(bytes >= 0 && partial >= 0);
    QVERIFY2(QRegularExpression(QStringLiteral("^(<[0-9A-F]{2}>)+$")).match(tokenGlyph(tokenizer, bytes)).hasMatch(),
             qPrintable(tokenGlyph(tokenizer, bytes)));
    const QString part = tokenGlyph(tokenizer, partial);
    QVERIFY2(part.contains(QRegularExpression(QStringLiteral("<[0-9A-F]{2}>")))
                 && part.contains(QRegularExpression(QStringLiteral("[^<>0-9A-F]"))),
             qPrintable(part));
    for (const TokenId id : {bytes, partial}) {
        card.glyph = tokenGlyph(tokenizer, id);
        card.look = tokenLook(tokenizer, id).kind;
        const CardLayout chip = layoutCard(rect, card, LabColors::from(QPalette()), font);
        QVERIFY(!chip.chip.isEmpty());
        QVERIFY(rect.contains(chip.chip));
        // The verdict mark hangs below its row into the corner: a chip as wide as the card starts below it.
        for (const bool passed : {true, false}) {
            CardContent tested = card;
            tested.glyph = QStringLiteral("<E5><E5><E5>");
            tested.frame.testShown = true;
            tested.frame.passed = passed;
            const CardLayout marked = layoutCard(rect, tested, LabColors::from(QPalette()), font);
            const QString mark = passed ? QStringLiteral("✓") : QStringLiteral("✗");
            const auto verdict = std::find_if(marked.texts.begin(), marked.texts.end(),
                                              [&](const CardText &t) { return t.text == mark; });
            QVERIFY(verdict != marked.texts.end());
            const QRectF drawn = QFontMetricsF(verdict->font).boundingRect(verdict->rect, verdict->flags, mark);
            QVERIFY2(!marked.chip.intersects(drawn), qPrintable(card.glyph));
            QVERIFY(rect.contains(marked.chip));
        }
    }
}

// The tokenizer is part of a saved session: saved, opened again after another session, it is back in the setup
// bar and in the session's setup.
void TestTokens::tokenizerRoundTripsThroughASessionFile()
{
    const QString gpt2 = tokenizerFile("gpt2");
    if (gpt2.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out gpt2/tokenizer.json");
    test::Window w;
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(tinySubword(gpt2));
    QVERIFY(ready.wait(60000));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("subword.specdec.json"));
    w.window.classroom()->currentSession().save(path);
    const app::SessionFile file = app::SessionFile::load(path);
    QCOMPARE(QString::fromStdString(file.setup.tokenizer), gpt2);

    w.window.startSession(test::tinySetup()); // characters
    QVERIFY(ready.wait(60000));
    QCOMPARE(w.window.setupBar()->setup().tokenizer, std::string("chars"));
    QCOMPARE(tokenizerBox(w.window)->currentData().toString(), QStringLiteral("chars"));
    w.window.classroom()->openSession(file);
    QVERIFY(ready.wait(60000));
    QCOMPARE(QString::fromStdString(w.session.setup().tokenizer), gpt2);
    QCOMPARE(QString::fromStdString(w.window.setupBar()->setup().tokenizer), gpt2);
    QCOMPARE(tokenizerBox(w.window)->currentText(), QStringLiteral("gpt2"));
    QCOMPARE(w.session.info().vocabulary->kind(), Tokenizer::Kind::HuggingFace);
}

// Choosing the tokenizer in use again restarts nothing; another one does.
void TestTokens::sameTokenizerDoesNotRestart()
{
    const QString gpt2 = tokenizerFile("gpt2");
    if (gpt2.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out gpt2/tokenizer.json");
    test::Window w;
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(tinySubword(gpt2));
    QVERIFY(ready.wait(60000));
    QVERIFY(showRound(w, 1));
    QSignalSpy loading(&w.session, &SessionController::loading);
    w.window.setupBar()->chooseTokenizer(gpt2); // the file dialog's answer: the same file
    QComboBox *box = tokenizerBox(w.window);
    emit box->activated(box->currentIndex()); // and the same item picked again in the box
    QTest::qWait(600);                        // beyond the setup bar's debounce
    QCOMPARE(loading.count(), 0);
    QCOMPARE(w.player.round(), 1);
    QCOMPARE(w.session.history().size() >= 2, true);
    // Characters is another value: the session restarts with it.
    box->setCurrentIndex(box->findData(QStringLiteral("chars")));
    emit box->activated(box->currentIndex());
    QTRY_COMPARE_WITH_TIMEOUT(loading.count(), 1, 60000);
    QTRY_COMPARE_WITH_TIMEOUT(w.session.info().vocabulary->kind(), Tokenizer::Kind::Chars, 60000);
}

// The box's last item is not a value: it asks the window for a file and the box keeps the tokenizer in use; the
// file chosen is then offered by its folder's name, with its path as the tooltip, and used.
void TestTokens::chooseItemAsksForAFile()
{
    SetupBar bar;
    bar.setSetup(test::tinySetup());
    QSignalSpy wanted(&bar, &SetupBar::tokenizerFileWanted);
    std::vector<Setup> changed; // (Setup is no metatype: a QSignalSpy could not hold it)
    connect(&bar, &SetupBar::setupChanged, this, [&](const Setup &s) { changed.push_back(s); });
    auto *box = bar.findChild<QComboBox *>(QStringLiteral("tokenizer"));
    QVERIFY(box);
    QCOMPARE(box->currentData().toString(), QStringLiteral("chars"));
    box->setCurrentIndex(box->count() - 1);
    emit box->activated(box->count() - 1);
    QCOMPARE(wanted.count(), 1);
    QCOMPARE(box->currentData().toString(), QStringLiteral("chars"));
    QTest::qWait(600); // beyond the debounce
    QVERIFY(changed.empty());
    const QString path = QStringLiteral("/models/qwen3/tokenizer.json");
    bar.chooseTokenizer(path);
    QTRY_COMPARE(changed.size(), std::size_t{1});
    QCOMPARE(changed.front().tokenizer, path.toStdString());
    QCOMPARE(box->currentText(), QStringLiteral("qwen3"));
    QCOMPARE(box->itemData(box->currentIndex(), Qt::ToolTipRole).toString(), path);
    QCOMPARE(bar.setup().tokenizer, path.toStdString());
}

// A tokenizer file that does not load, or one the models cannot use (an ONNX model of characters), is one line in
// the banner; the session it was to replace plays on at its position, and the setup bar shows its tokenizer again.
void TestTokens::badTokenizerKeepsTheSession()
{
    const QString gpt2 = tokenizerFile("gpt2");
    test::Window w;
    w.window.show(); // the banner says what it shows only in a window on screen
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    QSignalSpy failed(&w.session, &SessionController::failed);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(60000));
    QVERIFY(showRound(w, 1));
    const int played = w.session.history().size();

    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("tokenizer.json"));
    {
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0");
    }
    w.window.setupBar()->chooseTokenizer(bad);
    QVERIFY(failed.wait(60000));
    const QString message = w.window.banner()->text();
    QCOMPARE(w.window.banner()->kind(), MessageBanner::Kind::Error);
    QVERIFY2(message.contains(bad), qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
    QVERIFY(w.session.isReady());
    QCOMPARE(w.session.info().vocabulary->kind(), Tokenizer::Kind::Chars);
    QVERIFY(w.session.history().size() >= played);
    QCOMPARE(w.player.round(), 1);
    QCOMPARE(w.window.setupBar()->setup().tokenizer, std::string("chars"));
    QCOMPARE(tokenizerBox(w.window)->currentData().toString(), QStringLiteral("chars"));
    QVERIFY(showRound(w, 2)); // and it plays on

    if (gpt2.isEmpty())
        QSKIP("the tokenizer_files fixture has not laid out gpt2/tokenizer.json (the mismatch is not checked)");
    // A target of characters with GPT-2's pieces: the error names both, the session stays.
    Setup onnx = test::tinySetup();
    onnx.target = "onnx:" SPECDEC_SOURCE_DIR "/corpora/kjv/models/draft-tiny.onnx";
    onnx.draft = "ngram:2";
    w.window.startSession(onnx);
    QVERIFY2(ready.wait(60000), qPrintable(w.window.banner()->text()));
    QVERIFY(showRound(w, 0));
    Setup mismatch = onnx;
    mismatch.tokenizer = gpt2.toStdString();
    failed.clear();
    w.window.setupBar()->chooseTokenizer(gpt2);
    QVERIFY(failed.wait(60000));
    QCOMPARE(w.window.banner()->kind(), MessageBanner::Kind::Error);
    QVERIFY2(w.window.banner()->text().contains(QStringLiteral("tokenizer")), qPrintable(w.window.banner()->text()));
    QVERIFY(w.session.isReady());
    QCOMPARE(w.session.setup().target, onnx.target);
    QCOMPARE(w.session.info().vocabulary->kind(), Tokenizer::Kind::Chars);
    QCOMPARE(w.window.setupBar()->setup().tokenizer, std::string("chars"));
}

QTEST_MAIN(TestTokens)
#include "test_gui_tokens.moc"
