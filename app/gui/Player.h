// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Player: the phase stepper. It holds the position shown (round, phase), steps it forward and back through
// the phases of each round, plays on a timer at the chosen pace, and asks the session for rounds it has
// not played yet. Going back or jumping replays stored traces only.
//
// With "predict before reveal" (RevealOptions::predictBeforeReveal) the Dice phase is stepped test by test:
// → first shows a test's p, q and min(1, p/q) with a '?', → again rolls u and reveals the verdict (the steps
// of RoundFrame.h). Playing pauses at each '?' so the room can answer; → (or Space) goes on.

#include "Phase.h"
#include "RoundFrame.h"

#include <QObject>
#include <QTimer>

namespace specdec::gui {

class SessionController;

class Player : public QObject
{
    Q_OBJECT
public:
    explicit Player(SessionController *session, QObject *parent = nullptr);

    int round() const { return m_round; } ///< -1 before the first round
    Phase phase() const;
    /// The step of the phase shown (RoundFrame.h): RoundFrame::kAllSteps except while predicting in Dice.
    int step() const { return m_step; }
    /// The furthest position shown since the last reset (Home, a new session): what the class has seen.
    /// Lists that show rounds already seen (timeline, plots) stop there; -1 before the first round. Stepping
    /// back inside that round takes it back too (← from Commit to Dice un-commits the round in the lists).
    int furthestRound() const { return m_furthestRound; }
    Phase furthestPhase() const;
    int furthestStep() const { return m_furthestStep; }
    /// How phases are revealed (predict before reveal); the position is shown again with the new options.
    void setRevealOptions(const RevealOptions &options);
    const RevealOptions &revealOptions() const { return m_options; }
    /// Whether there is a session to play (Space and the transport do nothing otherwise).
    bool canPlay() const;
    bool isPlaying() const { return m_playing; }
    /// Whether Home shows the first round kept rather than the prompt (rounds before it left the history).
    bool homeIsFirstKept() const;
    /// Milliseconds per phase; 0 = full speed (each round is shown committed as soon as it is played).
    void setPhaseMilliseconds(int milliseconds);
    int phaseMilliseconds() const { return m_phaseMs; }

public slots:
    void togglePlay();
    void play();
    void pause();
    void nextPhase();
    void previousPhase();
    void nextRound();
    /// Home: back to the prompt; once early rounds have left the history (a long session,
    /// RoundHistory::first() > 0), to the first round kept instead, from its first phase (homeIsFirstKept()).
    void reset();
    /// End: the newest round played, committed.
    void end();
    /// Shows round `round` from its first phase (or at `phase` when given and the round has it).
    void jumpTo(int round, std::optional<specdec::gui::Phase> phase = std::nullopt);

signals:
    /// The position to draw; `animate` is false for jumps and full-speed play.
    void positionChanged(int round, specdec::gui::Phase phase, bool animate);
    void playingChanged(bool playing);

private:
    void onSessionReady();
    void onRoundsAdded();
    void tick();
    void ensureAhead();
    void emitPosition(bool animate);
    std::vector<Phase> phasesOfRound(int round) const;
    /// The steps the phase shown is stepped in: 1 (the phase animates as a whole) or, predicting, Dice's.
    int stepsHere() const;
    /// Whether the position shown is a prediction: a test with its verdict still hidden.
    bool asking() const;

    SessionController *m_session;
    QTimer m_timer;
    int m_round = -1;
    int m_phaseIndex = 0;
    int m_phaseMs = 600;
    bool m_playing = false;
    int m_waiting = 0; ///< steps to the next round that wait for rounds still being played
    int m_furthestRound = -1;
    int m_furthestPhaseIndex = 0;
    int m_step = RoundFrame::kAllSteps;
    int m_furthestStep = RoundFrame::kAllSteps;
    RevealOptions m_options;
};

} // namespace specdec::gui
