// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaTool.h"

#include "ArenaRunner.h"
#include "ArenaView.h"
#include "SessionController.h"

#include <utility>

namespace specdec::gui {

ArenaTool::ArenaTool(ArenaView *view, ArenaRunner *runner, const SessionController *session, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_runner(runner)
    , m_session(session)
{
    connect(m_view, &ArenaView::loadRequested, this, [this](const QStringList &lines) {
        m_measured = true;
        start(lines);
    });
    connect(m_view, &ArenaView::stepRequested, this, [this](bool aligned, int count) {
        m_view->setBusy(true, tr("Playing…"));
        m_runner->step(aligned, count);
    });
    connect(m_runner, &ArenaRunner::loadProgressed, this, [this](double fraction) {
        if (m_loading)
            m_view->setBusy(
                true,
                tr("Loading the target and %1 drafts … %2 %").arg(m_loadingLanes).arg(static_cast<int>(fraction * 100.0)));
    });
    connect(m_runner, &ArenaRunner::ready, this, [this](const ArenaInfo &info) {
        m_loading = false;
        m_view->setLanes(info.lanes, info.session, info.baseline);
        m_view->setBusy(false);
        if (m_autoRounds > 0) { // a demonstration plays the lanes itself
            m_view->setBusy(true, tr("Playing…"));
            m_runner->step(false, std::exchange(m_autoRounds, 0));
        }
    });
    connect(m_runner, &ArenaRunner::roundsAdded, this,
            [this](int lane) { m_view->showLane(lane, m_runner->history(lane)); });
    connect(m_runner, &ArenaRunner::stepFinished, this, [this] {
        m_view->setBusy(false, tr("Each lane: same target, prompt, seed and settings."));
        emit stepFinished();
    });
    connect(m_runner, &ArenaRunner::failed, this, [this](const QString &message) {
        m_loading = false;
        m_autoRounds = 0;
        m_view->setBusy(false, message);
    });
}

void ArenaTool::start(const QStringList &lanes)
{
    m_loading = true;
    m_loadingLanes = static_cast<int>(lanes.size());
    m_view->setBusy(true, tr("Loading the target and %1 drafts…").arg(lanes.size()));
    m_runner->start(m_session->setup(), lanes);
}

void ArenaTool::load(const QStringList &lanes, int rounds)
{
    m_view->setLaneLines(lanes);
    m_autoRounds = rounds;
    start(lanes);
}

void ArenaTool::play(int rounds)
{
    if (rounds <= 0)
        return;
    if (m_runner->isReady() && !m_loading) {
        m_view->setBusy(true, tr("Playing…"));
        m_runner->step(false, rounds);
        return;
    }
    m_autoRounds = rounds; // played once the lanes are loaded
    if (!m_loading)
        emit m_view->loadRequested(m_view->laneLines()); // as if Load lanes were pressed
}

} // namespace specdec::gui
