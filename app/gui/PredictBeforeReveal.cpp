// SPDX-License-Identifier: GPL-3.0-or-later
#include "PredictBeforeReveal.h"

#include "ActionRegistry.h"
#include "CardStrip.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "RoundView.h"

#include <QAction>

namespace specdec::gui {

PredictBeforeReveal::PredictBeforeReveal(MainWindow *window, Player *player, LosslessLabView *lab, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_player(player)
    , m_lab(lab)
{
}

void PredictBeforeReveal::setOn(bool on)
{
    RevealOptions options = m_player->revealOptions();
    options.predictBeforeReveal = on;
    m_window->roundView()->cards()->setRevealOptions(options);
    m_player->setRevealOptions(options); // shows the position again with them
    m_lab->setPredictFirst(on);
    const QSignalBlocker block(m_action);
    m_action->setChecked(on);
}

bool PredictBeforeReveal::isOn() const
{
    return m_player->revealOptions().predictBeforeReveal;
}

void PredictBeforeReveal::addAction(ActionRegistry &r)
{
    m_action = r.add(
        QStringLiteral("view.predict"), MenuId::View, 8, [] { return tr("Predict before &reveal"); },
        QKeySequence(Qt::Key_P));
    m_action->setCheckable(true);
    connect(m_action, &QAction::toggled, this, &PredictBeforeReveal::setOn);
}

} // namespace specdec::gui
