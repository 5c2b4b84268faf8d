// SPDX-License-Identifier: GPL-3.0-or-later
// The session controller and the window: rounds come from the worker thread; a bad corpus produces a
// readable message in the window, not a crash, and the session stays usable; the timeline jumps back.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "SessionController.h"

#include "MessageBanner.h"
#include "PlotsPanel.h"
#include "RoundView.h"
#include "SetupBar.h"
#include "SetupSettings.h"
#include "TheoryPanel.h"
#include "Timeline.h"
#include "TranscriptView.h"
#include "TransportBar.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QListView>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTranslator>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

CorpusCatalog catalog()
{
    return test::builtCorpora();
}

Setup tinySetup()
{
    Setup s = test::tinySetup();
    s.decoding.seed = 3;
    return s;
}

QString corpusItems(const MainWindow &window)
{
    const auto *box = window.setupBar()->findChild<QComboBox *>(QStringLiteral("corpus"));
    QStringList items;
    for (int i = 0; box && i < box->count(); ++i)
        items << box->itemData(i).toString();
    return items.join(QLatin1Char('|'));
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void playsRoundsOnTheWorker();
    void oldRoundsDropTheirDistributionsOnly();
    void badCorpusIsAMessage_data();
    void badCorpusIsAMessage();
    void windowShowsTheErrorAndRecovers();
    void failedCorpusGivesBackTheLastOne();
    void openedCorpusKeepsOrReplacesThePrompt();
    void playerStepsAndTimelineJumps();
    void fullSpeedPanelsTakeTurns();
    void homeAfterTheKeptRoundsLeft();
    void leavingAFieldUnchangedKeepsTheSession();
    void settingsWithoutEffectAreSaid();
    void smallCorpusIsSaid();
};

void TestSession::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings of the window go to a test location
}

void TestSession::playsRoundsOnTheWorker()
{
    SessionController session(catalog());
    QSignalSpy ready(&session, &SessionController::ready);
    session.start(tinySetup());
    QVERIFY(ready.wait(20000));
    QSignalSpy added(&session, &SessionController::roundsAdded);
    session.requestRounds(5);
    QTRY_COMPARE_WITH_TIMEOUT(session.history().size(), 5, 20000);
    for (int i = 0; i < 5; ++i) {
        const RoundRecord &r = session.history().at(i);
        QCOMPARE(r.trace.index, i);
        QCOMPARE(r.cumulative.rounds, i + 1);
        QVERIFY(r.trace.positions.front().pDist.size() > 0); // distributions are recorded
        QVERIFY(r.cumulative.speedupWallClock.has_value());
    }
}

void TestSession::oldRoundsDropTheirDistributionsOnly()
{
    SessionController session(catalog());
    QSignalSpy ready(&session, &SessionController::ready);
    session.start(tinySetup());
    QVERIFY(ready.wait(20000));
    const int recent = SessionController::kRoundsWithDistributions;
    // The full records of the first rounds, to compare with what the history keeps of them later.
    session.requestRounds(5);
    QTRY_COMPARE_WITH_TIMEOUT(session.history().size(), 5, 20000);
    std::vector<std::shared_ptr<const RoundRecord>> firstRecords;
    for (int i = 0; i < 5; ++i)
        firstRecords.push_back(session.history().shared(i));
    session.requestRounds(recent + 15);
    QTRY_COMPARE_WITH_TIMEOUT(session.history().size(), recent + 20, 60000);
    const RoundHistory &h = session.history();
    QVERIFY(h.back().trace.positions.front().pDist.size() > 0);
    QCOMPARE(static_cast<int>(firstRecords.size()), 5);
    for (int i = 0; i < 5; ++i) {
        const RoundRecord &now = h.at(i);
        const RoundRecord &then = *firstRecords[static_cast<std::size_t>(i)];
        QVERIFY(then.trace.positions.front().pDist.size() > 0);
        QCOMPARE(now.trace.positions.front().pDist.size(), 0); // the vectors are gone...
        QCOMPARE(now.trace.residual.size(), 0);
        QCOMPARE(now.trace.bonusDist.size(), 0);
        QCOMPARE(now.trace.committed, then.trace.committed); // ...every number stays
        QCOMPARE(now.trace.rejectedAt, then.trace.rejectedAt);
        for (std::size_t k = 0; k < then.trace.positions.size(); ++k) {
            QCOMPARE(now.trace.positions[k].p, then.trace.positions[k].p);
            QCOMPARE(now.trace.positions[k].q, then.trace.positions[k].q);
            QCOMPARE(now.trace.positions[k].u, then.trace.positions[k].u);
        }
        QCOMPARE(now.cumulative.acceptanceRate, then.cumulative.acceptanceRate);
        QCOMPARE(now.seconds, then.seconds);
    }
}

