// SPDX-License-Identifier: GPL-3.0-or-later
#include "ToolWindows.h"

#include "ActionRegistry.h"
#include "PresenterMode.h"

#include <QAction>
#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <functional>

namespace specdec::gui {

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
    window->setWindowState((window->windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    window->show();
    window->raise();
    window->activateWindow();
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
    m_presenterAction = r.add(QStringLiteral("view.presenter"), MenuId::View, 9,
                              [] { return tr("&Presenter mode"); }, QKeySequence(Qt::Key_F5));
    m_presenterAction->setCheckable(true);
    connect(m_presenterAction, &QAction::toggled, this, &ToolWindows::setPresenterMode);
    const struct {
        const char *id;
        ActionRegistry::Text text;
        QKeySequence key;
        std::function<void()> slot;
    } keys[] = {
        {"view.presenterLeave", [] { return tr("Leave presenter mode"); }, QKeySequence(Qt::Key_Escape),
         [this] { setPresenterMode(false); }},
        {"view.presenterLarger", [] { return tr("Larger text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+=")), [this] { m_presenter->zoomIn(); }},
        {"view.presenterSmaller", [] { return tr("Smaller text (presenter mode)"); },
         QKeySequence(QStringLiteral("Ctrl+-")), [this] { m_presenter->zoomOut(); }},
    };
    for (const auto &k : keys) {
        QAction *a = r.add(QLatin1String(k.id), MenuId::View, 9, k.text, k.key);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, k.slot);
        m_presenterActions << a;
    }
}

} // namespace specdec::gui
