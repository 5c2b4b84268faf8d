// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ToolWindows: how the classroom's tools come to the front — each a window of its own beside the main one,
// sized for the screen it opens on and placed beside the main window, or in presenter mode its stage inside the
// main window, where Esc leaves and Ctrl+= / Ctrl+- scale the text (Classroom ▸ Presenter mode, F5).

#include <QList>
#include <QMargins>
#include <QObject>
#include <QRect>
#include <QSize>

#include <utility>

class QAction;
class QWidget;

namespace specdec::gui {

class ActionRegistry;
class PresenterMode;

class ToolWindows : public QObject
{
    Q_OBJECT
public:
    explicit ToolWindows(PresenterMode *presenter, QObject *parent = nullptr);

    /// Makes `widget` a tool window of `parent`, `size` large or smaller where the screen is (a 1280×720
    /// projector), leaving room for the window's frame and title bar.
    template<typename T> static T *make(T *widget, QWidget *parent, const QSize &size)
    {
        makeWindow(widget, parent, size);
        return widget;
    }
    /// Shows a tool window in front, also when it was minimised; the first time, placed beside the main window
    /// and inside the screen (placeBeside).
    static void raise(QWidget *window);
    /// Moves `window` (made smaller where the screen is) inside `main`'s screen: right of `main` when it fits
    /// there, else left of it, else against the screen's right edge; its top level with `main`'s.
    static void placeBeside(QWidget *window, const QWidget *main);
    /// Places `tool` (a demonstration) and `keep` (the quiz that asked for it) so that neither covers the other:
    /// side by side at their sizes where the screen is wide enough, else `keep` narrowed to a column at the
    /// screen's left (its text wraps) and `tool` beside it in the rest; both inside the screen. Where even their
    /// minimum widths do not fit together (the lab at 1280 px), `keep` covers the tool's left edge.
    static void shareScreen(QWidget *keep, QWidget *tool);
    /// shareScreen's geometry: the windows' client rectangles for windows of sizes `keep`/`tool` (at least
    /// `keepMin`/`toolMin`) on a screen whose usable client area is `area`, each window framed by `frame`.
    static std::pair<QRect, QRect> sideBySide(QSize keep, QSize keepMin, QSize tool, QSize toolMin, const QRect &area,
                                              const QMargins &frame);
    /// Shows `tool` as a floating tool window, or as its stage in presenter mode.
    void present(QWidget *tool);
    void setPresenterMode(bool on);
    /// Declares Classroom ▸ Presenter mode (F5) and the keys that work only while presenting.
    void addActions(ActionRegistry &registry);

private:
    static void makeWindow(QWidget *widget, QWidget *parent, const QSize &size);

    PresenterMode *m_presenter;
    QAction *m_presenterAction = nullptr;
    QList<QAction *> m_presenterActions; ///< Esc, zoom in, zoom out: only while presenting
};

} // namespace specdec::gui
