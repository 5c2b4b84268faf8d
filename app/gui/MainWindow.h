// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MainWindow: composes the views around the session — setup bar and transport on top, the round view in
// the centre, distributions, theory, timeline and plots in docks — and wires user intent to the Player and
// the SessionController. It holds no decoding logic.

#include "Phase.h"

#include <QMainWindow>

namespace specdec {
struct Setup;
}

namespace specdec::gui {

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
    /// Starts a session from `setup` and shows it in the setup bar.
    void startSession(const Setup &setup);
    void restoreLayout();

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
    void openCorpus(const QString &path);
    void openModel(const QString &path);
    void updateStatus();

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
    QList<class QDockWidget *> m_docks;
    QList<class QToolBar *> m_toolBars;
    struct Menus;
    Menus *m_menus;
};

} // namespace specdec::gui
