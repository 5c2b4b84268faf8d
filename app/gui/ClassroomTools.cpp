// SPDX-License-Identifier: GPL-3.0-or-later
#include "ClassroomTools.h"

#include "AppPaths.h"
#include "ArenaRunner.h"
#include "ArenaView.h"
#include "DistributionView.h"
#include "Exporter.h"
#include "LabRunner.h"
#include "LessonPanel.h"
#include "Lessons.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "PlotsPanel.h"
#include "RoundView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"
#include "TokenText.h"
#include "TraceExport.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>

#include <numeric>

namespace specdec::gui {

namespace {

template <typename T>
T *toolWindow(T *widget, QWidget *parent, const QSize &size)
{
    widget->setParent(parent, Qt::Window);
    widget->resize(size);
    return widget;
}

/// Lessons name shipped models as "onnx:corpora/<corpus>/models/<file>"; this finds the installed file.
QString resolveModel(const QString &spec)
{
    const QString prefix = QStringLiteral("onnx:corpora/");
    if (!spec.startsWith(prefix))
        return spec;
    const QString tail = spec.mid(prefix.size());
    for (const QString &file : onnxModelFiles())
        if (file.endsWith(QLatin1Char('/') + tail))
            return QStringLiteral("onnx:") + file;
    return spec;
}

Lesson resolved(Lesson lesson)
{
    lesson.setup.target = resolveModel(QString::fromStdString(lesson.setup.target)).toStdString();
    lesson.setup.draft = resolveModel(QString::fromStdString(lesson.setup.draft)).toStdString();
    for (QString &lane : lesson.arenaLanes)
        lane = resolveModel(lane);
    return lesson;
}

} // namespace

ClassroomTools::ClassroomTools(MainWindow *window, SessionController *session, Player *player)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_player(player)
    , m_arenaRunner(new ArenaRunner(corpusCatalog(), this))
    , m_labRunner(new LabRunner(this))
    , m_arena(toolWindow(new ArenaView, window, {1200, 1100}))
    , m_lab(toolWindow(new LosslessLabView, window, {1000, 620}))
    , m_theory(toolWindow(new TheoryExplorer, window, {1100, 520}))
    , m_lessons(new LessonPanel)
{
    connectLab(m_lab, m_labRunner);
    connect(m_lab, &LosslessLabView::modelPresetRequested, this, &ClassroomTools::labFromModels);

    connect(m_arena, &ArenaView::loadRequested, this, [this](const QStringList &lines) {
        m_arena->setBusy(true, tr("Loading the target and %1 drafts…").arg(lines.size()));
        m_arenaRunner->start(m_session->setup(), lines);
    });
    connect(m_arena, &ArenaView::stepRequested, this, [this](bool aligned, int count) {
        m_arena->setBusy(true, tr("Playing…"));
        m_arenaRunner->step(aligned, count);
    });
    connect(m_arenaRunner, &ArenaRunner::ready, this, [this](const ArenaInfo &info) {
        m_arena->setLanes(info.lanes, info.session, info.baseline);
        m_arena->setBusy(false);
    });
    connect(m_arenaRunner, &ArenaRunner::roundsAdded, this, [this](int lane) {
        m_arena->showLane(lane, m_arenaRunner->history(lane));
    });
    connect(m_arenaRunner, &ArenaRunner::stepFinished, this, [this] {
        m_arena->setBusy(false, tr("Each lane: same target, prompt, seed and settings."));
        updateMeasured();
    });
    connect(m_arenaRunner, &ArenaRunner::failed, this, [this](const QString &message) {
        m_arena->setBusy(false, message);
    });

    auto *dock = new QDockWidget(window);
    dock->setObjectName(QStringLiteral("LessonsDock"));
    dock->setWidget(m_lessons);
    window->addDockWidget(Qt::LeftDockWidgetArea, dock);
    dock->hide();
    m_actions << dock->toggleViewAction();
    connect(m_lessons, &LessonPanel::applyRequested, this, &ClassroomTools::applyLesson);

    connect(m_session, &SessionController::roundsAdded, this, &ClassroomTools::onRoundsAdded);
    createMenus();
    retranslate();
    window->installEventFilter(this);
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
    QMenu *file = m_window->menuBar()->actions().isEmpty() ? nullptr : m_window->menuBar()->actions().first()->menu();
    QAction *before = file && !file->actions().isEmpty() ? file->actions().last() : nullptr;
    auto add = [&](QMenu *menu, QAction *at, auto slot) {
        auto *a = new QAction(menu);
        connect(a, &QAction::triggered, this, slot);
        menu->insertAction(at, a);
        m_actions << a;
        return a;
    };
    if (file) {
        add(file, before, &ClassroomTools::openSessionDialog)->setShortcut(QKeySequence::Open);
        add(file, before, &ClassroomTools::saveSessionDialog)->setShortcut(QKeySequence::Save);
        add(file, before, &ClassroomTools::exportTraceDialog);
        add(file, before, &ClassroomTools::exportPlotDialog);
        add(file, before, &ClassroomTools::handoutDialog);
        file->insertSeparator(before);
    }
    m_menu = m_window->menuBar()->addMenu(QString());
    add(m_menu, nullptr, &ClassroomTools::showArena);
    add(m_menu, nullptr, &ClassroomTools::showLab);
    add(m_menu, nullptr, &ClassroomTools::showTheory);
    m_menu->addAction(m_actions.first()); // the lessons dock
}

void ClassroomTools::retranslate()
{
    const QStringList names{tr("Lessons"),           tr("&Open session…"),     tr("&Save session…"),
                            tr("Export trace…"),     tr("Export plot…"),       tr("Export handout (PDF)…"),
                            tr("Draft arena"),       tr("Lossless lab"),       tr("Theory explorer")};
    for (int i = 0; i < m_actions.size() && i < names.size(); ++i)
        m_actions[i]->setText(names[i]);
    if (m_menu)
        m_menu->setTitle(tr("&Classroom"));
    if (auto *dock = qobject_cast<QDockWidget *>(m_lessons->parentWidget()))
        dock->setWindowTitle(tr("Lessons"));
    m_arena->setWindowTitle(tr("Draft arena"));
    m_lab->setWindowTitle(tr("Lossless lab"));
    m_theory->setWindowTitle(tr("Theory explorer"));
    QList<LessonPanel::Entry> entries;
    for (const Lesson &l : allLessons())
        entries << LessonPanel::Entry{l.title, l.html()};
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
        if (m_session->pendingRounds() == 0)
            m_session->requestRounds(m_pendingPosition->round - have);
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
    for (int i = 0; i < history.size(); ++i)
        traces.push_back(history.at(i).trace);
    try {
        app::exportTraces(path, traces, *m_session->info().vocabulary);
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Export trace"), QString::fromStdString(e.what()));
    }
}

QList<QPair<QString, QCustomPlot *>> ClassroomTools::plots() const
{
    QList<QPair<QString, QCustomPlot *>> all;
    for (int i = 0; i < 4; ++i)
        all << qMakePair(tr("Window plot %1").arg(i + 1), m_window->plots()->plot(i));
    all << qMakePair(tr("Distribution view"), m_window->distributionView()->plot());
    for (int i = 0; i < 3; ++i)
        all << qMakePair(tr("Arena plot %1").arg(i + 1), m_arena->plot(i));
    for (int i = 0; i < 3; ++i)
        all << qMakePair(tr("Theory explorer plot %1").arg(i + 1), m_theory->plot(i));
    all << qMakePair(tr("Lossless lab histogram"), m_lab->plot());
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

void ClassroomTools::handoutDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export handout"), QString(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString title = tr("Speculative decoding — round %1, %2 (%3 / %4)")
                              .arg(m_player->round() + 1)
                              .arg(phaseName(m_player->phase()), m_session->info().target, m_session->info().draft);
    const QString error = writeHandout(path, title, m_window->roundView(), m_window->distributionView(),
                                       m_window->theory()->toHtml());
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
    if (pos.pDist.size() == 0 || pos.qDist.size() != pos.pDist.size())
        return;
    // The 9 tokens most likely under p or q, and the rest of the vocabulary as one "others" bar.
    std::vector<int> order(static_cast<std::size_t>(pos.pDist.size()));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + std::min<std::ptrdiff_t>(9, pos.pDist.size()), order.end(),
                      [&](int a, int b) { return pos.pDist[a] + pos.qDist[a] > pos.pDist[b] + pos.qDist[b]; });
    QVector<double> p, q;
    QStringList labels;
    for (int i = 0; i < std::min<int>(9, static_cast<int>(order.size())); ++i) {
        const int t = order[static_cast<std::size_t>(i)];
        p << pos.pDist[t];
        q << pos.qDist[t];
        labels << tokenGlyph(*m_session->info().vocabulary, t);
    }
    const double restP = 1.0 - std::accumulate(p.begin(), p.end(), 0.0);
    const double restQ = 1.0 - std::accumulate(q.begin(), q.end(), 0.0);
    if (restP > 1e-9 || restQ > 1e-9) {
        p << std::max(0.0, restP);
        q << std::max(0.0, restQ);
        labels << tr("others");
    }
    m_lab->setDistributions(p, q, labels);
}