void TestSession::badCorpusIsAMessage_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::addRow("missing") << QByteArray() << QStringLiteral("missing.txt");
    QTest::addRow("empty") << QByteArray("") << QStringLiteral("empty");
    QTest::addRow("bad UTF-8") << QByteArray("abc\xff\xfe def") << QStringLiteral("UTF-8");
}

void TestSession::badCorpusIsAMessage()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QString path = dir.filePath(QStringLiteral("missing.txt"));
    if (QByteArray(QTest::currentDataTag()) != "missing") {
        path = dir.filePath(QStringLiteral("corpus.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
    }
    SessionController session(catalog());
    QSignalSpy failed(&session, &SessionController::failed);
    Setup s = tinySetup();
    s.corpus = path.toStdString();
    session.start(s);
    QVERIFY(failed.wait(20000));
    const QString message = failed.front().front().toString();
    QVERIFY2(message.contains(expected, Qt::CaseInsensitive), qPrintable(message));
    QVERIFY(!session.isReady());
}

void TestSession::windowShowsTheErrorAndRecovers()
{
    SessionController session(catalog());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    Setup bad = tinySetup();
    bad.corpus = "/no/such/corpus.txt";
    window.startSession(bad);
    QTRY_VERIFY_WITH_TIMEOUT(!window.banner()->text().isEmpty(), 20000);
    QVERIFY(window.banner()->text().contains(QStringLiteral("/no/such/corpus.txt")));
    QCOMPARE(window.banner()->kind(), MessageBanner::Kind::Error);

    Setup mismatch = tinySetup();
    mismatch.draft = "ngram:2";
    mismatch.draftCorpus = test::dataPath("tiny-zh.txt"); // another vocabulary
    window.startSession(mismatch);
    QTRY_VERIFY_WITH_TIMEOUT(!window.banner()->text().isEmpty(), 20000);

    QSignalSpy ready(&session, &SessionController::ready);
    window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    QVERIFY2(window.banner()->text().isEmpty(), qPrintable(window.banner()->text()));
    player.nextPhase();
    QTRY_COMPARE_WITH_TIMEOUT(window.roundView()->round(), 0, 20000);

    // While the next session loads ("No round yet"), the text of the one before is not shown beside it (Back to
    // my session showed the demonstration's text for the seconds the models took to load).
    player.end();
    QTRY_VERIFY_WITH_TIMEOUT(window.roundView()->transcript()->roundsShown() > 0, 20000);
    Setup other = tinySetup();
    other.prompt = "a ";
    QSignalSpy loading(&session, &SessionController::loading);
    window.startSession(other);
    QTRY_COMPARE_WITH_TIMEOUT(loading.count(), 1, 20000);
    const TranscriptView *text = window.roundView()->transcript();
    QVERIFY2(text->isHidden() || text->roundsShown() == 0, qPrintable(text->plainText()));
    QVERIFY(ready.wait(20000));
}

// A corpus that fails to load (chosen in File ▸ Open corpus…: MainWindow::openCorpus) leaves the corpus box, and the box goes back
// to the corpus of the session before, with its prompt — not to the corpus next to the failed one in the list
// (there tiny-zh.txt, which the prompt "the " is not written in); the next start opens it too. Nothing of the
// session before stays on screen: the transcript is empty, the status says there is no session.
void TestSession::failedCorpusGivesBackTheLastOne()
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.txt"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("abc\xff\xfe def");
    }
    SessionController session(catalog());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    const Setup good = tinySetup();
    window.startSession(good);
    QVERIFY(ready.wait(20000));
    Setup zh = good;
    zh.corpus = test::dataPath("tiny-zh.txt");
    zh.prompt.clear();
    window.setupBar()->setSetup(zh); // the list: ..., tiny-en.txt, tiny-zh.txt
    window.startSession(good);
    QVERIFY(ready.wait(20000));
    player.nextPhase();
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 0, 20000);
    for (std::size_t i = 0; i < phasesOf(session.history().at(0).trace).size(); ++i)
        player.nextPhase(); // round 1 committed: its text is in the transcript
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 1, 20000);
    QTRY_VERIFY(window.roundView()->transcript()->document()->toPlainText().size() > 4);
    QVERIFY(corpusItems(window).contains(QString::fromStdString(zh.corpus)));

    QSignalSpy failed(&session, &SessionController::failed);
    window.openCorpus(bad);
    QVERIFY(failed.wait(20000));
    QVERIFY2(window.banner()->text().contains(QStringLiteral("bad.txt")), qPrintable(window.banner()->text()));
    QVERIFY2(!corpusItems(window).contains(bad), qPrintable(corpusItems(window)));
    QCOMPARE(window.setupBar()->setup().corpus, good.corpus);
    QCOMPARE(window.setupBar()->setup().prompt, good.prompt);
    QCOMPARE(loadSetup(QSettings()).corpus, good.corpus);
    QCOMPARE(window.roundView()->transcript()->document()->toPlainText(), QString());

    // "Change the setup to try again": the box's setup loads.
    window.startSession(window.setupBar()->setup());
    QVERIFY(ready.wait(20000));
    QVERIFY(window.banner()->text().isEmpty());
}

