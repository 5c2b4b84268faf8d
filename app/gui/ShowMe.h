// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ShowMe: a quiz question's "Show me" while its demonstration runs — what the run measured, written under
// the question as it comes in: the theory's E[N], the run up to the round on screen, each arena lane, and the
// lab's first over-proposed token (accepted p/q of its drafts) with the lab's verdict.

#include <QObject>

namespace specdec::gui {

class ArenaRunner;
class LosslessLabView;
class Player;
class QuizView;
class SessionController;
class TheoryExplorer;

class ShowMe : public QObject
{
    Q_OBJECT
public:
    /// The views and runs a demonstration's result is read from.
    struct Sources
    {
        const SessionController *session;
        const Player *player;
        const ArenaRunner *arena;
        const LosslessLabView *lab;
        const TheoryExplorer *theory;
    };
    ShowMe(QuizView *quiz, Sources sources, QObject *parent = nullptr);

    /// Question `index`'s demonstration starts: its result so far is cleared.
    void begin(int index);
    /// The demonstrations that follow are no question's (a lesson's).
    void end() { m_question = -1; }
    /// The question whose demonstration is running; -1: none.
    int question() const { return m_question; }
    /// Writes the result of the running question's demonstration into the quiz, when that question is shown.
    void update();

private:
    QuizView *m_quiz;
    Sources m_sources;
    int m_question = -1;
};

} // namespace specdec::gui