void ClassroomTools::updateMeasured()
{
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

void ClassroomTools::showArena()
{
    m_arena->show();
    m_arena->raise();
}

void ClassroomTools::showLab()
{
    m_lab->show();
    m_lab->raise();
}

void ClassroomTools::showTheory()
{
    updateMeasured();
    m_theory->show();
    m_theory->raise();
}

void ClassroomTools::applyLesson(int index)
{
    const QList<Lesson> all = allLessons();
    if (index < 0 || index >= all.size())
        return;
    const Lesson lesson = resolved(all[index]);
    m_lessons->setCurrentLesson(index);
    if (auto *dock = qobject_cast<QDockWidget *>(m_lessons->parentWidget())) {
        dock->show();
        // The explanation beside the run gets most of the left column; the timeline keeps the rest.
        if (auto *timeline = m_window->findChild<QDockWidget *>(QStringLiteral("TimelineDock")))
            m_window->resizeDocks({timeline, dock}, {2, 3}, Qt::Vertical);
    }
    m_window->startSession(lesson.setup);
    if (!lesson.arenaLanes.isEmpty()) {
        m_arena->setLaneLines(lesson.arenaLanes);
        m_arena->setBusy(true, tr("Loading the target and %1 drafts…").arg(lesson.arenaLanes.size()));
        m_arenaRunner->start(m_session->setup(), lesson.arenaLanes);
        showArena();
    }
    if (lesson.lab) {
        m_lab->setVariant(Variant::Correct);
        showLab();
    }
    if (lesson.theory) {
        m_theory->setAlpha((*lesson.theory)[0]);
        m_theory->setK(static_cast<int>((*lesson.theory)[1]));
        m_theory->setC((*lesson.theory)[2]);
        showTheory();
    }
}

} // namespace specdec::gui