// A prompt belongs to its corpus's vocabulary: a corpus opened by File ▸ Open corpus… (or dropped on the window)
// keeps the prompt where the corpus can write it, else starts from the corpus's first line ("the " is not
// written in tiny-zh.txt: kept, it would fail; an empty prompt failed on an ONNX target). A text of one's own
// opened with ONNX models selected is played with n-gram models of it, and the banner says why.
void TestSession::openedCorpusKeepsOrReplacesThePrompt()
{
    SessionController session(catalog());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    QSignalSpy failed(&session, &SessionController::failed);
    const QString zh = QString::fromStdString(test::dataPath("tiny-zh.txt"));
    window.openCorpus(zh);
    QVERIFY(ready.wait(20000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(session.setup().corpus, zh.toStdString());
    const std::string firstLine = "春眠不觉晓，处处闻啼鸟。";
    QCOMPARE(session.setup().prompt, firstLine);
    QCOMPARE(window.setupBar()->setup().prompt, firstLine); // the box shows the prompt used
    // A prompt the new corpus can write stays.
    Setup withPrompt = session.setup();
    withPrompt.prompt = "春";
    window.startSession(withPrompt);
    QVERIFY(ready.wait(20000));
    window.openCorpus(QString::fromStdString(test::dataPath("tiny-en.txt")));
    QVERIFY(ready.wait(20000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(session.setup().prompt != "春"); // not in the English text
    Setup english = session.setup();
    english.prompt = "the ";
    window.startSession(english);
    QVERIFY(ready.wait(20000));
    const QString copy = QDir::temp().filePath(QStringLiteral("specdec-test-own-text.txt"));
    QFile::remove(copy);
    QVERIFY(QFile::copy(QString::fromStdString(test::dataPath("tiny-en.txt")), copy));
    // Your own text with ONNX models selected: n-gram models of it, the prompt kept, and a word why.
    Setup onnx = window.setupBar()->setup();
    onnx.target = "onnx:/nonexistent/target.onnx";
    window.setupBar()->setSetup(onnx);
    window.openCorpus(copy);
    QVERIFY(ready.wait(20000));
    QCOMPARE(failed.count(), 0);
    QCOMPARE(session.setup().target, Setup{}.target); // n-gram models of the text
    QCOMPARE(session.setup().prompt, std::string("the "));
    QVERIFY2(window.banner()->text().contains(QStringLiteral("n-gram")), qPrintable(window.banner()->text()));
    QFile::remove(copy);
}

void TestSession::playerStepsAndTimelineJumps()
{
    SessionController session(catalog());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));

    // → steps phases in the documented order, then the next round.
    std::vector<Phase> phases;
    player.nextPhase();
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 0, 20000);
    const auto expected = phasesOf(session.history().at(0).trace);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(window.roundView()->phase(), expected[i]);
        player.nextPhase();
    }
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 1, 20000);
    QCOMPARE(player.phase(), Phase::Draft);
    player.previousPhase();
    QCOMPARE(player.round(), 0);
    QCOMPARE(player.phase(), Phase::Commit);
    for (int i = 0; i < 4; ++i)
        player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 4, 20000);

    QListView *list = window.timeline()->view();
    QTRY_VERIFY(list->model()->rowCount() >= 5);
    const QRect row = list->visualRect(list->model()->index(1, 0));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
    QCOMPARE(player.round(), 1);
    QCOMPARE(window.roundView()->round(), 1);
    QCOMPARE(window.roundView()->cards()->cardCount(), session.history().at(1).trace.draftLength + 1);
    player.reset();
    QCOMPARE(player.round(), -1);
}

