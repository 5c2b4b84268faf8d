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

namespace {

/// The frame (title bar and borders) a window manager adds around a window, as `shown` has it.
QMargins frameOf(const QWidget *shown)
{
    return shown && shown->isVisible() && shown->frameGeometry() != shown->geometry()
        ? QMargins(shown->geometry().left() - shown->frameGeometry().left(),
                   shown->geometry().top() - shown->frameGeometry().top(),
                   shown->frameGeometry().right() - shown->geometry().right(),
                   shown->frameGeometry().bottom() - shown->geometry().bottom())
        : QMargins(8, 40, 8, 8);
}

} // namespace

void ToolWindows::placeBeside(QWidget *window, const QWidget *main)
{
    const QScreen *screen = main ? main->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QMargins frame = frameOf(main);
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

std::pair<QRect, QRect> ToolWindows::sideBySide(QSize keep, QSize keepMin, QSize tool, QSize toolMin, const QRect &area,
                                                const QMargins &frame)
{
    const int frames = frame.left() + frame.right(); // the second window's frame, beside the first
    if (keep.width() + tool.width() + frames > area.width()) {
        // Too wide together: the quiz narrows first, to what leaves the tool its width but not below a third of
        // the screen (or its minimum); the tool takes the rest, down to its own minimum.
        const int floor = std::max(keepMin.width(), std::min(keep.width(), area.width() / 3));
        keep.setWidth(std::max(floor, std::min(keep.width(), area.width() - frames - tool.width())));
        tool.setWidth(std::max(toolMin.width(), area.width() - frames - keep.width()));
    }
    keep = keep.boundedTo(QSize(area.width(), area.height())).expandedTo(keepMin);
    tool = tool.boundedTo(QSize(area.width(), area.height())).expandedTo(toolMin);
    // The quiz at the left, the tool at the right: where even their minimums are too wide together, the quiz
    // (in front) covers the tool's left side (the lab's editors), not its results.
    const QRect keepRect(area.topLeft(), keep);
    const QRect toolRect(QPoint(area.right() - tool.width() + 1, area.top()), tool);
    return {keepRect, toolRect};
}

void ToolWindows::shareScreen(QWidget *keep, QWidget *tool)
{
    const QScreen *screen = keep->screen();
    if (!screen)
        return;
    const QMargins frame = frameOf(keep->isVisible() ? keep : tool);
    const auto [keepRect, toolRect] = sideBySide(keep->size(), keep->minimumSizeHint().expandedTo(keep->minimumSize()),
                                                 tool->size(), tool->minimumSizeHint().expandedTo(tool->minimumSize()),
                                                 screen->availableGeometry().marginsRemoved(frame), frame);
    keep->setGeometry(keepRect);
    tool->setGeometry(toolRect);
    tool->setProperty(kPlaced, true);
    keep->setProperty(kPlaced, true);
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
