// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LabRunner: the lossless lab's S one-step samples as a job of the engine host (EngineHost.h), with the
// engine's LosslessLab, in chunks; it reports snapshots (counts, chi-square, TV) so the histogram fills in
// live. A new run or stop() cancels the one in flight within one chunk (a few milliseconds).

#include "LosslessLabView.h"

#include <QObject>

#include <memory>

namespace specdec::gui {

class EngineHost;

class LabRunner : public QObject
{
    Q_OBJECT
public:
    /// `host`: the window's engine host (one is made, owned by the runner, when none is given).
    explicit LabRunner(QObject *parent = nullptr, EngineHost *host = nullptr);
    ~LabRunner() override;

    void start(const LabRequest &request);
    void stop();
    bool isRunning() const { return m_running; }

    /// Samples per chunk: the job checks its stop token between chunks.
    static constexpr std::int64_t kChunk = 20000;

signals:
    void progress(const specdec::gui::LabSnapshot &snapshot);
    void failed(const QString &message);

private:
    EngineHost *m_host;
    std::unique_ptr<EngineHost> m_ownHost;
    int m_run = 0; ///< the run whose snapshots are shown
    bool m_running = false;
};

/// Connects a lab view to a runner: Run starts a run, Stop cancels it, snapshots are drawn.
void connectLab(LosslessLabView *view, LabRunner *runner);

} // namespace specdec::gui
