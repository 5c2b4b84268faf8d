// SPDX-License-Identifier: GPL-3.0-or-later
// The quiz: a question shows its options without telling which is right until revealed; single choice is
// radio buttons, multiple choice check boxes; each of the ten "Show me" demonstrations runs on the real
// engine and writes back what it measured (Q9: E[N] = 3.36 beside a run; Q7: the accepted share of the
// over-proposed token against p/q).
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ArenaRunner.h"
#include "ClassroomTools.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "MessageBanner.h"
#include "Player.h"
#include "QuizView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

class TestQuiz : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void answersOnlyWhenRevealed();
    void showMeDemonstratesEachAnswer_data();
    void showMeDemonstratesEachAnswer();
    void backToMySession();

private:
    app::QuizFile m_quiz;
};

void TestQuiz::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_quiz = app::QuizFile::load(QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/ten-questions.quiz.json"));
    QCOMPARE(m_quiz.questions.size(), 10);
}

void TestQuiz::answersOnlyWhenRevealed()
{
    Language language;
    language.set(QStringLiteral("en"));
    QuizView view;
    view.setQuiz(m_quiz);
    view.show();
    QCOMPARE(view.currentQuestion(), 0);
    QCOMPARE(view.findChildren<QRadioButton *>().size(), 4); // single choice
    for (int i = 0; i < 4; ++i)
        QVERIFY(!view.optionText(i).contains(QStringLiteral("✓")));
    QCOMPARE(view.explanationText(), QString());
    QCOMPARE(view.showMeText(), QString()); // the caption would tell the answer
    view.setChosen(QStringLiteral("C"));
    QCOMPARE(view.chosen(), QStringLiteral("C"));
    view.reveal();
    QVERIFY(view.isRevealed());
    QVERIFY(view.optionText(0).startsWith(QStringLiteral("✓ A.")));
    QVERIFY(!view.optionText(2).contains(QStringLiteral("✓")));
    QCOMPARE(view.chosen(), QStringLiteral("C")); // the student's pick stays, it is not graded or stored
    QVERIFY(view.explanationText().startsWith(QStringLiteral("Answer: A.")));
    // Q6 is multiple choice: check boxes, several ticks, three right answers once revealed.
    view.setQuestion(5);
    QVERIFY(!view.isRevealed());
    QCOMPARE(view.findChildren<QCheckBox *>().size(), 4);
    view.setChosen(QStringLiteral("AB"));
    QCOMPARE(view.chosen(), QStringLiteral("AB"));
    view.reveal();
    int ticks = 0;
    for (int i = 0; i < 4; ++i)
        ticks += view.optionText(i).startsWith(QStringLiteral("✓")) ? 1 : 0;
    QCOMPARE(ticks, 3);
    QVERIFY(!view.optionText(3).startsWith(QStringLiteral("✓")));
    // Chinese: the file's Chinese text.
    language.set(QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    view.setQuestion(8);
    QVERIFY(view.findChild<QLabel *>() != nullptr);
    QVERIFY(view.optionText(1).contains(QStringLiteral("约 3.4")));
    language.set(QStringLiteral("en"));
}

void TestQuiz::showMeDemonstratesEachAnswer_data()
{
    QTest::addColumn<int>("question");
    QTest::addColumn<QString>("expected"); // a regular expression the measured result must match
    QTest::addRow("q1 core idea") << 0 << QStringLiteral("Measured run: 2 rounds, \\d+ tokens in 2 target passes");
    QTest::addRow("q2 draft job") << 1 << QStringLiteral("Measured run: 1 rounds");
    QTest::addRow("q3 lossless") << 2 << QStringLiteral("Consistent with p");
    QTest::addRow("q4 one pass") << 3 << QStringLiteral("Measured run: 5 rounds, \\d+ tokens in 5 target passes");
    QTest::addRow("q5 closeness")
        << 4 << QStringLiteral("uniform: α\u200D\u0302 = 0\\.\\d+.*\\n.*ngram:2.*\\n.*\\n.*α\u200D\u0302 = 1\\.00");
    QTest::addRow("q6 draft choice") << 5
                                     << QStringLiteral("draft-tiny.*α\u200D\u0302.*c = .*\\n.*draft-small.*\\n.*ngram");
    QTest::addRow("q7 p/q")
        << 6 << QStringLiteral("Token x: p = 0\\.20 < q = 0\\.50, so p/q = 0\\.40; accepted \\d+ times of ≈ 100000 drafts = 0\\.(39|40|41)");
    QTest::addRow("q8 speedup") << 7 << QStringLiteral("Theory at α = 0\\.60, K = 12");
    QTest::addRow("q9 E[N]")
        << 8
        << QStringLiteral(
               "E\\[N\\] = 3\\.36 tokens per round\\.\\nMeasured run: 40 rounds, .* α\u200D\u0302 = 0\\.[789]\\d");
    QTest::addRow("q10 advantages") << 9
                                    << QStringLiteral(
                                           "draft-small: α\u200D\u0302 = .*tokens per target pass, wall clock "
                                           "\\d+\\.\\d\\d×.*\\n.*ngram:3: α\u200D\u0302 = .*wall clock");
}

void TestQuiz::showMeDemonstratesEachAnswer()
{
    QFETCH(int, question);
    QFETCH(QString, expected);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.show();
    ClassroomTools &tools = *window.classroom();
    tools.showQuiz(question);
    QCOMPARE(tools.quiz()->currentQuestion(), question);
    tools.quiz()->showMeButton()->click();
    const app::Demonstration &demo = m_quiz.questions[question].showMe;
    // Wait for what the demonstration runs: the window's rounds, the arena's lanes, the lab's samples.
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (demo.opens("window")
                && !(static_cast<int>(session.history().size()) >= demo.rounds && player.round() == demo.rounds - 1))
                return false;
            if (demo.opens("arena")
                && !(tools.arenaRunner()->isReady() && tools.arenaRunner()->pending() == 0
                     && tools.arenaRunner()->laneCount() > 0
                     && !tools.arenaRunner()->history(tools.arenaRunner()->laneCount() - 1).empty()))
                return false;
            if (demo.opens("lab") && !tools.lab()->snapshot().finished)
                return false;
            return true;
        },
        240000));
    QCoreApplication::processEvents();
    if (demo.opens("window") && !demo.phase.isEmpty())
        QCOMPARE(phaseKey(player.phase()), demo.phase);
    if (demo.theory) {
        QCOMPARE(tools.theoryExplorer()->k(), demo.theory->k);
        QVERIFY(tools.theoryExplorer()->isVisible());
    }
    const QString text = tools.quiz()->showMeText();
    QVERIFY2(text.contains(QRegularExpression(expected)), qPrintable(text));
}

