// SPDX-License-Identifier: GPL-3.0-or-later
#include "FrameGate.h"

#include <QCoreApplication>
#include <QEvent>

namespace specdec::gui {

namespace {

/// A pass of the gate: posted at low priority, it runs after the events posted before it (and after the
/// normal-priority ones posted in the same pass of the event loop).
class PassEvent : public QEvent
{
public:
    explicit PassEvent(int n)
        : QEvent(type())
        , pass(n)
    {
    }
    static QEvent::Type type()
    {
        static const auto t = static_cast<QEvent::Type>(QEvent::registerEventType());
        return t;
    }
    const int pass;
};

constexpr int kPasses = 2; ///< the second catches what the first pass's replots asked to repaint

} // namespace

FrameGate::FrameGate(QObject *parent)
    : QObject(parent)
{
}

void FrameGate::close()
{
    const std::lock_guard lock(m_mutex);
    m_open = false;
}

void FrameGate::arrived()
{
    postPass(1);
}

void FrameGate::postPass(int pass)
{
    QCoreApplication::postEvent(this, new PassEvent(pass), Qt::LowEventPriority);
}

bool FrameGate::event(QEvent *event)
{
    if (event->type() != PassEvent::type())
        return QObject::event(event);
    const int pass = static_cast<PassEvent *>(event)->pass;
    if (pass < kPasses)
        postPass(pass + 1);
    else
        open();
    return true;
}

void FrameGate::open()
{
    {
        const std::lock_guard lock(m_mutex);
        m_open = true;
    }
    m_opened.notify_all();
}

void FrameGate::wait(std::stop_token stop, std::chrono::milliseconds limit)
{
    std::unique_lock lock(m_mutex);
    if (!m_opened.wait_for(lock, stop, limit, [this] { return m_open; }) && !stop.stop_requested())
        m_open = true; // a batch the window did not show in time (or dropped): the next ones are not held up by it
}

bool FrameGate::isClosed() const
{
    const std::lock_guard lock(m_mutex);
    return !m_open;
}

} // namespace specdec::gui
