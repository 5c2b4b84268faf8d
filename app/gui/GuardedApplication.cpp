// SPDX-License-Identifier: GPL-3.0-or-later
#include "GuardedApplication.h"

#include <exception>

namespace specdec::gui {

GuardedApplication::GuardedApplication(int &argc, char **argv)
    : QApplication(argc, argv)
{
}

bool GuardedApplication::notify(QObject *receiver, QEvent *event)
{
    QString message;
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception &e) {
        message = QString::fromUtf8(e.what());
    } catch (...) {
        message = tr("an unknown error");
    }
    qWarning("specdec-lab: caught at the event loop: %s", qPrintable(message));
    // Reported after this event: the banner is shown by an event of its own, not inside the one that threw.
    QMetaObject::invokeMethod(
        this, [this, message] { emit exceptionCaught(message); }, Qt::QueuedConnection);
    return false;
}

} // namespace specdec::gui
