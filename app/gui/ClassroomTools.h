// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ClassroomTools: the classroom's additions to the main window — the draft arena, the lossless lab, the
// theory explorer and the lessons dock, with their worker-thread runners; File menu actions to save and
// open sessions and to export traces, plots and a one-page handout. It adds menus; MainWindow stays as is.

#include "SessionFile.h"

#include <QObject>

#include <optional>

class QAction;
class QCustomPlot;
class QMenu;

namespace specdec::gui {

class ArenaRunner;
class ArenaView;
class LabRunner;
class LessonPanel;
class LosslessLabView;
class MainWindow;
class Player;
class SessionController;
class TheoryExplorer;

class ClassroomTools : public QObject
{
    Q_OBJECT
public:
    ClassroomTools(MainWindow *window, SessionController *session, Player *player);
    ~ClassroomTools() override;

    ArenaView *arena() const { return m_arena; }
    LosslessLabView *lab() const { return m_lab; }
    TheoryExplorer *theoryExplorer() const { return m_theory; }
    LessonPanel *lessons() const { return m_lessons; }
    ArenaRunner *arenaRunner() const { return m_arenaRunner; }

    /// The current session as a file's contents (setup, seed, position).
    app::SessionFile currentSession() const;
    /// Starts the session of `file` and moves to its position once its rounds are played.
    void openSession(const app::SessionFile &file);
    /// Applies lesson `index` of lessons(): the setup to the window, then arena / lab / theory as it says.
    void applyLesson(int index);
    void showArena();
    void showLab();
    void showTheory();
    /// p and q of the current round's current card, over its most likely tokens, into the lab.
    void labFromModels();
    /// Every plot the tools and the window show, by a readable name.
    QList<QPair<QString, QCustomPlot *>> plots() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createMenus();
    void retranslate();
    void saveSessionDialog();
    void openSessionDialog();
    void exportTraceDialog();
    void exportPlotDialog();
    void handoutDialog();
    void updateMeasured();
    void onRoundsAdded();

    MainWindow *m_window;
    SessionController *m_session;
    Player *m_player;
    ArenaRunner *m_arenaRunner;
    LabRunner *m_labRunner;
    ArenaView *m_arena;
    LosslessLabView *m_lab;
    TheoryExplorer *m_theory;
    LessonPanel *m_lessons;
    QMenu *m_menu = nullptr;
    QList<QAction *> m_actions;
    std::optional<app::SessionPosition> m_pendingPosition;
};

} // namespace specdec::gui
