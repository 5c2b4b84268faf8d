// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GuardedApplication: the window's QApplication with a guard at the event loop. An exception that escapes a
// view's slot or event handler (a bug, never a user's doing) is caught in notify() and reported by
// exceptionCaught (the window shows it in its banner) instead of ending the program with the class's state;
// the event that threw counts as not handled. The engine's jobs have their own guard (EngineHost::jobFailed).

#include <QApplication>

namespace specdec::gui {

class GuardedApplication : public QApplication
{
    Q_OBJECT
public:
    GuardedApplication(int &argc, char **argv);

    bool notify(QObject *receiver, QEvent *event) override;

signals:
    /// An exception left an event handler; `message` is its what().
    void exceptionCaught(const QString &message);
};

} // namespace specdec::gui
