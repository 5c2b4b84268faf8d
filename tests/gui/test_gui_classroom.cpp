// SPDX-License-Identifier: GPL-3.0-or-later
// Classroom tools: a saved session reopens to the same rounds; lessons are valid setups; the theory
// explorer marks the engine's best K; plots export as PNG and PDF and the handout is a one-page PDF.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ClassroomTools.h"
#include "DistributionView.h"
#include "Exporter.h"
#include "Language.h"
#include "LessonPanel.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "PlotsPanel.h"
#include "RoundView.h"
#include "SessionController.h"
#include "SessionFile.h"
#include "SetupBar.h"
#include "TheoryExplorer.h"

#include "Theory.h"

#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

namespace {

Setup tinySetup()
{
    Setup s = test::tinySetup();
    s.decoding.seed = 11;
    s.decoding.policy = DraftPolicy::parse("heuristic");
    return s;
}

using Records = std::vector<std::shared_ptr<const RoundRecord>>;

Records recordsOf(const RoundHistory &history)
{
    Records records;
    for (int i = 0; i < history.size(); ++i)
        records.push_back(history.shared(i));
    return records;
}

Records play(const Setup &setup, int rounds)
{
    SessionController session(test::builtCorpora());
    session.start(setup);
    if (!QTest::qWaitFor([&] { return session.isReady(); }, 30000))
        return {};
    session.requestRounds(rounds);
    if (!QTest::qWaitFor([&] { return session.history().size() >= rounds; }, 30000))
        qWarning("rounds did not arrive");
    return recordsOf(session.history());
}

} // namespace

class TestClassroom : public QObject
{
    Q_OBJECT
private slots:
    void saveOpenReproducesTheRounds();
    void windowOpensASessionAtItsPosition();
    void policyDrawsKOverRounds();
    void lessonsAreValidSetups();
    void theoryExplorerMarksTheBestK();
    void theoryExplorerPutsRunsAtTheMeasuredValue();
    void exportsPlotsAndHandout();
    void treeSessionInTheWindow();
};

void TestClassroom::treeSessionInTheWindow()
{
    // A tree session opened from a file: the window shows the tree, the file keeps the shape, and the lab's
    // "From the models" takes p and q at the context (the tree's root) for the k-candidates mode.
    QStandardPaths::setTestModeEnabled(true);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    app::SessionFile file;
    file.setup = tinySetup();
    file.setup.decoding.policy = DraftPolicy{};
    file.setup.decoding.tree = TreeShape::parse("3,2,1");
    file.position.round = 3;
    file.position.phase = QStringLiteral("dice");
    window.classroom()->openSession(file);
    QVERIFY(QTest::qWaitFor([&] { return player.round() == 2; }, 30000));
    const RoundRecord &record = session.history().at(2);
    QVERIFY(record.tree);
    QVERIFY(!window.roundView()->tree()->isHidden());
    QCOMPARE(window.classroom()->currentSession().setup.decoding.tree, file.setup.decoding.tree);
    QCOMPARE(window.setupBar()->setup().decoding.tree, file.setup.decoding.tree);
    // The distribution view follows a node of the tree, never a card.
    QVERIFY(window.distributionView()->treeNode() != -1);
    window.classroom()->labFromModels();
    const Eigen::VectorXd *rootP = nullptr;
    for (const TreeExpansion &e : record.tree->expansions)
        if (e.node == -1)
            rootP = &e.p;
    QVERIFY(rootP);
    const QVector<double> labP = window.classroom()->lab()->p();
    QVERIFY(labP.size() >= 2);
    // One of the lab's bars is p's largest probability at the context (its bars are p's top tokens + others).
    QVERIFY(std::any_of(labP.begin(), labP.end(), [&](double v) { return qAbs(v - rootP->maxCoeff()) < 1e-6; }));
}

