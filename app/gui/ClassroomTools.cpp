// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClassroomTools.h"

#include "ActionRegistry.h"
#include "AppPaths.h"
#include "ArenaRunner.h"
#include "ArenaView.h"
#include "DistributionView.h"
#include "Exporter.h"
#include "QuizSheet.h"
#include "HelpBrowser.h"
#include "LabRunner.h"
#include "LessonClaims.h"
#include "LessonPanel.h"
#include "Lessons.h"
#include "MessageBanner.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "PlotStyle.h"
#include "PlotsPanel.h"
#include "RoundView.h"
#include "SessionController.h"
#include "SetupSettings.h"
#include "TheoryExplorer.h"
#include "Theory.h"
#include "TheoryPanel.h"
#include "TokenText.h"
#include "TopTokens.h"
#include "TraceExport.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QTextDocumentFragment>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>

#include <functional>
#include <numeric>
#include <utility>

namespace specdec::gui {

namespace {

template <typename T>
T *toolWindow(T *widget, QWidget *parent, const QSize &size)
{
    widget->setParent(parent, Qt::Window);
    // Smaller where the screen is (a 1280×720 projector), leaving room for the window's frame and title bar.
    const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
    widget->resize(screen ? size.boundedTo(screen->availableSize() - QSize(16, 48)) : size);
    return widget;
}

/// Shows a tool window in front, also when it was minimised.
void raiseToolWindow(QWidget *window)
{
    window->setWindowState((window->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    window->show();
    window->raise();
    window->activateWindow();
}

} // namespace

ClassroomTools::ClassroomTools(MainWindow *window, SessionController *session, Player *player)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_player(player)
    , m_arenaRunner(new ArenaRunner(corpusCatalog(), this, session->host()))
    , m_labRunner(new LabRunner(this, session->host()))
    , m_arena(toolWindow(new ArenaView, window, {1200, 1100}))
    , m_lab(toolWindow(new LosslessLabView, window, {1000, 620}))
    , m_theory(toolWindow(new TheoryExplorer, window, {1100, 520}))
    , m_lessons(new LessonPanel)
    , m_quiz(toolWindow(new QuizView, window, {900, 620}))
    , m_help(toolWindow(new HelpBrowser, window, {900, 700}))
    , m_shortcuts(toolWindow(new ShortcutList, window, {640, 520}))
    , m_presenter(new PresenterMode(window))
{
    m_lessonFiles = app::loadLessonFolder(lessonsFolder(), &m_lessonErrors);
    try {
        m_quiz->setQuiz(app::QuizFile::load(quizPath()));
    } catch (const std::exception &e) {
        m_lessonErrors << QString::fromUtf8(e.what());
    }
    for (const QString &line : std::as_const(m_lessonErrors))
        qWarning("specdec-lab: %s", qPrintable(line));
    connect(m_quiz, &QuizView::showMeRequested, this, &ClassroomTools::showMe);
    connect(m_labRunner, &LabRunner::progress, this, [this](const LabSnapshot &snapshot) {
        if (snapshot.finished)
            updateShowMeResult();
    }, Qt::QueuedConnection); // after the lab view has drawn the snapshot
    connectLab(m_lab, m_labRunner);
    connect(m_lab, &LosslessLabView::modelPresetRequested, this, &ClassroomTools::labFromModels);

    connect(m_arena, &ArenaView::loadRequested, this, [this](const QStringList &lines) {
        m_arenaMeasured = true;
        m_arenaLoading = true;
        m_arena->setBusy(true, tr("Loading the target and %1 drafts…").arg(lines.size()));
        m_arenaRunner->start(m_session->setup(), lines);
    });
    connect(m_arena, &ArenaView::stepRequested, this, [this](bool aligned, int count) {
        m_arena->setBusy(true, tr("Playing…"));
        m_arenaRunner->step(aligned, count);
    });
    connect(m_arenaRunner, &ArenaRunner::ready, this, [this](const ArenaInfo &info) {
        m_arenaLoading = false;
        m_arena->setLanes(info.lanes, info.session, info.baseline);
        m_arena->setBusy(false);
        if (m_arenaAutoRounds > 0) { // a demonstration plays the lanes itself
            m_arena->setBusy(true, tr("Playing…"));
            m_arenaRunner->step(false, std::exchange(m_arenaAutoRounds, 0));
        }
    });
    connect(m_arenaRunner, &ArenaRunner::roundsAdded, this, [this](int lane) {
        m_arena->showLane(lane, m_arenaRunner->history(lane));
    });
    connect(m_arenaRunner, &ArenaRunner::stepFinished, this, [this] {
        m_arena->setBusy(false, tr("Each lane: same target, prompt, seed and settings."));
        updateMeasured();
        updateShowMeResult();
    });
    connect(m_arenaRunner, &ArenaRunner::failed, this, [this](const QString &message) {
        m_arenaLoading = false;
        m_arenaAutoRounds = 0;
        m_arena->setBusy(false, message);
    });

    auto *dock = new QDockWidget(window);
    dock->setObjectName(QStringLiteral("LessonsDock"));
    dock->setWidget(m_lessons);
    window->addDockWidget(Qt::LeftDockWidgetArea, dock);
    dock->hide();
    m_lessonsDock = dock;
    connect(m_lessons, &LessonPanel::applyRequested, this, &ClassroomTools::applyLesson);

    connect(m_session, &SessionController::roundsAdded, this, &ClassroomTools::onRoundsAdded);
    connect(m_player, &Player::positionChanged, this, &ClassroomTools::updateShowMeResult);
    connect(m_session, &SessionController::ready, this, [this](const SessionInfo &info) {
        m_theory->setMeasuredCost(info.verificationCost, info.draftCost);
        if (m_pendingPosition && m_session->history().empty() && m_session->pendingRounds() == 0
            && m_pendingPosition->round > 0)
            m_session->playTo(m_pendingPosition->round); // with progress in the status line, up to the cap
        if (!m_lessonErrors.isEmpty()) // once: a lesson file that did not load is said where it is seen
            m_window->banner()->showMessage(MessageBanner::Kind::Warning, std::exchange(m_lessonErrors, {}).join(QLatin1Char('\n')));
    });
    connect(m_session, &SessionController::capReached, this, [this] {
        // The file's position lies beyond the cap: show the last round played (the status line says why).
        if (!m_pendingPosition || m_session->history().empty())
            return;
        m_pendingPosition.reset();
        m_player->jumpTo(m_session->history().size() - 1, Phase::Commit);
    });
    // In PresenterStage's order (the names of --stage).
    m_presenter->setStages({{window->centralWidget(), {}}, {window->distributionView(), {}}, {m_lab, {}},
                            {m_arena, {}}, {m_theory, {}}, {m_quiz, {}}});
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
    // Ctrl+O opens a corpus (as the user guide says); sessions take Ctrl+Shift+O.
    add("file.openSession", MenuId::File, 1, [] { return tr("&Open session…"); }, &ClassroomTools::openSessionDialog,
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    add("file.saveSession", MenuId::File, 1, [] { return tr("&Save session…"); }, &ClassroomTools::saveSessionDialog,
        QKeySequence::Save);
    add("file.openLesson", MenuId::File, 1, [] { return tr("Open &lesson…"); }, &ClassroomTools::openLessonDialog);
    add("file.exportTrace", MenuId::File, 2, [] { return tr("Export trace…"); }, &ClassroomTools::exportTraceDialog);
    add("file.exportPlot", MenuId::File, 2, [] { return tr("Export plot…"); }, &ClassroomTools::exportPlotDialog);
    add("file.handout", MenuId::File, 2, [] { return tr("Export handout (PDF)…"); }, &ClassroomTools::handoutDialog);
    add("file.quizSheet", MenuId::File, 2, [] { return tr("Export quiz sheet (PDF)…"); },
        &ClassroomTools::quizSheetDialog);
    add("help.guide", MenuId::Help, 0, [] { return tr("&User guide"); }, &ClassroomTools::showUserGuide,
        QKeySequence::HelpContents);
    add("help.shortcuts", MenuId::Help, 0, [] { return tr("&Keyboard shortcuts"); }, &ClassroomTools::showShortcuts);
    add("help.reset", MenuId::Help, 0, [] { return tr("&Reset layout and setup"); },
        &ClassroomTools::resetLayoutAndSetup);
    add("classroom.arena", MenuId::Classroom, 0, [] { return tr("Draft arena"); }, &ClassroomTools::showArena);
    add("classroom.lab", MenuId::Classroom, 0, [] { return tr("Lossless lab"); }, &ClassroomTools::showLab);
    add("classroom.theory", MenuId::Classroom, 0, [] { return tr("Theory explorer"); }, &ClassroomTools::showTheory);
    add("classroom.quiz", MenuId::Classroom, 0, [] { return tr("Quiz"); },
        [this] { showQuiz(m_quiz->currentQuestion()); });
    r.adopt(m_lessonsDock->toggleViewAction(), QStringLiteral("classroom.lessons"), MenuId::Classroom, 1,
            [] { return tr("Lessons"); });
    // Presenter mode (F5) and the keys that work only while presenting: Esc leaves, Ctrl+= / Ctrl+- scale.
    m_presenterAction = r.add(QStringLiteral("view.presenter"), MenuId::View, 9,
                              [] { return tr("&Presenter mode"); }, QKeySequence(Qt::Key_F5));
    m_presenterAction->setCheckable(true);
    connect(m_presenterAction, &QAction::toggled, this, &ClassroomTools::setPresenterMode);
    m_predictAction = r.add(QStringLiteral("view.predict"), MenuId::View, 8, [] { return tr("Predict before &reveal"); },
                            QKeySequence(Qt::Key_P));
    m_predictAction->setCheckable(true);
    connect(m_predictAction, &QAction::toggled, this, &ClassroomTools::setPredictBeforeReveal);
    const struct {
        const char *id;
        ActionRegistry::Text text;
        QKeySequence key;
        std::function<void()> slot;
    } keys[] = {
        {"view.presenterLeave", [] { return tr("Leave presenter mode"); }, QKeySequence(Qt::Key_Escape),
         [this] { setPresenterMode(false); }},
        {"view.presenterLarger", [] { return tr("Larger text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+=")), [this] { m_presenter->zoomIn(); }},
        {"view.presenterSmaller", [] { return tr("Smaller text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+-")), [this] { m_presenter->zoomOut(); }},
    };
    for (const auto &k : keys) {
        QAction *a = r.add(QLatin1String(k.id), MenuId::View, 9, k.text, k.key);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, k.slot);
        m_presenterActions << a;
    }
}

void ClassroomTools::retranslate()
{
    m_lessonsDock->setWindowTitle(tr("Lessons"));
    m_arena->setWindowTitle(tr("Draft arena"));
    m_lab->setWindowTitle(tr("Lossless lab"));
    m_theory->setWindowTitle(tr("Theory explorer"));
    m_quiz->setWindowTitle(tr("Quiz"));
    m_presenter->setStageTitles({tr("Round"), tr("Distributions"), tr("Lossless lab"), tr("Draft arena"),
                                 tr("Theory explorer"), tr("Quiz")});
    m_help->setWindowTitle(tr("User guide"));
    m_shortcuts->setWindowTitle(tr("Keyboard shortcuts"));
    if (m_shortcuts->isVisible())
        m_shortcuts->setEntries(shortcutEntries(*m_window->actions()));
    QList<LessonPanel::Entry> entries;
    for (const app::LessonFile &l : std::as_const(m_lessonFiles))
        entries << lessonEntry(l);
    m_lessons->setLessons(entries);
}

app::SessionFile ClassroomTools::currentSession() const
{
    app::SessionFile file;
    file.setup = m_session->setup();
    file.setup.decoding.recordDistributions = false;
    file.position.round = m_player->round() + 1;
    file.position.phase = phaseKey(m_player->phase());
    return file;
}

void ClassroomTools::openSession(const app::SessionFile &file)
{
    m_pendingPosition = file.position;
    m_window->startSession(file.setup);
}

void ClassroomTools::onRoundsAdded()
{
    if (m_theory->isVisible())
        updateMeasured(); // the session's point moves as rounds arrive
    if (!m_pendingPosition)
        return;
    const int have = m_session->history().size();
    if (have < m_pendingPosition->round) {
        m_session->playTo(m_pendingPosition->round); // with progress in the status line, up to the cap
        return;
    }
    const app::SessionPosition position = *m_pendingPosition;
    m_pendingPosition.reset();
    if (position.round > 0)
        m_player->jumpTo(position.round - 1, phaseFromKey(position.phase));
}

void ClassroomTools::saveSessionDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save session"), QString(),
                                                      tr("Sessions (*.specdec.json *.json)"));
    if (path.isEmpty())
        return;
    try {
        currentSession().save(path);
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Save session"), QString::fromStdString(e.what()));
    }
}

void ClassroomTools::openSessionDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), QString(),
                                                      tr("Sessions (*.specdec.json *.json)"));
    if (path.isEmpty())
        return;
    try {
        openSession(app::SessionFile::load(path));
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Open session"), QString::fromStdString(e.what()));
    }
}

