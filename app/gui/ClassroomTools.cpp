// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClassroomTools.h"

#include "ActionRegistry.h"
#include "AppPaths.h"
#include "ArenaRunner.h"
#include "ArenaTool.h"
#include "ArenaView.h"
#include "DistributionView.h"
#include "ExportDialogs.h"
#include "HelpBrowser.h"
#include "LabFromRound.h"
#include "LabRunner.h"
#include "LessonClaims.h"
#include "LessonLibrary.h"
#include "LessonPanel.h"
#include "Lessons.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "MessageBanner.h"
#include "Player.h"
#include "PlotsPanel.h"
#include "PredictBeforeReveal.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "RaceRunner.h"
#include "RaceView.h"
#include "SessionController.h"
#include "SessionFiles.h"
#include "SetupSettings.h"
#include "ShowMe.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"
#include "ToolWindows.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <utility>

namespace specdec::gui {

ClassroomTools::ClassroomTools(MainWindow *window, SessionController *session, Player *player)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_player(player)
    , m_arenaRunner(new ArenaRunner(corpusCatalog(), this, session->host()))
    , m_labRunner(new LabRunner(this, session->host()))
    , m_arena(ToolWindows::make(new ArenaView, window, {1200, 1100}))
    , m_raceRunner(new RaceRunner(corpusCatalog(), session->host(), this))
    , m_race(ToolWindows::make(new RaceView, window, {1100, 720}))
    , m_lab(ToolWindows::make(new LosslessLabView, window, {1000, 620}))
    , m_theory(ToolWindows::make(new TheoryExplorer, window, {1100, 520}))
    , m_quiz(ToolWindows::make(new QuizView, window, {900, 620}))
    , m_help(ToolWindows::make(new HelpBrowser, window, {900, 700}))
    , m_shortcuts(ToolWindows::make(new ShortcutList, window, {640, 520}))
    , m_presenter(new PresenterMode(window))
    , m_toolWindows(new ToolWindows(m_presenter, this))
    , m_lessons(new LessonLibrary(window, this))
    , m_arenaTool(new ArenaTool(m_arena, m_arenaRunner, session, this))
    , m_sessionFiles(new SessionFiles(window, session, player, this))
    , m_exports(new ExportDialogs(window, session, player, {m_arena, m_theory, m_lab, m_quiz}, this))
    , m_showMe(new ShowMe(m_quiz, {session, player, m_arenaRunner, m_lab, m_theory}, this))
    , m_predict(new PredictBeforeReveal(window, player, m_lab, this))
{
    try {
        m_quiz->setQuiz(app::QuizFile::load(quizPath()));
    } catch (const std::exception &e) {
        m_lessons->addError(QString::fromUtf8(e.what()));
    }
    for (const QString &line : m_lessons->errors())
        qWarning("specdec-lab: %s", qPrintable(line));
    connect(m_quiz, &QuizView::showMeRequested, this, &ClassroomTools::showMe);
    connect(
        m_labRunner, &LabRunner::progress, m_showMe,
        [this](const LabSnapshot &snapshot) {
            if (snapshot.finished)
                m_showMe->update();
        },
        Qt::QueuedConnection); // after the lab view has drawn the snapshot
    connectLab(m_lab, m_labRunner);
    connectRace(m_race, m_raceRunner, [session] { return session->setup(); });
    connect(m_lab, &LosslessLabView::modelPresetRequested, this, &ClassroomTools::labFromModels);
    connect(m_arenaTool, &ArenaTool::stepFinished, this, &ClassroomTools::updateMeasured);
    connect(m_arenaTool, &ArenaTool::stepFinished, m_showMe, &ShowMe::update);
    connect(m_lessons, &LessonLibrary::applyRequested, this, [this](int index) { applyLesson(index); });

    connect(m_session, &SessionController::roundsAdded, this, [this] {
        if (m_theory->isVisible())
            updateMeasured(); // the session's point moves as rounds arrive
    });
    connect(m_player, &Player::positionChanged, m_showMe, &ShowMe::update);
    connect(m_session, &SessionController::ready, this, [this](const SessionInfo &info) {
        m_theory->setMeasuredCost(info.verificationCost, info.draftCost);
        if (!m_lessons->errors().isEmpty()) // once: a lesson file that did not load is said where it is seen
            m_window->banner()->showMessage(MessageBanner::Kind::Warning,
                                            m_lessons->takeErrors().join(QLatin1Char('\n')));
    });
    // In PresenterStage's order (the names of --stage).
    m_presenter->setStages({{window->centralWidget(), {}},
                            {window->distributionView(), {}},
                            {window->plots(), {}},
                            {window->theory(), {}},
                            {m_lab, {}},
                            {m_arena, {}},
                            {m_theory, {}},
                            {m_quiz, {}},
                            {m_race, {}}});
    // A stage shows what the session has played when it comes to the front: the explorer's "your runs" follow
    // the rounds only while it is visible (a tab behind others missed them).
    connect(m_presenter, &PresenterMode::stageShown, this, [this](int index) {
        if (m_presenter->stageWidget(index) == m_theory)
            updateMeasured();
    });
    createMenus();
    retranslate();
    window->installEventFilter(this);
    m_defaultState = window->saveState();
}

bool ClassroomTools::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

ClassroomTools::~ClassroomTools() = default;

void ClassroomTools::createMenus()
{
    // Declared once, in the window's registry: File ▸ sessions, lessons and exports (before Quit), Help ▸ the
    // guide and the keys (before About), and the Classroom menu.
    ActionRegistry &r = *m_window->actions();
    auto add = [&](const char *id, MenuId menu, int section, ActionRegistry::Text text, auto slot,
                   const QKeySequence &shortcut = {}) {
        connect(r.add(QLatin1String(id), menu, section, std::move(text), shortcut), &QAction::triggered, this, slot);
    };
    m_sessionFiles->addActions(r);
    add(
        "file.openLesson", MenuId::File, 1, [] { return tr("Open &lesson…"); }, &ClassroomTools::openLessonDialog);
    m_exports->addActions(r);
    add(
        "help.guide", MenuId::Help, 0, [] { return tr("&User guide"); }, &ClassroomTools::showUserGuide,
        QKeySequence::HelpContents);
    add(
        "help.shortcuts", MenuId::Help, 0, [] { return tr("&Keyboard shortcuts"); }, &ClassroomTools::showShortcuts);
    add(
        "help.reset", MenuId::Help, 0, [] { return tr("&Reset layout and setup"); },
        &ClassroomTools::resetLayoutAndSetup);
    add(
        "classroom.arena", MenuId::Classroom, 0, [] { return tr("Draft arena"); }, &ClassroomTools::showArena);
    add(
        "classroom.race", MenuId::Classroom, 0, [] { return tr("Race: target alone vs speculative"); },
        &ClassroomTools::showRace);
    add(
        "classroom.lab", MenuId::Classroom, 0, [] { return tr("Lossless lab"); }, &ClassroomTools::showLab);
    add(
        "classroom.theory", MenuId::Classroom, 0, [] { return tr("Theory explorer"); }, &ClassroomTools::showTheory);
    add(
        "classroom.quiz", MenuId::Classroom, 0, [] { return tr("Quiz"); },
        [this] { showQuiz(m_quiz->currentQuestion()); });
    r.adopt(m_lessons->dock()->toggleViewAction(), QStringLiteral("classroom.lessons"), MenuId::Classroom, 1,
            [] { return tr("Lessons"); });
    m_back = r.add(QStringLiteral("classroom.back"), MenuId::Classroom, 1, [] { return tr("&Back to my session"); });
    m_back->setEnabled(false);
    connect(m_back, &QAction::triggered, this, &ClassroomTools::backToMySession);
    m_toolWindows->addActions(r); // presenter mode (F5) and the keys that work only while presenting
    m_predict->addAction(r);
}

void ClassroomTools::retranslate()
{
    m_lessons->retranslate();
    m_arena->setWindowTitle(tr("Draft arena"));
    m_lab->setWindowTitle(tr("Lossless lab"));
    m_race->setWindowTitle(tr("Race"));
    m_theory->setWindowTitle(tr("Theory explorer"));
    m_quiz->setWindowTitle(tr("Quiz"));
    m_presenter->setStageTitles({tr("Round"), tr("Distributions"), tr("Live plots"), tr("Theory"), tr("Lossless lab"),
                                 tr("Draft arena"), tr("Theory explorer"), tr("Quiz"), tr("Race")});
    m_help->setWindowTitle(tr("User guide"));
    m_shortcuts->setWindowTitle(tr("Keyboard shortcuts"));
    if (m_shortcuts->isVisible())
        m_shortcuts->setEntries(shortcutEntries(*m_window->actions()));
}

void ClassroomTools::labFromModels()
{
    const auto &history = m_session->history();
    const int round = m_player->round();
    if (!history.contains(round) || history.at(round).trace.positions.empty() || !m_session->info().vocabulary) {
        QMessageBox::information(m_lab, tr("Lossless lab"), tr("Play a round in the main window first."));
        return;
    }
    if (const auto lab = labDistributionsOf(history.at(round), *m_session->info().vocabulary, tr("others")))
        m_lab->setDistributions(lab->p, lab->q, lab->labels);
}

void ClassroomTools::updateMeasured()
{
    // The session's point, and the arena's lanes only when the arena belongs to what is shown (no leftover
    // lanes of an earlier lesson among "your runs").
    QVector<MeasuredPoint> points;
    auto add = [&](const QString &label, const RunMetrics &m) {
        if (m.rounds == 0)
            return;
        points << MeasuredPoint{label,
                                m.acceptanceRate,
                                static_cast<double>(m.drafted) / m.rounds,
                                m.costRatio,
                                m.tokensPerRound,
                                m.speedupCostModel,
                                m.speedupWallClock};
    };
    if (!m_session->history().empty())
        add(tr("session"), m_session->history().back().cumulative);
    if (m_arenaTool->isMeasured())
        for (int i = 0; i < m_arenaRunner->laneCount(); ++i)
            if (!m_arenaRunner->history(i).empty())
                add(m_arenaRunner->info().lanes.value(i), m_arenaRunner->history(i).back().cumulative);
    m_theory->setMeasured(points);
}

void ClassroomTools::showRace()
{
    m_toolWindows->present(m_race);
}

void ClassroomTools::showArena()
{
    m_toolWindows->present(m_arena);
}

void ClassroomTools::showLab()
{
    m_toolWindows->present(m_lab);
}

void ClassroomTools::showTheory()
{
    updateMeasured();
    m_toolWindows->present(m_theory);
}

void ClassroomTools::applyLesson(int index, Aside aside)
{
    if (!m_lessons->show(index))
        return;
    m_showMe->end();
    applyDemonstration(m_lessons->files()[index].demo, aside);
}

QString ClassroomTools::openLessonFile(const QString &path, Aside aside)
{
    try {
        applyLesson(m_lessons->add(path), aside);
        return {};
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
}

void ClassroomTools::openLessonDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open lesson"), lessonsFolder(),
                                                      tr("Lessons (*.lesson.json *.json)"));
    if (path.isEmpty())
        return;
    const QString error = openLessonFile(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Open lesson"), error);
}

void ClassroomTools::applyDemonstration(const app::Demonstration &original, Aside aside)
{
    const app::Demonstration demo = app::resolvedDemonstration(original, onnxModelFiles());
    if (demo.setup) {
        const bool keep = aside == Aside::Keep && !m_aside; // the teacher's own session, kept through any
        if (keep)                                           // number of demonstrations
            m_aside = m_sessionFiles->current();
        if (demo.rounds > 0)
            m_sessionFiles->goToWhenPlayed({demo.rounds, demo.phase.isEmpty() ? QStringLiteral("commit") : demo.phase});
        m_window->startSession(*demo.setup);
        if (m_aside) {
            m_back->setEnabled(true);
            m_quiz->setBackAction(m_back);
            m_window->banner()->showMessage(
                MessageBanner::Kind::Info,
                tr("A demonstration replaced your session (setup and position); it is kept."), m_back);
        }
    }
    m_arenaTool->setMeasured(demo.opens("arena"));
    for (const QString &tool : demo.open) {
        if (tool == QLatin1String("arena")) {
            m_arenaTool->load(demo.arenaLanes, m_showMe->question() >= 0 ? 30 : 0);
            showArena();
        } else if (tool == QLatin1String("lab") && demo.lab) {
            m_lab->setVariant(demo.lab->variant);
            if (!demo.lab->p.isEmpty())
                m_lab->setDistributions(demo.lab->p, demo.lab->q, demo.lab->labels);
            else if (demo.lab->fromModels)
                labFromModels();
            showLab();
            if (demo.lab->samples > 0) {
                m_lab->setSamples(demo.lab->samples);
                emit m_lab->runRequested(m_lab->request()); // as if Run were pressed
            }
        } else if (tool == QLatin1String("theory") && demo.theory) {
            m_theory->setAlpha(demo.theory->alpha);
            m_theory->setK(demo.theory->k);
            m_theory->setC(demo.theory->c);
            showTheory();
        } else if (tool == QLatin1String("window")) {
            if (m_presenter->isActive())
                m_presenter->showStage(0);
            m_window->raise();
        }
    }
    m_showMe->update();
}

void ClassroomTools::backToMySession()
{
    if (!m_aside)
        return;
    const app::SessionFile aside = *std::exchange(m_aside, std::nullopt);
    m_back->setEnabled(false);
    if (m_showMe->question() >= 0) // its measurement leaves with the demonstration
        m_quiz->setShowMeResult(QString());
    m_showMe->end();
    m_window->banner()->hide();
    m_sessionFiles->open(aside);
}

void ClassroomTools::showQuiz(int index)
{
    m_quiz->setQuestion(index);
    m_toolWindows->present(m_quiz);
}

void ClassroomTools::showMe(int index)
{
    if (index < 0 || index >= m_quiz->questionCount())
        return;
    m_showMe->begin(index);
    const app::Demonstration &demo = m_quiz->quiz().questions[index].showMe;
    applyDemonstration(demo);
    if (m_presenter->isActive())
        return;
    // The question and its caption stay in sight beside the tool window that demonstrates it.
    for (const auto &[name, tool] :
         {std::pair<const char *, QWidget *>{"theory", m_theory}, {"lab", m_lab}, {"arena", m_arena}})
        if (demo.opens(name) && tool->isVisible()) {
            ToolWindows::shareScreen(m_quiz, tool);
            break;
        }
    // In front once the window manager has mapped the tool window, which it puts on top as it maps it (a raise
    // before that, e.g. from a zero timer, was undone under openbox at 1280×720).
    QTimer::singleShot(200, m_quiz, [quiz = m_quiz] {
        quiz->raise();
        quiz->activateWindow();
    });
}

void ClassroomTools::showUserGuide()
{
    m_help->showGuide();
    ToolWindows::raise(m_help);
}

void ClassroomTools::showShortcuts()
{
    m_shortcuts->setEntries(shortcutEntries(*m_window->actions()));
    ToolWindows::raise(m_shortcuts);
}

void ClassroomTools::resetLayoutAndSetup()
{
    QSettings settings;
    settings.remove(QStringLiteral("window"));
    settings.remove(QStringLiteral("setup"));
    for (QWidget *tool :
         {static_cast<QWidget *>(m_arena), static_cast<QWidget *>(m_lab), static_cast<QWidget *>(m_theory),
          static_cast<QWidget *>(m_quiz), static_cast<QWidget *>(m_help), static_cast<QWidget *>(m_shortcuts)})
        tool->hide();
    m_window->restoreState(m_defaultState);
    // The layout of the screen the window is on (as a first start lays it out): a 1280×720 projector gets
    // the compact layout, which fits it, not the 1600×1000 one the default state was saved with.
    if (const QScreen *screen = m_window->screen()) {
        const QSize available = screen->availableSize();
        m_window->showNormal();
        m_window->arrangeFor(available.boundedTo(QSize(1600, 1000)));
        if (available.width() < 1600 || available.height() < 1000 + 48)
            m_window->showMaximized(); // the window manager fits it, title bar included
    }
    m_arenaTool->setMeasured(false);
    m_aside.reset(); // a reset starts over: no session set aside
    m_back->setEnabled(false);
    m_window->startSession(defaultSetup());
}

} // namespace specdec::gui
