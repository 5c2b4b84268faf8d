// SPDX-License-Identifier: GPL-3.0-or-later
#include "ToolWindows.h"

#include "ActionRegistry.h"
#include "PresenterMode.h"

#include <QAction>
#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>
#include <functional>

namespace specdec::gui {

namespace {
constexpr const char *kPlaced = "specdecPlaced"; ///< the tool window has been placed beside the main window
} // namespace

ToolWindows::ToolWindows(PresenterMode *presenter, QObject *parent)
    : QObject(parent)
    , m_presenter(presenter)
{
}

void ToolWindows::makeWindow(QWidget *widget, QWidget *parent, const QSize &size)
{
    widget->setParent(parent, Qt::Window);
    const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
    widget->resize(screen ? size.boundedTo(screen->availableSize() - QSize(16, 48)) : size);
}

void ToolWindows::raise(QWidget *window)
{
    if (!window->property(kPlaced).toBool()) { // its first time on screen: beside its main window
        placeBeside(window, window->parentWidget() ? window->parentWidget()->window() : nullptr);
        window->setProperty(kPlaced, true);
    }
    if (window->isMinimized()) // a minimised window comes back as it was (maximised or not)
        window->setWindowState(window->windowState() & ~Qt::WindowMinimized);
    window->show();
    window->raise();
    window->activateWindow();
}

void ToolWindows::placeBeside(QWidget *window, const QWidget *main)
{
    const QScreen *screen = main ? main->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    // The frame (title bar and borders) a window manager adds around the window, as the main window has it.
    const QMargins frame = main && main->isVisible() && main->frameGeometry() != main->geometry()
        ? QMargins(main->geometry().left() - main->frameGeometry().left(),
                   main->geometry().top() - main->frameGeometry().top(),
                   main->frameGeometry().right() - main->geometry().right(),
                   main->frameGeometry().bottom() - main->geometry().bottom())
        : QMargins(8, 40, 8, 8);
    const QRect screenArea = screen->availableGeometry().marginsRemoved(frame);
    window->resize(window->size().boundedTo(screenArea.size()));
    const QSize size = window->size();
    const QRect beside = main ? main->frameGeometry() : QRect();
    int x = screenArea.right() - size.width() + 1; // default: against the screen's right edge
    if (main && beside.right() + frame.left() + size.width() <= screenArea.right())
        x = beside.right() + 1 + frame.left(); // right of the main window
    else if (main && beside.left() - frame.right() - size.width() >= screenArea.left())
        x = beside.left() - frame.right() - size.width(); // left of it
    const int y = std::clamp(main ? main->geometry().top() : screenArea.top(), screenArea.top(),
                             std::max(screenArea.top(), screenArea.bottom() - size.height() + 1));
    window->move(std::max(screenArea.left(), x), y);
}

void ToolWindows::present(QWidget *tool)
{
    if (m_presenter->isActive()) {
        for (int i = 0; m_presenter->stageWidget(i); ++i)
            if (m_presenter->stageWidget(i) == tool)
                m_presenter->showStage(i);
        return;
    }
    raise(tool);
}

void ToolWindows::setPresenterMode(bool on)
{
    m_presenter->setActive(on);
    const QSignalBlocker block(m_presenterAction);
    m_presenterAction->setChecked(on);
    for (QAction *a : std::as_const(m_presenterActions))
        a->setEnabled(on);
}

void ToolWindows::addActions(ActionRegistry &r)
{
    m_presenterAction = r.add(
        QStringLiteral("classroom.presenter"), MenuId::Classroom, 9, [] { return tr("&Presenter mode"); },
        QKeySequence(Qt::Key_F5));
    m_presenterAction->setCheckable(true);
    connect(m_presenterAction, &QAction::toggled, this, &ToolWindows::setPresenterMode);
    const struct
    {
        const char *id;
        ActionRegistry::Text text;
        QKeySequence key;
        std::function<void()> slot;
    } keys[] = {
        {"classroom.presenterLeave", [] { return tr("Leave presenter mode"); }, QKeySequence(Qt::Key_Escape),
         [this] { setPresenterMode(false); }},
        {"classroom.presenterLarger", [] { return tr("Larger text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+=")), [this] { m_presenter->zoomIn(); }},
        {"classroom.presenterSmaller", [] { return tr("Smaller text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+-")), [this] { m_presenter->zoomOut(); }},
    };
    for (const auto &k : keys) {
        QAction *a = r.add(QLatin1String(k.id), MenuId::Classroom, 9, k.text, k.key);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, k.slot);
        m_presenterActions << a;
    }
}

} // namespace specdec::gui