void ClassroomTools::exportTraceDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export trace"), QString(),
                                                      tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty() || !m_session->info().vocabulary)
        return;
    std::vector<RoundTrace> traces;
    const RoundHistory &history = m_session->history();
    for (int i = history.first(); i < history.size(); ++i) // the rounds kept
        traces.push_back(history.at(i).trace);
    try {
        app::exportTraces(path, traces, *m_session->info().vocabulary);
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Export trace"), QString::fromStdString(e.what()));
    }
}

QList<QPair<QString, QCustomPlot *>> ClassroomTools::plots() const
{
    // Each plot by its window and its own title, as the user sees them.
    QList<QPair<QString, QCustomPlot *>> all;
    auto add = [&](const QString &window, QCustomPlot *plot) {
        const QCPTextElement *title = plotTitle(plot);
        const QString name = title && !title->text().isEmpty() ? title->text() : tr("plot %1").arg(all.size() + 1);
        all << qMakePair(QStringLiteral("%1 — %2").arg(window, name), plot);
    };
    for (int i = 0; i < 4; ++i)
        add(tr("Live plots"), m_window->plots()->plot(i));
    add(tr("Distributions"), m_window->distributionView()->plot());
    for (int i = 0; i < 3; ++i)
        add(tr("Draft arena"), m_arena->plot(i));
    for (int i = 0; i < 3; ++i)
        add(tr("Theory explorer"), m_theory->plot(i));
    add(tr("Lossless lab"), m_lab->plot());
    return all;
}