void TestSession::fullSpeedPanelsTakeTurns()
{
    // At full speed each frame shows the newest round and gives one other panel its turn: the timeline and
    // the theory never change in the same frame, yet both follow while playing; pausing brings every panel
    // to the round on screen at once (no chart left stale).
    SessionController session(catalog());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    int rows = window.timeline()->model()->rowCount();
    QString theory = window.theory()->toPlainText();
    int frames = 0, timelineTurns = 0, theoryTurns = 0, both = 0;
    connect(&session, &SessionController::roundsAdded, &window, [&] {
        if (!player.isPlaying())
            return;
        ++frames;
        const bool timeline = window.timeline()->model()->rowCount() != rows;
        const bool theoryChanged = window.theory()->toPlainText() != theory;
        rows = window.timeline()->model()->rowCount();
        theory = window.theory()->toPlainText();
        timelineTurns += timeline;
        theoryTurns += theoryChanged;
        both += timeline && theoryChanged;
        if (session.history().size() >= 300)
            player.pause();
    });
    player.setPhaseMilliseconds(0);
    player.play();
    QTRY_VERIFY_WITH_TIMEOUT(!player.isPlaying(), 60000);
    QVERIFY2(frames >= 3, qPrintable(QString::number(frames)));
    QCOMPARE(both, 0);
    QVERIFY(timelineTurns > 0 || frames < 7);
    QVERIFY(theoryTurns > 0 || frames < 7);
    // Paused: every panel at the round on screen.
    const int round = player.round();
    QVERIFY(round >= 0);
    QCOMPARE(window.timeline()->model()->rowCount(), round + 1);
    QCOMPARE(window.plots()->roundsPlotted(), round + 1);
    QVERIFY(!window.plots()->replotNext()); // nothing stale
    QVERIFY2(window.theory()->toPlainText().contains(QStringLiteral("over %1 rounds").arg(round + 1)),
             qPrintable(window.theory()->toPlainText()));
}

