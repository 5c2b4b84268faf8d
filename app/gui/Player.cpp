// SPDX-License-Identifier: GPL-3.0-or-later
#include "Player.h"

#include "SessionController.h"

#include <tuple>

namespace specdec::gui {

Player::Player(SessionController *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &Player::tick);
    connect(session, &SessionController::ready, this, &Player::onSessionReady);
    connect(session, &SessionController::roundsAdded, this, &Player::onRoundsAdded);
    connect(session, &SessionController::loading, this, [this] {
        m_round = -1;
        m_phaseIndex = 0;
        m_furthestRound = -1;
        m_furthestPhaseIndex = 0;
        m_step = m_furthestStep = RoundFrame::kAllSteps;
        m_waiting = 0;
        m_timer.stop();
    });
    connect(session, &SessionController::capReached, this, [this] {
        m_waiting = 0;
        pause(); // no more rounds come
    });
    connect(session, &SessionController::failed, this, [this] {
        m_waiting = 0;
        pause();
    });
}

Phase Player::phase() const
{
    const auto phases = phasesOfRound(m_round);
    return phases.empty() ? Phase::Draft : phases[static_cast<std::size_t>(m_phaseIndex)];
}

Phase Player::furthestPhase() const
{
    const auto phases = phasesOfRound(m_furthestRound);
    return phases.empty() ? Phase::Draft : phases[static_cast<std::size_t>(m_furthestPhaseIndex)];
}

bool Player::canPlay() const
{
    return m_session->isReady();
}

std::vector<Phase> Player::phasesOfRound(int round) const
{
    const RoundHistory &h = m_session->history();
    if (!h.contains(round))
        return {};
    return phasesOf(h.at(round).trace);
}

int Player::stepsHere() const
{
    if (!m_options.predictBeforeReveal || phase() != Phase::Dice || !m_session->history().contains(m_round)
        || m_session->history().at(m_round).tree) // a token tree's dice are shown as a whole (TreeView)
        return 1;
    return stepsOf(m_session->history().at(m_round).trace, Phase::Dice, m_options);
}

bool Player::asking() const
{
    return stepsHere() > 1 && m_step % 2 == 1; // steps 1, 3, …: a test shown, its verdict not yet
}

void Player::setRevealOptions(const RevealOptions &options)
{
    m_options = options;
    // What is on screen stays revealed: predicting starts with the next test that has not been shown.
    m_step = stepsHere() > 1 ? stepsHere() : RoundFrame::kAllSteps;
    if (m_round >= 0)
        emitPosition(false);
}

void Player::setPhaseMilliseconds(int milliseconds)
{
    m_phaseMs = milliseconds;
    if (m_playing) {
        m_timer.stop();
        tick();
    }
}

void Player::togglePlay()
{
    m_playing ? pause() : play();
}

void Player::play()
{
    if (m_playing || !canPlay())
        return;
    m_playing = true;
    emit playingChanged(true);
    tick();
}

void Player::pause()
{
    m_timer.stop();
    if (!m_playing)
        return;
    m_playing = false;
    emit playingChanged(false);
}

void Player::tick()
{
    if (!m_playing)
        return;
    if (m_phaseMs == 0) {
        // Full speed: show the newest round committed; ask for more as soon as the last batch is in.
        const int last = m_session->history().size() - 1;
        if (last > m_round)
            jumpTo(last, Phase::Commit);
        if (m_session->pendingRounds() < 32)
            m_session->requestRounds(64);
        return;
    }
    nextPhase();
    if (asking())
        pause(); // the room predicts; → reveals, Space plays on
    if (m_playing && !m_waiting)
        m_timer.start(m_phaseMs);
}

void Player::nextPhase()
{
    if (!canPlay())
        return;
    if (m_round >= 0 && m_step < stepsHere()) { // the next test, or its verdict
        ++m_step;
        emitPosition(true);
        return;
    }
    const auto phases = phasesOfRound(m_round);
    if (m_round >= 0 && m_phaseIndex + 1 < static_cast<int>(phases.size())) {
        ++m_phaseIndex;
        m_step = stepsHere() > 1 ? 1 : RoundFrame::kAllSteps;
        emitPosition(true);
        return;
    }
    nextRound();
}