void ClassroomTools::exportPlotDialog()
{
    const auto all = plots();
    QStringList names;
    for (const auto &p : all)
        names << p.first;
    bool ok = false;
    const QString name = QInputDialog::getItem(m_window, tr("Export plot"), tr("Plot:"), names, 0, false, &ok);
    if (!ok)
        return;
    const QString filter = svgExportAvailable() ? tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)")
                                                : tr("PNG (*.png);;PDF (*.pdf)");
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export plot"), QString(), filter);
    if (path.isEmpty())
        return;
    const QString error = exportPlot(all[static_cast<int>(names.indexOf(name))].second, path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export plot"), error);
}

HandoutText ClassroomTools::handoutText() const
{
    HandoutText text;
    text.title = tr("Speculative decoding — round %1, %2 (%3 / %4)")
                     .arg(m_player->round() + 1)
                     .arg(phaseName(m_player->phase()), m_session->info().target, m_session->info().draft);
    const Setup &s = m_session->setup();
    const DecodingSettings &d = s.decoding;
    text.setup << tr("Corpus: %1").arg(QString::fromStdString(s.corpus)) << tr("Target: %1").arg(m_session->info().target)
               << tr("Draft: %1").arg(m_session->info().draft) << tr("K = %1").arg(d.draftLength)
               << tr("T = %1 (target), %2 (draft)").arg(d.target.temperature).arg(d.draft.temperature)
               << tr("Seed %1").arg(d.seed)
               << (s.prompt.empty() ? tr("No prompt: the text starts from nothing")
                                    : tr("Prompt: \"%1\"").arg(QString::fromStdString(s.prompt)));
    const int round = m_player->round();
    const auto &history = m_session->history();
    if (history.contains(round)) {
        // The numbers of the rounds played up to the one on screen, not of rounds played ahead.
        const RunMetrics &m = history.at(round).cumulative;
        auto n = [](double v) { return QString::number(v, 'f', 2); };
        text.numbers << tr("Rounds: %1, tokens: %2, target passes: %3").arg(m.rounds).arg(m.generatedTokens).arg(m.targetCalls)
                     << tr("α̂ = %1 (accepted %2 of %3 tested)").arg(n(m.acceptanceRate)).arg(m.accepted).arg(m.tested)
                     << tr("Tokens per round: %1 (theory E[N]: %2)").arg(n(m.tokensPerRound), n(m.expectedTokensPerRound))
                     << tr("Speedup in target passes: %1×").arg(n(m.speedupForwardPasses))
                     << tr("Speedup under the cost model (c = %1): %2×").arg(n(m.costRatio), n(m.speedupCostModel));
        if (m.speedupWallClock)
            text.numbers << tr("Wall-clock speedup: %1×").arg(n(*m.speedupWallClock));
    } else {
        text.numbers << tr("No round played yet.");
    }
    text.theoryHtml = m_window->theory()->toHtml();
    return text;
}