// A long session drops its oldest rounds (RoundHistory::first()). Home then shows the first round kept and
// says so; →, ←, End, a timeline click and Play stay within the kept rounds (once, Home then → read the
// round before the first kept one and the process died of std::out_of_range).
void TestSession::homeAfterTheKeptRoundsLeft()
{
    test::Window w;
    w.session.setRoundsKept(256); // at least the 400 rounds with distributions: 512 kept, whole blocks of 256
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    w.player.setPhaseMilliseconds(0);
    w.player.play();
    QTRY_VERIFY_WITH_TIMEOUT(w.session.history().size() >= 1100, 60000);
    w.player.pause();
    const RoundHistory &h = w.session.history();
    QTRY_COMPARE_WITH_TIMEOUT(w.session.pendingRounds(), 0, 20000);
    QVERIFY(h.first() > 0);

    QVERIFY(test::press(&w.window, Qt::Key_Home));
    QCOMPARE(w.player.round(), h.first());
    QCOMPARE(w.player.phase(), Phase::Draft);
    QCOMPARE(w.window.roundView()->round(), h.first());
    QVERIFY2(w.window.banner()->text().contains(QStringLiteral("no longer kept")), qPrintable(w.window.banner()->text()));
    QVERIFY(w.window.banner()->text().contains(QString::number(h.first() + 1)));
    QVERIFY(w.window.transport()->status().contains(QStringLiteral("first round kept")));
    // The transcript: the prompt, then the elided rounds, then the kept ones.
    QVERIFY(w.window.roundView()->transcript()->document()->toPlainText().contains(QStringLiteral("…")));
    QVERIFY(test::press(&w.window, Qt::Key_Left)); // already at the first position kept: stays
    QCOMPARE(w.player.round(), h.first());
    for (int i = 0; i < 12; ++i)
        QVERIFY(test::press(&w.window, Qt::Key_Right));
    QVERIFY(w.player.round() > h.first());
    QTRY_COMPARE_WITH_TIMEOUT(w.session.pendingRounds(), 0, 20000);
    for (int i = 0; i < 30; ++i)
        QVERIFY(test::press(&w.window, Qt::Key_Left));
    QCOMPARE(w.player.round(), h.first());
    QCOMPARE(w.player.phase(), Phase::Draft);

    QVERIFY(test::press(&w.window, Qt::Key_End));
    QCOMPARE(w.player.round(), h.size() - 1);
    QCOMPARE(w.player.phase(), Phase::Commit);

    // A timeline click: a row no longer kept does nothing; a kept row is replayed.
    QListView *list = w.window.timeline()->view();
    for (int row : {h.first() - 1, h.first() + 3}) {
        const QModelIndex index = list->model()->index(row, 0);
        list->scrollTo(index);
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(index).center());
    }
    QCOMPARE(w.player.round(), h.first() + 3);

    // Home, then Play at a phase's pace, while the rounds played ahead push the first kept round on: the
    // position follows into the kept rounds.
    QVERIFY(test::press(&w.window, Qt::Key_Home));
    w.player.setPhaseMilliseconds(1);
    w.player.play();
    w.session.requestRounds(900);
    QTRY_VERIFY_WITH_TIMEOUT(h.first() > 1024 && w.player.round() >= h.first(), 60000);
    QTest::qWait(50);
    w.player.pause();
    QVERIFY(h.contains(w.player.round()));
    QCOMPARE(w.window.roundView()->round(), w.player.round());
}

