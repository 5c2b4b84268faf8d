// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionController: the GUI thread's door to the engine. It owns a SessionWorker on a worker QThread,
// starts sessions from a Setup, asks for rounds, and keeps the history of played rounds (stored traces,
// so any round can be replayed exactly). Errors arrive as readable messages; the controller stays usable.

#include "RoundHistory.h"

#include "Experiment.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace specdec::gui {

class SessionWorker;

class SessionController : public QObject
{
    Q_OBJECT
public:
    explicit SessionController(CorpusCatalog catalog, QObject *parent = nullptr);
    ~SessionController() override;

    /// Loads `setup` on the worker; earlier rounds and pending requests are dropped.
    void start(const Setup &setup);
    /// Asks the worker for `count` more rounds (ignored while loading or after a failure).
    void requestRounds(int count);

    const Setup &setup() const { return m_setup; }
    const SessionInfo &info() const { return m_info; }
    /// The one history of played rounds; views read it (and pin the round on screen).
    const RoundHistory &history() const { return m_history; }
    RoundHistory &history() { return m_history; }
    bool isReady() const { return m_ready; }
    bool isLoading() const { return m_loading; }
    int pendingRounds() const { return m_pending; }
    /// Rounds whose full distributions are kept; older rounds keep their numbers only (memory stays bounded).
    static constexpr int kRoundsWithDistributions = RoundHistory::kDefaultWindow;

signals:
    void loading(const specdec::Setup &setup);
    void ready(const specdec::gui::SessionInfo &info);
    void roundsAdded(int first, int count);
    void failed(const QString &message);

private:
    void onLoaded(const SessionInfo &info, int generation);
    void onPlayed(const QList<specdec::gui::PlayedRound> &rounds, int generation);
    void onFailed(const QString &message, int generation);

    QThread m_thread;
    SessionWorker *m_worker;
    Setup m_setup;
    SessionInfo m_info;
    RoundHistory m_history;
    std::atomic<int> m_generation = 0;
    int m_pending = 0;
    bool m_ready = false;
    bool m_loading = false;
};

} // namespace specdec::gui