void Player::previousPhase()
{
    if (m_round < 0)
        return;
    if (stepsHere() > 1 && m_step > 1) {
        --m_step;
    } else if (m_phaseIndex > 0) {
        --m_phaseIndex;
        m_step = stepsHere() > 1 ? stepsHere() : RoundFrame::kAllSteps;
    } else if (m_round > m_session->history().first()) {
        --m_round;
        m_phaseIndex = static_cast<int>(phasesOfRound(m_round).size()) - 1;
        m_step = RoundFrame::kAllSteps;
    } else {
        return;
    }
    if (m_round == m_furthestRound) {        // back inside the newest round seen: the lists go back with it (the
        m_furthestPhaseIndex = m_phaseIndex; // timeline and the plots no longer show what ← took off screen)
        m_furthestStep = m_step;
    }
    emitPosition(false);
}

void Player::nextRound()
{
    if (!canPlay())
        return;
    // After Home in a long session the first rounds may be gone (RoundHistory::first()): the oldest kept.
    const int next = std::max(m_round + 1, m_session->history().first());
    if (next < m_session->history().size()) {
        m_round = next;
        m_phaseIndex = 0;
        m_step = RoundFrame::kAllSteps;
        emitPosition(true);
        ensureAhead();
        return;
    }
    ++m_waiting; // shown when the round arrives
    ensureAhead();
}

bool Player::homeIsFirstKept() const
{
    const RoundHistory &h = m_session->history();
    return h.first() > 0 && h.contains(h.first());
}

void Player::reset()
{
    pause();
    // The rounds before first() can no longer be replayed: Home starts from the oldest one kept.
    m_round = homeIsFirstKept() ? m_session->history().first() : -1;
    m_phaseIndex = 0;
    m_furthestRound = m_round;
    m_furthestPhaseIndex = 0;
    m_step = m_furthestStep = RoundFrame::kAllSteps;
    m_waiting = 0;
    emitPosition(false);
}

void Player::end()
{
    pause();
    if (!m_session->history().empty())
        jumpTo(m_session->history().size() - 1, Phase::Commit);
}

void Player::jumpTo(int round, std::optional<Phase> phase)
{
    const auto phases = phasesOfRound(round);
    if (phases.empty())
        return;
    m_waiting = 0;
    m_round = round;
    m_phaseIndex = 0;
    if (phase) {
        const auto it = std::find(phases.begin(), phases.end(), *phase);
        if (it != phases.end())
            m_phaseIndex = static_cast<int>(it - phases.begin());
    }
    m_step = stepsHere() > 1 ? stepsHere() : RoundFrame::kAllSteps; // a jump shows the whole phase
    emitPosition(false);
}

void Player::ensureAhead()
{
    // Keep one round ready beyond the one shown, so stepping never waits on the engine when it can help it.
    const int want = m_round + m_waiting + 3;
    const int have = m_session->history().size() + m_session->pendingRounds();
    if (have < want)
        m_session->requestRounds(want - have);
}

void Player::onSessionReady()
{
    m_round = -1;
    m_phaseIndex = 0;
    m_furthestRound = -1;
    m_furthestPhaseIndex = 0;
    m_step = m_furthestStep = RoundFrame::kAllSteps;
    emitPosition(false);
    ensureAhead();
    if (m_playing)
        tick();
}

void Player::onRoundsAdded()
{
    // The round on screen left the history while rounds played ahead came in (a long session): the position
    // moves to the oldest round kept, so every step reads rounds that are there.
    const RoundHistory &h = m_session->history();
    if (m_round >= 0 && m_round < h.first()) {
        m_round = h.first();
        m_phaseIndex = 0;
        m_step = RoundFrame::kAllSteps;
        if (m_furthestRound < m_round) {
            m_furthestRound = m_round;
            m_furthestPhaseIndex = 0;
            m_furthestStep = m_step;
        }
        emitPosition(false);
    }
    if (m_phaseMs == 0 && m_playing) {
        tick();
        return;
    }
    if (m_waiting > 0) {
        const int steps = m_waiting;
        m_waiting = 0;
        for (int i = 0; i < steps; ++i)
            nextRound();
        if (m_playing && m_waiting == 0)
            m_timer.start(m_phaseMs);
    }
}

void Player::emitPosition(bool animate)
{
    if (std::tie(m_round, m_phaseIndex, m_step) > std::tie(m_furthestRound, m_furthestPhaseIndex, m_furthestStep)) {
        m_furthestRound = m_round;
        m_furthestPhaseIndex = m_phaseIndex;
        m_furthestStep = m_step;
    }
    emit positionChanged(m_round, phase(), animate && m_phaseMs > 0);
}

} // namespace specdec::gui
