// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LabRunner: runs the lossless lab's S one-step samples on a worker thread with the engine's LosslessLab,
// in chunks, and reports snapshots (counts, chi-square, TV) so the histogram fills in live. A new run or
// stop() cancels the one in flight between chunks.

#include "LosslessLabView.h"

#include <QObject>
#include <QThread>

#include <atomic>
#include <memory>

namespace specdec::gui {

class LabWorker : public QObject
{
    Q_OBJECT
public:
    explicit LabWorker(std::shared_ptr<std::atomic<int>> current, QObject *parent = nullptr);

public slots:
    void run(const specdec::gui::LabRequest &request, int generation);

signals:
    void progress(const specdec::gui::LabSnapshot &snapshot, int generation);
    void failed(const QString &message, int generation);

private:
    std::shared_ptr<std::atomic<int>> m_current;
};

class LabRunner : public QObject
{
    Q_OBJECT
public:
    explicit LabRunner(QObject *parent = nullptr);
    ~LabRunner() override;

    void start(const LabRequest &request);
    void stop();
    bool isRunning() const { return m_running; }

    /// Samples per chunk: one chunk is one snapshot.
    static constexpr std::int64_t kChunk = 250000;

signals:
    void progress(const specdec::gui::LabSnapshot &snapshot);
    void failed(const QString &message);

private:
    QThread m_thread;
    LabWorker *m_worker;
    std::shared_ptr<std::atomic<int>> m_generation;
    bool m_running = false;
};

} // namespace specdec::gui

namespace specdec::gui {

/// Connects a lab view to a runner: Run starts a run, Stop cancels it, snapshots are drawn.
void connectLab(LosslessLabView *view, LabRunner *runner);

} // namespace specdec::gui
