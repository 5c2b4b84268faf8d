// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionFiles.h"

#include "ActionRegistry.h"
#include "MainWindow.h"
#include "Player.h"
#include "SessionController.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>

namespace specdec::gui {

SessionFiles::SessionFiles(MainWindow *window, SessionController *session, Player *player, QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_session(session)
    , m_player(player)
{
    connect(m_session, &SessionController::roundsAdded, this, &SessionFiles::onRoundsAdded);
    connect(m_session, &SessionController::ready, this, &SessionFiles::onReady);
    connect(m_session, &SessionController::capReached, this, &SessionFiles::onCapReached);
}

app::SessionFile SessionFiles::current() const
{
    app::SessionFile file;
    file.setup = m_session->setup();
    file.setup.decoding.recordDistributions = false;
    file.position.round = m_player->round() + 1;
    file.position.phase = phaseKey(m_player->phase());
    return file;
}

void SessionFiles::open(const app::SessionFile &file)
{
    m_pending = file.position;
    m_window->startSession(file.setup);
}

void SessionFiles::onReady()
{
    if (m_pending && m_session->history().empty() && m_session->pendingRounds() == 0 && m_pending->round > 0)
        m_session->playTo(m_pending->round); // with progress in the status line, up to the cap
}

void SessionFiles::onRoundsAdded()
{
    if (!m_pending)
        return;
    const int have = m_session->history().size();
    if (have < m_pending->round) {
        m_session->playTo(m_pending->round); // with progress in the status line, up to the cap
        return;
    }
    const app::SessionPosition position = *m_pending;
    m_pending.reset();
    if (position.round > 0)
        m_player->jumpTo(position.round - 1, phaseFromKey(position.phase));
}

void SessionFiles::onCapReached()
{
    // The file's position lies beyond the cap: show the last round played (the status line says why).
    if (!m_pending || m_session->history().empty())
        return;
    m_pending.reset();
    m_player->jumpTo(m_session->history().size() - 1, Phase::Commit);
}

void SessionFiles::saveDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Save session"), QString(),
                                                      tr("Sessions (*.specdec.json *.json)"));
    if (path.isEmpty())
        return;
    try {
        current().save(path);
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Save session"), QString::fromStdString(e.what()));
    }
}

void SessionFiles::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open session"), QString(),
                                                      tr("Sessions (*.specdec.json *.json)"));
    if (path.isEmpty())
        return;
    try {
        open(app::SessionFile::load(path));
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Open session"), QString::fromStdString(e.what()));
    }
}

void SessionFiles::addActions(ActionRegistry &r)
{
    // Ctrl+O opens a corpus (as the user guide says); sessions take Ctrl+Shift+O.
    connect(r.add(
                QStringLiteral("file.openSession"), MenuId::File, 1, [] { return tr("&Open session…"); },
                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)),
            &QAction::triggered, this, &SessionFiles::openDialog);
    connect(r.add(
                QStringLiteral("file.saveSession"), MenuId::File, 1, [] { return tr("&Save session…"); },
                QKeySequence::Save),
            &QAction::triggered, this, &SessionFiles::saveDialog);
}

} // namespace specdec::gui