QString ClassroomTools::exportHandout(const QString &path) const
{
    return writeHandout(path, handoutText(), m_window->roundView(), m_window->distributionView());
}

void ClassroomTools::handoutDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export handout"), QString(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportHandout(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export handout"), error);
}

void ClassroomTools::labFromModels()
{
    const auto &history = m_session->history();
    const int round = m_player->round();
    if (!history.contains(round) || history.at(round).trace.positions.empty()
        || !m_session->info().vocabulary) {
        QMessageBox::information(m_lab, tr("Lossless lab"), tr("Play a round in the main window first."));
        return;
    }
    const DraftPosition &pos = history.at(round).trace.positions.front();
    const Eigen::VectorXd *pDist = &pos.pDist, *qDist = &pos.qDist;
    if (const TreeTrace *tree = history.at(round).tree.get()) // a tree round: p and q at the context (its root)
        for (const TreeExpansion &e : tree->expansions)
            if (e.node == -1) {
                pDist = &e.p;
                qDist = &e.q;
            }
    if (pDist->size() == 0 || qDist->size() != pDist->size())
        return;
    // The 9 tokens most likely under p or q, and the rest of the vocabulary as one "others" bar.
    const TopTokens top = topTokens({pDist, qDist}, 9);
    QVector<double> p(top.values[0].begin(), top.values[0].end());
    QVector<double> q(top.values[1].begin(), top.values[1].end());
    QStringList labels;
    for (TokenId t : top.tokens)
        labels << tokenGlyph(*m_session->info().vocabulary, t);
    if (p.back() > 1e-9 || q.back() > 1e-9) {
        labels << tr("others");
    } else {
        p.removeLast();
        q.removeLast();
    }
    m_lab->setDistributions(p, q, labels);
}

