// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionController.h"

#include "SessionWorker.h"

namespace specdec::gui {

SessionController::SessionController(CorpusCatalog catalog, QObject *parent)
    : QObject(parent)
    , m_worker(new SessionWorker(std::move(catalog), &m_generation))
{
    registerMetaTypes();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_worker, &SessionWorker::yieldToWindow);
    connect(m_worker, &SessionWorker::loaded, this, &SessionController::onLoaded);
    connect(m_worker, &SessionWorker::played, this, &SessionController::onPlayed);
    connect(m_worker, &SessionWorker::failed, this, &SessionController::onFailed);
    m_thread.setObjectName(QStringLiteral("specdec-session"));
    m_thread.start();
}

SessionController::~SessionController()
{
    ++m_generation; // the worker skips queued work of older generations
    m_thread.quit();
    m_thread.wait();
}

void SessionController::start(const Setup &setup)
{
    m_setup = setup;
    m_setup.decoding.recordDistributions = true;
    ++m_generation;
    m_history.clear();
    m_pending = 0;
    m_ready = false;
    m_loading = true;
    emit loading(m_setup);
    QMetaObject::invokeMethod(m_worker, "load", Qt::QueuedConnection, Q_ARG(specdec::Setup, m_setup),
                              Q_ARG(int, m_generation.load()));
}

void SessionController::requestRounds(int count)
{
    if (!m_ready || count <= 0)
        return;
    m_pending += count;
    QMetaObject::invokeMethod(m_worker, "play", Qt::QueuedConnection, Q_ARG(int, count), Q_ARG(int, m_generation.load()));
}

void SessionController::onLoaded(const SessionInfo &info, int generation)
{
    if (generation != m_generation)
        return;
    m_info = info;
    m_ready = true;
    m_loading = false;
    emit ready(m_info);
}

void SessionController::onPlayed(const QList<PlayedRound> &rounds, int generation)
{
    if (generation != m_generation)
        return;
    const int first = m_history.size();
    std::vector<std::shared_ptr<const RoundRecord>> batch;
    for (const PlayedRound &r : rounds)
        batch.push_back(r.full);
    m_pending = std::max(0, m_pending - static_cast<int>(rounds.size()));
    m_history.append(std::move(batch)); // keeps memory bounded: old rounds drop their full vectors
    emit roundsAdded(first, static_cast<int>(rounds.size()));
}

void SessionController::onFailed(const QString &message, int generation)
{
    if (generation != m_generation)
        return;
    m_pending = 0;
    m_loading = false;
    if (!m_ready) {
        m_history.clear();
    }
    emit failed(message);
}

} // namespace specdec::gui