// "Show me" replaces the session (question 1: kjv at its verify phase) and used to leave no way back: the
// teacher's session (setup, seed, position) is set aside, and "Back to my session" (the quiz's button, the
// banner's, Classroom ▸ Back to my session) starts it again at its round and phase.
void TestQuiz::backToMySession()
{
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    Setup mine = test::tinySetup();
    mine.decoding.seed = 5;
    window.startSession(mine);
    QVERIFY(ready.wait(30000));
    for (int i = 0; i < 3; ++i)
        player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(player.round(), 2, 20000);
    player.nextPhase();
    const Phase phase = player.phase();
    ClassroomTools &tools = *window.classroom();
    QVERIFY(!tools.hasSessionAside());
    tools.showQuiz(0);
    tools.quiz()->showMeButton()->click();
    QVERIFY(tools.hasSessionAside());
    QVERIFY(tools.backAction()->isEnabled());
    QVERIFY(tools.quiz()->backButton()->isVisible());
    QVERIFY2(window.banner()->text().contains(QStringLiteral("replaced your session")),
             qPrintable(window.banner()->text()));
    QVERIFY(ready.wait(60000)); // the demonstration's session
    QVERIFY(session.setup().corpus != mine.corpus);
    QTRY_VERIFY_WITH_TIMEOUT(tools.quiz()->showMeText().contains(QStringLiteral("Measured run")), 30000);
    tools.quiz()->backButton()->click();
    // The demonstration's measurement leaves with it: the caption no longer reports a run that is not shown.
    QVERIFY2(!tools.quiz()->showMeText().contains(QStringLiteral("Measured run")),
             qPrintable(tools.quiz()->showMeText()));
    QVERIFY(!tools.hasSessionAside());
    QVERIFY(!tools.backAction()->isEnabled());
    QVERIFY(!tools.quiz()->backButton()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(session.setup().corpus == mine.corpus && player.round() == 2, 30000);
    QCOMPARE(player.phase(), phase);
    QCOMPARE(session.setup().decoding.seed, mine.decoding.seed);
    QCOMPARE(session.setup().prompt, mine.prompt);

    // A lesson the program starts with (--lesson) is the session: nothing set aside, no banner saying so.
    window.banner()->showMessage(MessageBanner::Kind::Info, QStringLiteral("before the lesson"));
    QCOMPARE(tools.openLessonFile(QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/00-classic-demo.lesson.json"),
                                  ClassroomTools::Aside::None),
             QString());
    QVERIFY(!tools.hasSessionAside());
    QVERIFY(!tools.backAction()->isEnabled());
    QVERIFY2(!window.banner()->text().contains(QStringLiteral("replaced your session")),
             qPrintable(window.banner()->text()));
    QVERIFY(ready.wait(60000)); // the lesson's session, not a setup put aside
    QVERIFY(!tools.hasSessionAside());
}

QTEST_MAIN(TestQuiz)
#include "test_gui_quiz.moc"