void ClassroomTools::updateMeasured()
{
    if (!m_arenaMeasured) { // no leftover lanes of an earlier lesson among "your runs"
        QVector<MeasuredPoint> points;
        if (!m_session->history().empty()) {
            const RunMetrics &m = m_session->history().back().cumulative;
            if (m.rounds > 0)
                points << MeasuredPoint{tr("session"), m.acceptanceRate, static_cast<double>(m.drafted) / m.rounds,
                                        m.costRatio, m.tokensPerRound, m.speedupCostModel};
        }
        m_theory->setMeasured(points);
        return;
    }
    QVector<MeasuredPoint> points;
    auto add = [&](const QString &label, const RunMetrics &m) {
        if (m.rounds == 0)
            return;
        points << MeasuredPoint{label, m.acceptanceRate, static_cast<double>(m.drafted) / m.rounds, m.costRatio,
                                m.tokensPerRound, m.speedupCostModel};
    };
    if (!m_session->history().empty())
        add(tr("session"), m_session->history().back().cumulative);
    for (int i = 0; i < m_arenaRunner->laneCount(); ++i)
        if (!m_arenaRunner->history(i).empty())
            add(m_arenaRunner->info().lanes.value(i), m_arenaRunner->history(i).back().cumulative);
    m_theory->setMeasured(points);
}

void ClassroomTools::present(QWidget *tool)
{
    if (m_presenter->isActive()) {
        for (int i = 0; m_presenter->stageWidget(i); ++i)
            if (m_presenter->stageWidget(i) == tool)
                m_presenter->showStage(i);
        return;
    }
    raiseToolWindow(tool);
}

