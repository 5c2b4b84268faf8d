// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FrameGate: the session's worker does not decode (and time) a round while the window shows the batch before.
// A round timed while the window paints shares the cores with the paint (the worker yields to the window), so
// it reads slower than the autoregressive steps timed between frames: the window's wall-clock speedup read
// 1.7x where `specdec run` reads 2.2x for the same run. The worker closes the gate as it sends a batch; the GUI
// thread opens it when the batch's work is done: two passes of low-priority posted events after the batch
// arrived, behind the views' updates, the plots' queued replots and the window's repaint (QWidget's update
// requests are low-priority posted events too).

#include <QObject>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace specdec::gui {

class FrameGate : public QObject
{
public:
    explicit FrameGate(QObject *parent = nullptr);

    /// Worker: a batch is on its way to the GUI thread; the gate is closed until the window has shown it.
    void close();
    /// GUI thread: the batch has arrived (the gate opens once what it caused has been processed).
    void arrived();
    /// Worker: returns when the gate is open, `stop` is requested or `limit` has passed (a GUI thread held up
    /// elsewhere does not stop the rounds; the gate then counts as open). Returns at once when no batch is
    /// outstanding.
    void wait(std::stop_token stop, std::chrono::milliseconds limit);
    /// Whether a batch sent has not been shown yet.
    bool isClosed() const;

protected:
    bool event(QEvent *event) override;

private:
    void postPass(int pass);
    void open();

    mutable std::mutex m_mutex;
    std::condition_variable_any m_opened;
    bool m_open = true;
};

} // namespace specdec::gui
