// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MainWindow: composes the views around the session — setup bar and transport on top, the round view in
// the centre, distributions, theory, timeline and plots in docks — and wires user intent to the Player and
// the SessionController. It holds no decoding logic.

#include "Phase.h"

#include <QMainWindow>

#include <string>

class QDockWidget;

namespace specdec {
struct Setup;
}

namespace specdec::gui {

class ActionRegistry;
class ClassroomTools;
class DistributionView;
class Language;
class MessageBanner;
class Player;
class PlotsPanel;
class RoundView;
class SessionController;
class SetupBar;
class TheoryPanel;
class Timeline;
class TransportBar;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(SessionController *session, Player *player, Language *language, QWidget *parent = nullptr);

    RoundView *roundView() const { return m_roundView; }
    DistributionView *distributionView() const { return m_distribution; }
    PlotsPanel *plots() const { return m_plots; }
    TheoryPanel *theory() const { return m_theory; }
    Timeline *timeline() const { return m_timeline; }
    SetupBar *setupBar() const { return m_setupBar; }
    MessageBanner *banner() const { return m_banner; }
    /// The arena, lossless lab, theory explorer, lessons, and the File menu's save / open / export.
    ClassroomTools *classroom() const { return m_classroom; }
    /// Every action of the window and its tools: ids, texts, shortcuts, menus.
    ActionRegistry *actions() const { return m_actions; }
    enum class Dock { Timeline, Distributions, Theory, Plots };
    QDockWidget *dock(Dock which) const { return m_docks[static_cast<int>(which)]; }
    TransportBar *transport() const { return m_transport; }
    /// Asks for a corpus file and opens it (File ▸ Open corpus…, Ctrl+O).
    void openCorpusDialog();
    /// Asks for a tokenizer.json (the setup bar's "tokenizer.json…") and puts it in the setup bar.
    void chooseTokenizerDialog();
    /// Opens the corpus file `path` (the dialog's choice, a file dropped on the window) with the setup bar's
    /// settings; the prompt stays where the corpus can write it, else the corpus's first line is the prompt;
    /// ONNX models are replaced by n-gram models of the text (and the banner says why).
    void openCorpus(const QString &path);
    /// What a model opened from a file or folder becomes.
    enum class ModelRole { Ask, Target, Draft };
    /// Uses the Hugging Face model folder `dir` (File ▸ Open model folder…, a folder dropped on the window) as the
    /// target or draft (`hf:` + dir; Ask: a question says which); its tokenizer.json becomes the setup's tokenizer
    /// (startSession), and the session plays on while the folder loads.
    void openModelFolder(const QString &dir, ModelRole role = ModelRole::Ask);
    /// Starts a session from `setup` and shows it in the setup bar. Another tokenizer than the session's loads
    /// behind it (SessionController::Start::KeepUntilLoaded): a file that fails leaves the session, its error in the
    /// banner.
    void startSession(const Setup &setup);
    /// Restores the saved geometry and docks; returns false when nothing was saved (the default layout stays).
    bool restoreLayout();
    /// Arranges the docks for a window of `size`: below 1500×900 (a 1280×720 projector) the distributions,
    /// theory and live plots share the right column as tabs, so the round keeps the height; above, the
    /// plots run along the bottom. Then resizes the window to `size`.
    void arrangeFor(const QSize &size);
    bool isCompact() const { return m_compact; }
    /// The rounds the position on screen has committed (its frame's roundsRevealed): the theory panel's numbers
    /// are those of round roundsRevealed() − 1, and so are the handout's.
    int roundsRevealed() const;
    /// An error the window or an engine job did not expect (an exception caught at the event loop or at the
    /// engine's door): said in the banner; the session and its position stay.
    void reportError(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createDocks();
    void createMenus();
    void retranslate();
    void connectSession();
    void showPosition(int round, Phase phase, bool animate);
    void showCard(int card);
    void showTreeNode(int node);
    void openModel(const QString &path);
    void useModel(const std::string &spec, const QString &title, ModelRole role);
    void updateStatus();
    /// Brings the panels beside the round view (timeline, distributions, theory, plots) to the position on
    /// screen: all of them, or at full speed only the next one whose turn it is (isStreaming()).
    void revealViews();
    /// Full-speed play: rounds arrive faster than a screen refreshes, so each frame shows the newest round in
    /// the round view and status line and gives one other visible panel its turn (a chart, the timeline, the
    /// distributions or the theory), so a frame costs the round view plus one panel; each panel still follows
    /// several times a second. Pausing or any step brings every panel up to date at once.
    bool isStreaming() const;
    void revealPanel(int panel);
    void showDistributions();

    SessionController *m_session;
    Player *m_player;
    Language *m_language;
    SetupBar *m_setupBar;
    TransportBar *m_transport;
    MessageBanner *m_banner;
    RoundView *m_roundView;
    DistributionView *m_distribution;
    PlotsPanel *m_plots;
    TheoryPanel *m_theory;
    Timeline *m_timeline;
    ClassroomTools *m_classroom = nullptr;
    QList<QDockWidget *> m_docks;
    QList<class QToolBar *> m_toolBars;
    ActionRegistry *m_actions = nullptr;
    bool m_compact = false;
    int m_nextPanel = 0;    ///< whose turn it is while streaming
    int m_chartsDrawn = 0;  ///< charts drawn in the plots' current turn
    QString m_loadedCorpus; ///< the corpus of the last session that loaded (empty: none yet)
    QString m_loadedPrompt; ///< and its prompt
    /// A note for the banner when the session of this target is ready (a folder's sampling, useModel): the banner
    /// hides while a session loads.
    QString m_noteWhenReady;
    std::string m_noteWhenReadyTarget;
};

} // namespace specdec::gui