void TestClassroom::saveOpenReproducesTheRounds()
{
    const Records first = play(tinySetup(), 12);
    QCOMPARE(static_cast<int>(first.size()), 12);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lesson.specdec.json"));
    app::SessionFile file;
    file.setup = tinySetup();
    file.position.round = 7;
    file.position.phase = QStringLiteral("dice");
    file.save(path);
    const app::SessionFile opened = app::SessionFile::load(path);
    QCOMPARE(opened.position.round, 7);
    QCOMPARE(opened.position.phase, QStringLiteral("dice"));
    const Records second = play(opened.setup, 12);
    QCOMPARE(static_cast<int>(second.size()), 12);
    for (std::size_t i = 0; i < first.size(); ++i) {
        const RoundTrace &a = first[i]->trace, &b = second[i]->trace;
        QCOMPARE(a.committed, b.committed);
        QCOMPARE(a.draftLength, b.draftLength); // the policy's K over rounds comes back too
        QCOMPARE(a.positions.size(), b.positions.size());
        for (std::size_t j = 0; j < a.positions.size(); ++j)
            QCOMPARE(a.positions[j].u, b.positions[j].u);
    }
}

void TestClassroom::windowOpensASessionAtItsPosition()
{
    QStandardPaths::setTestModeEnabled(true);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    MainWindow window(&session, &player, &language);
    window.show();
    app::SessionFile file;
    file.setup = tinySetup();
    file.position.round = 6;
    file.position.phase = QStringLiteral("verify");
    window.classroom()->openSession(file);
    QVERIFY(QTest::qWaitFor([&] { return player.round() == 5; }, 30000));
    QCOMPARE(player.phase(), Phase::Verify);
    QCOMPARE(window.roundView()->round(), 5);
    // Saving now gives the same file back.
    const app::SessionFile saved = window.classroom()->currentSession();
    QCOMPARE(saved.position.round, 6);
    QCOMPARE(saved.position.phase, QStringLiteral("verify"));
    QCOMPARE(saved.setup.decoding.seed, file.setup.decoding.seed);
    QCOMPARE(saved.setup.decoding.policy, file.setup.decoding.policy);
    // The trace of the round shown is the one a fresh run plays.
    const Records fresh = play(file.setup, 6);
    QCOMPARE(session.history().at(5).trace.committed, fresh[5]->trace.committed);
}

void TestClassroom::policyDrawsKOverRounds()
{
    PlotsPanel plots;
    const Records heuristic = play(tinySetup(), 20); // tinySetup uses the heuristic policy
    RoundHistory history;
    history.append(heuristic);
    plots.appendRounds(history);
    const QVector<double> k = plots.values(PlotsPanel::Series::DraftLength);
    QCOMPARE(k.size(), 20);
    for (int i = 0; i < 20; ++i)
        QCOMPARE(k[i], double(heuristic[static_cast<std::size_t>(i)]->trace.draftLength));
    QVERIFY(std::any_of(k.begin(), k.end(), [&](double v) { return v != k.front(); }));
    QVERIFY(plots.plot(1)->graph(plots.plot(1)->graphCount() - 1)->visible());

    Setup constant = tinySetup();
    constant.decoding.policy = DraftPolicy::parse("constant");
    plots.clear();
    RoundHistory constantHistory;
    constantHistory.append(play(constant, 20));
    plots.appendRounds(constantHistory);
    QCOMPARE(plots.values(PlotsPanel::Series::DraftLength), QVector<double>(20, 4.0));
    QVERIFY(!plots.plot(1)->graph(plots.plot(1)->graphCount() - 1)->visible());
}

