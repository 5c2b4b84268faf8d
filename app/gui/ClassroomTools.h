// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ClassroomTools: the classroom's additions to the main window — the draft arena, the lossless lab, the
// theory explorer, the lessons dock, the quiz, the user guide and presenter mode — with their actions in the
// window's registry. It composes the pieces (ArenaTool, LessonLibrary, SessionFiles, ExportDialogs, ShowMe,
// ToolWindows, PredictBeforeReveal) and applies a Demonstration (a lesson's setup, a question's "Show me")
// across them. MainWindow stays as is.

#include "ArenaTool.h"
#include "ExportDialogs.h"
#include "LessonLibrary.h"
#include "PredictBeforeReveal.h"
#include "SessionFiles.h"
#include "ToolWindows.h"

#include <QObject>

#include <optional>

class QAction;
class QCustomPlot;
class QDockWidget;
class QMenu;

namespace specdec::gui {

class ArenaRunner;
class ArenaView;
class RaceRunner;
class RaceView;
class LabRunner;
class LessonPanel;
class LosslessLabView;
class MainWindow;
class Player;
class SessionController;
class ShowMe;
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
    LessonPanel *lessons() const { return m_lessons->panel(); }
    QuizView *quiz() const { return m_quiz; }
    /// The lessons loaded (shipped, then opened by the user), and the lines of the files that failed.
    const QList<app::LessonFile> &lessonFiles() const { return m_lessons->files(); }
    const QStringList &lessonErrors() const { return m_lessons->errors(); }
    ArenaRunner *arenaRunner() const { return m_arenaRunner; }
    LabRunner *labRunner() const { return m_labRunner; }

    /// The current session as a file's contents (setup, seed, position).
    app::SessionFile currentSession() const { return m_sessionFiles->current(); }
    /// Starts the session of `file` and moves to its position once its rounds are played.
    void openSession(const app::SessionFile &file) { m_sessionFiles->open(file); }
    /// Whether a demonstration sets the session it replaces aside (Back to my session): not for a lesson the
    /// program was started with (--lesson), which is the session.
    enum class Aside { Keep, None };
    /// Applies lesson `index` of lessonFiles(): its demonstration, and its first step in the lesson panel.
    void applyLesson(int index, Aside aside = Aside::Keep);
    /// Loads a lesson file, adds it to the list (replacing one with the same id) and applies it; returns
    /// an empty string or the file's one-line error.
    QString openLessonFile(const QString &path, Aside aside = Aside::Keep);
    /// The setup to the window (playing `rounds` rounds to `phase`), then arena / lab / theory as it says.
    void applyDemonstration(const app::Demonstration &demo, Aside aside = Aside::Keep);
    /// Opens the quiz at question `index` (0-based).
    void showQuiz(int index = 0);
    /// Runs question `index`'s demonstration; its measured result is written back into the quiz view.
    void showMe(int index);
    /// A question's "Show me" or a lesson replaced the session: the teacher's own (setup, seed, position) was
    /// set aside when the first demonstration started; Back to my session (Classroom menu, the banner, the
    /// quiz) starts it again at its position.
    bool hasSessionAside() const { return m_aside.has_value(); }
    void backToMySession();
    QAction *backAction() const { return m_back; }
    /// Help: the user guide inside the app, the list of shortcuts, and a reset of layout and setup.
    void showUserGuide();
    void showShortcuts();
    void resetLayoutAndSetup();
    HelpBrowser *help() const { return m_help; }
    /// Presenter mode (Classroom > Presenter mode, F5): scaled text, one stage at a time inside the window.
    PresenterMode *presenter() const { return m_presenter; }
    void setPresenterMode(bool on) { m_toolWindows->setPresenterMode(on); }
    /// Predict before reveal (View > Predict before reveal, P): each verdict of the dice waits for → (the
    /// card shows p, q and min(1, p/q) with a '?', then u is rolled), and the lab hides its histogram until
    /// revealed. For the room, not for grading: nothing the students guess is recorded.
    void setPredictBeforeReveal(bool on) { m_predict->setOn(on); }
    bool predictBeforeReveal() const { return m_predict->isOn(); }
    ShortcutList *shortcuts() const { return m_shortcuts; }

    /// The handout's texts for the round on screen: setup, the run's numbers so far, the theory panel.
    HandoutText handoutText() const { return m_exports->handoutText(); }
    QString exportHandout(const QString &path) const { return m_exports->exportHandout(path); }
    /// The quiz sheet (questions, then answers) as a PDF.
    QString exportQuizSheet(const QString &path) const { return m_exports->exportQuizSheet(path); }
    void showArena();
    /// The race: the target alone against speculative decoding on the session's setup (Classroom ▸ Race).
    void showRace();
    RaceView *race() const { return m_race; }
    RaceRunner *raceRunner() const { return m_raceRunner; }
    /// Plays `rounds` rounds in every arena lane: now when the lanes are loaded, once they are when they are
    /// loading, and after loading the editor's lanes (as Load lanes does) when none are.
    void playArena(int rounds) { m_arenaTool->play(rounds); }
    /// The arena's lanes are being loaded (a Load, a lesson or a demonstration started them).
    bool arenaLoading() const { return m_arenaTool->isLoading(); }
    void showLab();
    void showTheory();
    /// p and q of the current round's current card, over its most likely tokens, into the lab.
    void labFromModels();
    /// Every plot the tools and the window show, by a readable name.
    QList<QPair<QString, QCustomPlot *>> plots() const { return m_exports->plots(); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void createMenus();
    void retranslate();
    void openLessonDialog();
    void updateMeasured();

    MainWindow *m_window;
    SessionController *m_session;
    Player *m_player;
    ArenaRunner *m_arenaRunner;
    LabRunner *m_labRunner;
    ArenaView *m_arena;
    RaceRunner *m_raceRunner;
    RaceView *m_race;
    LosslessLabView *m_lab;
    TheoryExplorer *m_theory;
    QuizView *m_quiz;
    HelpBrowser *m_help;
    ShortcutList *m_shortcuts;
    PresenterMode *m_presenter;
    ToolWindows *m_toolWindows;
    LessonLibrary *m_lessons;
    ArenaTool *m_arenaTool;
    SessionFiles *m_sessionFiles;
    ExportDialogs *m_exports;
    ShowMe *m_showMe;
    PredictBeforeReveal *m_predict;
    QByteArray m_defaultState;               ///< the dock layout as built, for Reset layout
    std::optional<app::SessionFile> m_aside; ///< the teacher's session before the demonstrations
    QAction *m_back = nullptr;
};

} // namespace specdec::gui
