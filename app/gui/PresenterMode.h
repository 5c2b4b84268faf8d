// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PresenterMode: the window for a lecture hall. Every text and plot label is scaled (×1.5 by default,
// Ctrl+= / Ctrl+- in steps of 0.1 from 1.0 to 2.5, remembered in the settings), the secondary panels (docks,
// the setup bar) are hidden, and one stage at a time fills the window — the round, the distributions, the live
// plots, the theory panel's numbers, the lab, the arena, the theory explorer, the quiz, the race — as tabs inside
// the main window, never floating windows.
// Esc (or F5 again) leaves and puts every panel and tool window back where it was.

#include <QFont>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <optional>

class QAction;
class QCustomPlot;
class QDockWidget;
class QMainWindow;
class QTabWidget;
class QWidget;

namespace specdec::gui {

/// The stages in tab order (ClassroomTools sets them so), by the names `--stage` takes.
enum class PresenterStage { Round, Distributions, Plots, Numbers, Lab, Arena, Theory, Quiz, Race };
/// "round", "distributions", "plots", "numbers" (the theory panel), "lab", "arena", "theory" (the explorer),
/// "quiz", "race" in tab order.
QStringList presenterStageKeys();
/// The stage named `key` (one of presenterStageKeys()); nullopt for another name.
std::optional<PresenterStage> presenterStageFromKey(const QString &key);

class PresenterMode : public QObject
{
    Q_OBJECT
public:
    /// A page: the widget and where it lives outside presenter mode (a dock, a tool window, the centre).
    struct Stage
    {
        QWidget *widget = nullptr;
        QString title;
    };

    explicit PresenterMode(QMainWindow *window);

    /// The stages in tab order; set before the first enter() (titles may change with the language).
    void setStages(const QList<Stage> &stages);
    void setStageTitles(const QStringList &titles);

    bool isActive() const { return m_active; }
    void setActive(bool on);
    void toggle() { setActive(!m_active); }
    /// Shows stage `index` (0-based) when active.
    void showStage(int index);
    int currentStage() const;
    QWidget *stageWidget(int index) const;
    QTabWidget *tabs() const { return m_tabs; }

    double scale() const { return m_scale; }
    void setScale(double scale);
    void zoomIn() { setScale(m_scale + 0.1); }
    void zoomOut() { setScale(m_scale - 0.1); }

    static constexpr double kDefaultScale = 1.5;

signals:
    void activeChanged(bool active);
    /// Stage `index` came to the front (entering, a tab clicked, showStage).
    void stageShown(int index);

private:
    void enter();
    void leave();
    void applyScale(double factor);

    struct Home
    {
        QPointer<QWidget> widget;
        QPointer<QDockWidget> dock; ///< it lived in this dock
        bool window = false;        ///< it was a tool window
        bool central = false;       ///< it was the central widget
        bool visible = false;
        QByteArray geometry;
    };

    QMainWindow *m_window;
    QTabWidget *m_tabs = nullptr;
    QList<Stage> m_stages;
    QList<Home> m_homes;
    QList<QPointer<QWidget>> m_hidden; ///< docks and tool bars hidden on entry
    QByteArray m_state;
    QFont m_font;
    QHash<QCustomPlot *, double> m_plotScale;
    bool m_active = false;
    double m_scale = kDefaultScale;
};

} // namespace specdec::gui