void ClassroomTools::setPresenterMode(bool on)
{
    m_presenter->setActive(on);
    const QSignalBlocker block(m_presenterAction);
    m_presenterAction->setChecked(on);
    for (QAction *a : std::as_const(m_presenterActions))
        a->setEnabled(on);
}

void ClassroomTools::setPredictBeforeReveal(bool on)
{
    RevealOptions options = m_player->revealOptions();
    options.predictBeforeReveal = on;
    m_window->roundView()->cards()->setRevealOptions(options);
    m_player->setRevealOptions(options); // shows the position again with them
    m_lab->setPredictFirst(on);
    const QSignalBlocker block(m_predictAction);
    m_predictAction->setChecked(on);
}

bool ClassroomTools::predictBeforeReveal() const
{
    return m_player->revealOptions().predictBeforeReveal;
}

void ClassroomTools::playArena(int rounds)
{
    if (rounds <= 0)
        return;
    if (m_arenaRunner->isReady() && !m_arenaLoading) {
        m_arena->setBusy(true, tr("Playing…"));
        m_arenaRunner->step(false, rounds);
        return;
    }
    m_arenaAutoRounds = rounds; // played once the lanes are loaded
    if (!m_arenaLoading)
        emit m_arena->loadRequested(m_arena->laneLines()); // as if Load lanes were pressed
}

void ClassroomTools::showArena()
{
    present(m_arena);
}

void ClassroomTools::showLab()
{
    present(m_lab);
}

void ClassroomTools::showTheory()
{
    updateMeasured();
    present(m_theory);
}

void ClassroomTools::applyLesson(int index)
{
    if (index < 0 || index >= m_lessonFiles.size())
        return;
    m_lessons->setCurrentLesson(index);
    if (auto *dock = qobject_cast<QDockWidget *>(m_lessons->parentWidget())) {
        dock->show();
        // The explanation beside the run gets most of the left column; the timeline keeps the rest.
        m_window->resizeDocks({m_window->dock(MainWindow::Dock::Timeline), dock}, {2, 3}, Qt::Vertical);
    }
    m_showMeQuestion = -1;
    applyDemonstration(m_lessonFiles[index].demo);
}