// Clicking into the prompt (or the draft box), changing nothing, stepping and clicking elsewhere used to
// restart the session (every editingFinished did): only a changed value restarts it.
void TestSession::leavingAFieldUnchangedKeepsTheSession()
{
    test::Window w;
    w.window.show();
    QVERIFY(QTest::qWaitForWindowActive(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    QSignalSpy loading(&w.session, &SessionController::loading);
    auto *prompt = w.window.setupBar()->findChild<QLineEdit *>(QStringLiteral("prompt"));
    auto *draft = w.window.setupBar()->findChild<QComboBox *>(QStringLiteral("draft"));
    QVERIFY(prompt && draft);
    prompt->setFocus(Qt::MouseFocusReason);
    w.player.nextRound();
    w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 1, 20000);
    w.window.roundView()->setFocus(Qt::MouseFocusReason); // focus leaves the prompt: editingFinished
    emit prompt->editingFinished();                       // (also where the platform gives no focus)
    draft->setFocus(Qt::MouseFocusReason);
    emit draft->lineEdit()->editingFinished();
    emit draft->activated(draft->currentIndex()); // the same model chosen again
    w.window.roundView()->setFocus(Qt::MouseFocusReason);
    QTest::qWait(600); // beyond the setup bar's debounce
    QCOMPARE(loading.count(), 0);
    QCOMPARE(w.player.round(), 1);
    QCOMPARE(w.window.roundView()->round(), 1);
    // A changed value still restarts.
    prompt->setText(QStringLiteral("the q"));
    emit prompt->editingFinished();
    QTRY_COMPARE_WITH_TIMEOUT(loading.count(), 1, 5000);
    QCOMPARE(w.session.setup().prompt, std::string("the q"));
}

// Numbers that do nothing are said once the session loads: top-p at T = 0 (accepted silently before), and a
// tree at draft T = 0 (its children are copies); a vocabulary mismatch says it plainly before the code points.
void TestSession::settingsWithoutEffectAreSaid()
{
    test::Window w;
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    Setup greedy = tinySetup();
    greedy.decoding.target.temperature = greedy.decoding.draft.temperature = 0.0;
    greedy.decoding.target.topP = greedy.decoding.draft.topP = 0.5;
    w.window.startSession(greedy);
    QVERIFY(ready.wait(20000));
    QVERIFY2(w.window.banner()->text().contains(QStringLiteral("no effect")), qPrintable(w.window.banner()->text()));
    Setup tree = tinySetup();
    tree.decoding.tree = TreeShape::parse("3,2,1");
    tree.decoding.target.temperature = 1.0;
    tree.decoding.draft.temperature = 0.0;
    w.window.startSession(tree);
    QVERIFY(ready.wait(20000));
    QVERIFY2(w.window.banner()->text().contains(QStringLiteral("copies")), qPrintable(w.window.banner()->text()));
    w.window.startSession(tinySetup());
    QVERIFY(ready.wait(20000));
    QVERIFY(w.window.banner()->text().isEmpty());
    Setup mismatch = tinySetup();
    mismatch.draftCorpus = test::dataPath("tiny-zh.txt");
    QSignalSpy failed(&w.session, &SessionController::failed);
    w.window.startSession(mismatch);
    QVERIFY(failed.wait(20000));
    QVERIFY2(w.window.banner()->text().startsWith(QStringLiteral("The draft was trained on another text")),
             qPrintable(w.window.banner()->text()));
}

// A five-line corpus under ngram:6 (each 5-character context once: the model can only repeat the text, then
// wrote "。⏎。⏎") is said in the banner when the session loads, with the order that fits, in the window's
// language; ngram:2 on the same lines and ngram:4 on tiny-en are not.
void TestSession::smallCorpusIsSaid()
{
    test::Window w;
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    Setup five = tinySetup();
    five.corpus = test::dataPath("tiny-zh.txt");
    five.prompt.clear();
    five.target = "ngram:6";
    five.draft = "ngram:2";
    QTranslator translator;
    for (const QString &language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        if (language != QLatin1String("en")) {
            QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
            QCoreApplication::installTranslator(&translator);
        }
        w.window.startSession(five);
        QVERIFY(ready.wait(20000));
        const QString text = w.window.banner()->text();
        QCOMPARE(w.window.banner()->kind(), MessageBanner::Kind::Warning);
        QVERIFY2(text.contains(QStringLiteral("ngram:6")) && text.contains(QStringLiteral("ngram:2"))
                     && text.contains(QStringLiteral("1.00")),
                 qPrintable(text));
        QVERIFY2(text.contains(language == QLatin1String("en") ? QStringLiteral("too small") : QStringLiteral("太小")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("draft ngram:2")) && !text.contains(QStringLiteral("草稿模型 ngram:2")),
                 qPrintable(text));         // the draft fits its 69 characters (1.39 per context)
        w.window.startSession(tinySetup()); // tiny-en under ngram:4 / ngram:2: nothing to say
        QVERIFY(ready.wait(20000));
        QVERIFY2(w.window.banner()->text().isEmpty(), qPrintable(w.window.banner()->text()));
    }
    QCoreApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestSession)
#include "test_gui_session.moc"
