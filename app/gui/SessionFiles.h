// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionFiles: the session as a file (File ▸ Save / Open session) — the current setup, seed and position
// written, and an opened file's session started and moved to its position once its rounds are played (or to
// the last round played when the position lies beyond the cap).

#include "SessionFile.h"

#include <QObject>

#include <optional>

namespace specdec::gui {

class ActionRegistry;
class MainWindow;
class Player;
class SessionController;

class SessionFiles : public QObject
{
    Q_OBJECT
public:
    SessionFiles(MainWindow *window, SessionController *session, Player *player, QObject *parent = nullptr);

    /// The current session as a file's contents (setup, seed, position).
    app::SessionFile current() const;
    /// Starts the session of `file` and moves to its position once its rounds are played.
    void open(const app::SessionFile &file);
    /// Moves to `position` once the session started next has played its rounds.
    void goToWhenPlayed(const app::SessionPosition &position) { m_pending = position; }

    void saveDialog();
    void openDialog();
    /// Declares File ▸ Open session (Ctrl+Shift+O: Ctrl+O opens a corpus) and Save session (Ctrl+S).
    void addActions(ActionRegistry &registry);

private:
    void onReady();
    void onRoundsAdded();
    void onCapReached();

    MainWindow *m_window;
    SessionController *m_session;
    Player *m_player;
    std::optional<app::SessionPosition> m_pending;
};

} // namespace specdec::gui