QString ClassroomTools::openLessonFile(const QString &path)
{
    try {
        const app::LessonFile lesson = app::LessonFile::load(path);
        int index = -1;
        for (int i = 0; i < m_lessonFiles.size(); ++i)
            if (m_lessonFiles[i].id == lesson.id)
                index = i;
        if (index < 0) {
            m_lessonFiles << lesson;
            index = static_cast<int>(m_lessonFiles.size()) - 1;
        } else {
            m_lessonFiles[index] = lesson;
        }
        retranslate();
        applyLesson(index);
        return {};
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
}

void ClassroomTools::applyDemonstration(const app::Demonstration &original)
{
    const app::Demonstration demo = app::resolvedDemonstration(original, onnxModelFiles());
    if (demo.setup) {
        if (demo.rounds > 0)
            m_pendingPosition = app::SessionPosition{demo.rounds, demo.phase.isEmpty() ? QStringLiteral("commit") : demo.phase};
        m_window->startSession(*demo.setup);
    }
    m_arenaMeasured = demo.opens("arena");
    for (const QString &tool : demo.open) {
        if (tool == QLatin1String("arena")) {
            m_arena->setLaneLines(demo.arenaLanes);
            m_arena->setBusy(true, tr("Loading the target and %1 drafts…").arg(demo.arenaLanes.size()));
            m_arenaAutoRounds = m_showMeQuestion >= 0 ? 30 : 0;
            m_arenaLoading = true;
            m_arenaRunner->start(m_session->setup(), demo.arenaLanes);
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
    updateShowMeResult();
}

void ClassroomTools::showQuiz(int index)
{
    m_quiz->setQuestion(index);
    present(m_quiz);
}

void ClassroomTools::showMe(int index)
{
    if (index < 0 || index >= m_quiz->questionCount())
        return;
    m_showMeQuestion = index;
    m_quiz->setShowMeResult(QString());
    applyDemonstration(m_quiz->quiz().questions[index].showMe);
    if (!m_presenter->isActive())
        m_quiz->raise(); // the question stays in front of the demonstration
}

void ClassroomTools::updateShowMeResult()
{
    if (m_showMeQuestion < 0 || m_showMeQuestion != m_quiz->currentQuestion())
        return;
    const app::Demonstration &demo = m_quiz->quiz().questions[m_showMeQuestion].showMe;
    QStringList lines;
    auto number = [](double v) { return QString::number(v, 'f', 2); };
    if (demo.theory)
        lines << tr("Theory at α = %1, K = %2: E[N] = %3 tokens per round.")
                     .arg(number(m_theory->alpha()))
                     .arg(m_theory->k())
                     .arg(number(theory::expectedTokensPerRound(m_theory->alpha(), m_theory->k())));
    const int round = m_player->round();
    if (demo.opens("window") && m_session->history().contains(round)) {
        // The run up to the round on screen (the engine may have played ahead).
        const RunMetrics &m = m_session->history().at(round).cumulative;
        lines << tr("Measured run: %1 rounds, %2 tokens in %3 target passes, α̂ = %4, %5 tokens per round.")
                     .arg(m.rounds)
                     .arg(m.generatedTokens)
                     .arg(m.targetCalls)
                     .arg(number(m.acceptanceRate), number(m.tokensPerRound));
    }
    if (demo.opens("arena")) {
        for (int i = 0; i < m_arenaRunner->laneCount(); ++i)
            if (!m_arenaRunner->history(i).empty()) {
                const RunMetrics &m = m_arenaRunner->history(i).back().cumulative;
                lines << tr("%1: α̂ = %2, %3 tokens per target pass, c = %4.")
                             .arg(m_arenaRunner->info().lanes.value(i), number(m.acceptanceRate),
                                  number(m.speedupForwardPasses), number(m.costRatio));
            }
    }
    const LabSnapshot &lab = m_lab->snapshot();
    if (demo.lab && lab.finished && lab.samples > 0) {
        const QVector<double> p = m_lab->p(), q = m_lab->q();
        const QStringList labels = m_lab->labels();
        for (int x = 0; x < p.size() && x < static_cast<int>(lab.accepted.size()); ++x)
            if (!demo.lab->p.isEmpty() && q[x] > p[x]) { // the first token the draft over-proposes
                const double drafted = static_cast<double>(lab.samples) * q[x];
                lines << tr("Token %1: p = %2 < q = %3, so p/q = %4; accepted %5 times of ≈ %6 drafts = %7.")
                             .arg(labels.value(x), number(p[x]), number(q[x]), number(p[x] / q[x]))
                             .arg(lab.accepted[static_cast<std::size_t>(x)])
                             .arg(qRound64(drafted))
                             .arg(number(static_cast<double>(lab.accepted[static_cast<std::size_t>(x)]) / drafted));
                break;
            }
        lines << QTextDocumentFragment::fromHtml(m_lab->verdictText()).toPlainText();
    }
    m_quiz->setShowMeResult(lines.join(QLatin1Char('\n')));
}

void ClassroomTools::showUserGuide()
{
    m_help->showGuide();
    raiseToolWindow(m_help);
}

void ClassroomTools::showShortcuts()
{
    m_shortcuts->setEntries(shortcutEntries(*m_window->actions()));
    raiseToolWindow(m_shortcuts);
}

void ClassroomTools::resetLayoutAndSetup()
{
    QSettings settings;
    settings.remove(QStringLiteral("window"));
    settings.remove(QStringLiteral("setup"));
    for (QWidget *tool : {static_cast<QWidget *>(m_arena), static_cast<QWidget *>(m_lab), static_cast<QWidget *>(m_theory),
                          static_cast<QWidget *>(m_quiz), static_cast<QWidget *>(m_help), static_cast<QWidget *>(m_shortcuts)})
        tool->hide();
    m_window->restoreState(m_defaultState);
    m_arenaMeasured = false;
    m_window->startSession(defaultSetup());
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

QString ClassroomTools::exportQuizSheet(const QString &path) const
{
    return writeQuizSheet(path, m_quiz->quiz(), contentLanguage());
}

void ClassroomTools::quizSheetDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export quiz sheet"), QString(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportQuizSheet(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export quiz sheet"), error);
}

} // namespace specdec::gui
