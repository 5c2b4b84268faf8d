// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PredictBeforeReveal: View ▸ Predict before reveal (P) — each verdict of the dice waits for → (the card shows
// p, q and min(1, p/q) with a '?', then u is rolled), and the lab hides its histogram until revealed. For the
// room, not for grading: nothing the students guess is recorded.

#include <QObject>

class QAction;

namespace specdec::gui {

class ActionRegistry;
class LosslessLabView;
class MainWindow;
class Player;

class PredictBeforeReveal : public QObject
{
    Q_OBJECT
public:
    PredictBeforeReveal(MainWindow *window, Player *player, LosslessLabView *lab, QObject *parent = nullptr);

    void setOn(bool on);
    bool isOn() const;
    /// Declares View ▸ Predict before reveal (P), checked while it is on.
    void addAction(ActionRegistry &registry);

private:
    MainWindow *m_window;
    Player *m_player;
    LosslessLabView *m_lab;
    QAction *m_action = nullptr;
};

} // namespace specdec::gui
