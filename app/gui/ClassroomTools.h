// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ClassroomTools: the classroom's additions to the main window — the draft arena, the lossless lab, the
// theory explorer, the lessons dock and the quiz, with their worker-thread runners; File menu actions to
// save and open sessions, open a lesson file, and export traces, plots, a one-page handout and the quiz
// sheet. Lessons and the quiz are files (app/core LessonFile, QuizFile); a lesson's setup and a question's
// "Show me" are the same Demonstration, applied by applyDemonstration. It adds menus; MainWindow stays as is.

#include "Exporter.h"
#include "LessonFile.h"
#include "QuizFile.h"
#include "SessionFile.h"

#include <QObject>

#include <optional>

class QAction;
class QCustomPlot;
class QDockWidget;
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
class QuizView;
class HelpBrowser;
class ShortcutList;
class PresenterMode;

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
    QuizView *quiz() const { return m_quiz; }
    /// The lessons loaded (shipped, then opened by the user), and the lines of the files that failed.
    const QList<app::LessonFile> &lessonFiles() const { return m_lessonFiles; }
    const QStringList &lessonErrors() const { return m_lessonErrors; }
    ArenaRunner *arenaRunner() const { return m_arenaRunner; }
    LabRunner *labRunner() const { return m_labRunner; }

    /// The current session as a file's contents (setup, seed, position).
    app::SessionFile currentSession() const;
    /// Starts the session of `file` and moves to its position once its rounds are played.
    void openSession(const app::SessionFile &file);
    /// Applies lesson `index` of lessonFiles(): its demonstration, and its first step in the lesson panel.
    void applyLesson(int index);
    /// Loads a lesson file, adds it to the list (replacing one with the same id) and applies it; returns
    /// an empty string or the file's one-line error.
    QString openLessonFile(const QString &path);
    /// The setup to the window (playing `rounds` rounds to `phase`), then arena / lab / theory as it says.
    void applyDemonstration(const app::Demonstration &demo);
    /// Opens the quiz at question `index` (0-based).
    void showQuiz(int index = 0);
    /// Runs question `index`'s demonstration; its measured result is written back into the quiz view.
    void showMe(int index);
    /// Help: the user guide inside the app, the list of shortcuts, and a reset of layout and setup.
    void showUserGuide();
    void showShortcuts();
    void resetLayoutAndSetup();
    HelpBrowser *help() const { return m_help; }
    /// Presenter mode (View > Presenter mode, F5): scaled text, one stage at a time inside the window.
    PresenterMode *presenter() const { return m_presenter; }
    void setPresenterMode(bool on);
    /// Predict before reveal (View > Predict before reveal, P): each verdict of the dice waits for → (the
    /// card shows p, q and min(1, p/q) with a '?', then u is rolled), and the lab hides its histogram until
    /// revealed. For the room, not for grading: nothing the students guess is recorded.
    void setPredictBeforeReveal(bool on);
    bool predictBeforeReveal() const;
    ShortcutList *shortcuts() const { return m_shortcuts; }

    /// The handout's texts for the round on screen: setup, the run's numbers so far, the theory panel.
    HandoutText handoutText() const;
    QString exportHandout(const QString &path) const;
    /// The quiz sheet (questions, then answers) as a PDF.
    QString exportQuizSheet(const QString &path) const;
    void showArena();
    /// Plays `rounds` rounds in every arena lane: now when the lanes are loaded, once they are when they are
    /// loading, and after loading the editor's lanes (as Load lanes does) when none are.
    void playArena(int rounds);
    /// The arena's lanes are being loaded (a Load, a lesson or a demonstration started them).
    bool arenaLoading() const { return m_arenaLoading; }
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
    void openLessonDialog();
    void quizSheetDialog();
    void updateShowMeResult();
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
    QuizView *m_quiz;
    HelpBrowser *m_help;
    ShortcutList *m_shortcuts;
    PresenterMode *m_presenter;
    QAction *m_presenterAction = nullptr;
    QAction *m_predictAction = nullptr;
    QList<QAction *> m_presenterActions; ///< Esc, zoom in, zoom out: only while presenting
    /// Shows `tool` as a floating tool window, or as its stage in presenter mode.
    void present(QWidget *tool);
    QByteArray m_defaultState; ///< the dock layout as built, for Reset layout
    QList<app::LessonFile> m_lessonFiles;
    QStringList m_lessonErrors;
    /// Arena lanes are "your runs" in the theory explorer only when the arena belongs to what is shown.
    bool m_arenaMeasured = false;
    int m_showMeQuestion = -1;  ///< the question whose demonstration is running
    int m_arenaAutoRounds = 0;  ///< rounds per lane a demonstration plays once the arena is loaded
    bool m_arenaLoading = false;
    QDockWidget *m_lessonsDock = nullptr;
    std::optional<app::SessionPosition> m_pendingPosition;
};

} // namespace specdec::gui