void TestClassroom::lessonsAreValidSetups()
{
    // The window lists the lesson files of lessons/ (the classic demo first) and a lesson applies its setup.
    QStandardPaths::setTestModeEnabled(true);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    ClassroomTools &tools = *window.classroom();
    QCOMPARE(tools.lessonErrors(), QStringList());
    QCOMPARE(tools.lessonFiles().size(), 8);
    QCOMPARE(tools.lessonFiles().front().id, QStringLiteral("classic-demo"));
    tools.applyLesson(2);
    QCOMPARE(QString::fromStdString(session.setup().target), QStringLiteral("ngram:6"));
    QCOMPARE(session.setup().decoding.draftLength, 4);
    QCOMPARE(tools.lessons()->currentLesson(), 2);
    QVERIFY(tools.lessons()->explanationText().contains(QStringLiteral("smallest draft")));
    // The teacher advances the steps: each one appears below the ones before.
    QCOMPARE(tools.lessons()->currentStep(), 0);
    const QString step2 = tools.lessonFiles()[2].steps[1].text(QStringLiteral("en"));
    QVERIFY(!tools.lessons()->explanationText().contains(step2.left(30)));
    tools.lessons()->nextStep();
    QVERIFY(tools.lessons()->explanationText().contains(step2.left(30)));
    // In Chinese, the same lesson in the file's Chinese text.
    language.set(QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    QVERIFY(tools.lessons()->explanationText().contains(
        tools.lessonFiles()[2].steps[1].text(QStringLiteral("zh_CN")).left(10)));
    language.set(QStringLiteral("en"));
    QCoreApplication::processEvents();

    // A teacher's own file: a good one is added and run, a bad one names the field.
    QTemporaryDir dir;
    QFile source(QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/05-sampling-breaks.lesson.json"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray bytes = source.readAll();
    bytes.replace("\"sampling-breaks\"", "\"my-lesson\"");
    bytes.replace("\"k\": 4", "\"k\": 3");
    const QString mine = dir.filePath(QStringLiteral("mine.lesson.json"));
    QFile out(mine);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();
    QCOMPARE(tools.openLessonFile(mine), QString());
    QCOMPARE(tools.lessonFiles().size(), 9);
    QCOMPARE(tools.lessons()->currentLesson(), 8);
    QCOMPARE(session.setup().decoding.draftLength, 3);
    bytes.replace("\"k\": 3", "\"k\": 0");
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(bytes);
    out.close();
    const QString error = tools.openLessonFile(mine);
    QVERIFY2(error.contains(QStringLiteral("mine.lesson.json: 'demo.setup.k' must be from 1 to 64")), qPrintable(error));
    QCOMPARE(tools.lessonFiles().size(), 9);
}

void TestClassroom::theoryExplorerMarksTheBestK()
{
    TheoryExplorer explorer;
    explorer.setAlpha(0.8);
    explorer.setK(4);
    explorer.setC(0.05);
    QCOMPARE(explorer.optimalK(), theory::optimalDraftLength(0.8, 0.05, TheoryExplorer::kMaxK));
    QVERIFY(explorer.summaryText().contains(QStringLiteral("3.36")));
    // "Speculation is free": α = 0.9 but c = 0.8 → below 1 at K = 8
    explorer.setAlpha(0.9);
    explorer.setK(8);
    explorer.setC(0.8);
    QVERIFY(theory::costModelSpeedup(0.9, 8, 0.8) < 1.0);
    explorer.setMeasured({MeasuredPoint{QStringLiteral("run"), 0.5, 4, 0.1, 1.9, 1.3, std::nullopt}});
    QCOMPARE(explorer.plot(1)->graphCount(), 6); // with Theorem 3.8's curve for comparison

    // Hardware: without a measurement "this machine" cannot be chosen; with one, V and c are the measured ones
    // and the best K is the generalised model's, E[N] / (V(K+1) + Kc).
    explorer.setAlpha(0.8);
    explorer.setC(0.05);
    explorer.setHardware(TheoryExplorer::Hardware::Measured);
    QCOMPARE(explorer.hardware(), TheoryExplorer::Hardware::OneStep); // not measured: stays on V = 1
    const std::vector<double> v{1.0, 1.2, 1.5, 1.9, 2.4, 3.0};
    explorer.setMeasuredCost(v, 0.12);
    explorer.setHardware(TheoryExplorer::Hardware::Measured);
    QCOMPARE(explorer.hardware(), TheoryExplorer::Hardware::Measured);
    QCOMPARE(explorer.c(), 0.12);
    QCOMPARE(explorer.verificationCost(5), 2.4);
    QCOMPARE(explorer.verificationCost(8), 3.0 + 2 * 0.6); // past the measurement: the last slope
    QCOMPARE(explorer.optimalK(), theory::optimalDraftLengthMeasured(0.8, 0.12, v));
    QVERIFY(explorer.optimalK() < theory::optimalDraftLength(0.8, 0.12, TheoryExplorer::kMaxK));
    explorer.setK(4);
    QCOMPARE(explorer.speedup(0.8, 4, 0.12), theory::generalisedSpeedup(0.8, 4, 0.12, 2.4));
    QVERIFY(explorer.summaryText().contains(QStringLiteral("2.40")));
    // A memory-bound accelerator: V = 1 up to the ridge point, so Theorem 3.8 holds there.
    explorer.setHardware(TheoryExplorer::Hardware::Accelerator);
    explorer.setRidge(64);
    QCOMPARE(explorer.verificationCost(17), 1.0);
    QCOMPARE(explorer.optimalK(), theory::optimalDraftLength(0.8, 0.12, TheoryExplorer::kMaxK));
    explorer.setRidge(2);
    QCOMPARE(explorer.verificationCost(8), 4.0);
}

// "Your runs" sit at what they measured (the wall clock), the prediction an outline beside them: a run measured
// at 0.50× that the cost model puts at 1.9× is drawn at 0.50×, not 1.9×.
void TestClassroom::theoryExplorerPutsRunsAtTheMeasuredValue()
{
    TheoryExplorer explorer;
    const std::vector<double> v{1.0, 1.4, 1.8, 2.2, 2.6, 3.0};
    explorer.setMeasuredCost(v, 0.1);
    MeasuredPoint run{QStringLiteral("session"), 0.7, 4, 0.05, 2.8, 1.9, 0.5};
    MeasuredPoint untimed{QStringLiteral("lane"), 0.6, 5, 0.05, 2.2, 1.6, std::nullopt};
    explorer.setMeasured({run, untimed});
    auto graphNamed = [&](int plot, const QString &name) -> QCPGraph * {
        for (int i = 0; i < explorer.plot(plot)->graphCount(); ++i)
            if (explorer.plot(plot)->graph(i)->name() == name)
                return explorer.plot(plot)->graph(i);
        return nullptr;
    };
    for (auto hardware : {TheoryExplorer::Hardware::OneStep, TheoryExplorer::Hardware::Measured}) {
        explorer.setHardware(hardware);
        QCPGraph *measured = graphNamed(1, QStringLiteral("your runs, measured"));
        QCPGraph *predicted = graphNamed(1, QStringLiteral("your runs, predicted"));
        QVERIFY(measured && predicted);
        QCOMPARE(measured->dataCount(), 1); // the lane without a timed baseline has no measured point
        QCOMPARE(measured->data()->at(0)->key, 4.0);
        QCOMPARE(measured->data()->at(0)->value, 0.5);
        QCOMPARE(predicted->dataCount(), 2);
        const double expected = hardware == TheoryExplorer::Hardware::Measured
            ? theory::generalisedSpeedup(0.7, 4, 0.1, 2.6)
            : theory::costModelSpeedup(0.7, 4, 0.05);
        QCOMPARE(predicted->data()->at(0)->value, expected);
        QCOMPARE(explorer.predicted(run), expected);
        QCPGraph *alpha = graphNamed(2, QStringLiteral("your runs, measured"));
        QVERIFY(alpha);
        QCOMPARE(alpha->data()->at(0)->key, 0.7);
        QCOMPARE(alpha->data()->at(0)->value, 0.5);
    }
}

void TestClassroom::exportsPlotsAndHandout()
{
    QTemporaryDir dir;
    TheoryExplorer explorer;
    explorer.resize(900, 400);
    for (const char *suffix : {"png", "pdf"}) {
        const QString path = dir.filePath(QStringLiteral("plot.") + QLatin1String(suffix));
        QCOMPARE(exportPlot(explorer.plot(0), path), QString());
        QVERIFY(QFileInfo(path).size() > 500);
    }
    QVERIFY(!exportPlot(explorer.plot(0), dir.filePath(QStringLiteral("plot.bmpx"))).isEmpty());
    // SVG needs Qt SVG (qt6-svg-dev, installed by scripts/install-deps.sh).
    QVERIFY(svgExportAvailable());
    const QString svgPath = dir.filePath(QStringLiteral("plot.svg"));
    QCOMPARE(exportPlot(explorer.plot(0), svgPath), QString());
    QFile svgFile(svgPath);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QVERIFY(svgFile.readAll().contains("<svg"));
    const QString handout = dir.filePath(QStringLiteral("handout.pdf"));
    HandoutText text;
    text.title = QStringLiteral("Round 1");
    text.setup = {QStringLiteral("Corpus: kjv")};
    text.numbers = {QStringLiteral("α\u200D\u0302 = 0.5")};
    text.theoryHtml = QStringLiteral("<p>E[N]</p>");
    QCOMPARE(writeHandout(handout, text, &explorer, explorer.plot(1)), QString());
    QFile f(handout);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    QVERIFY(pdf.startsWith("%PDF"));
    QCOMPARE(pdf.count("/Type /Page") - pdf.count("/Type /Pages"), qsizetype(1)); // one page
}

QTEST_MAIN(TestClassroom)
#include "test_gui_classroom.moc"
