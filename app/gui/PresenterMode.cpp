// SPDX-License-Identifier: GPL-3.0-or-later
#include "PresenterMode.h"

#include <qcustomplot.h>

#include <QDockWidget>
#include <QFontInfo>
#include <QMainWindow>
#include <QPointer>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QToolBar>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

namespace {

QFont scaled(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    return font;
}

/// QCustomPlot keeps its own fonts (axes, legend, titles, items): they do not follow the widget's font.
void scalePlot(QCustomPlot *plot, double factor)
{
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            axis->setTickLabelFont(scaled(axis->tickLabelFont(), factor));
            axis->setLabelFont(scaled(axis->labelFont(), factor));
            axis->setSelectedTickLabelFont(scaled(axis->selectedTickLabelFont(), factor));
            axis->setSelectedLabelFont(scaled(axis->selectedLabelFont(), factor));
        }
    if (plot->legend) {
        // QCPLegend::setFont also sets every entry's font: each entry's own size is taken before, and set after
        // (scaled twice, the entries came back from presenter mode at 1/1.5 of their size).
        QList<QFont> entries;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            entries << (plot->legend->item(i) ? scaled(plot->legend->item(i)->font(), factor) : QFont());
        plot->legend->setFont(scaled(plot->legend->font(), factor));
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (QCPAbstractLegendItem *item = plot->legend->item(i))
                item->setFont(entries[i]);
    }
    for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
        if (auto *text = qobject_cast<QCPTextElement *>(element))
            text->setFont(scaled(text->font(), factor));
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            text->setFont(scaled(text->font(), factor));
    plot->replot(QCustomPlot::rpQueuedReplot);
}

/// The page of one stage: the stage fills it, and it asks the scroll area around it for no more than the
/// stage's minimum size. A stage's layout with word-wrapped labels reports a height for the page's width that
/// is its preferred height (the sum of every child's size hint), which made QScrollArea scroll a stage that fits.
class StagePage : public QWidget
{
public:
    explicit StagePage(QWidget *stage)
        : m_stage(stage)
    {
        stage->setParent(this);
    }
    QSize sizeHint() const override { return m_stage ? m_stage->sizeHint() : QSize(); }
    QSize minimumSizeHint() const override
    {
        return m_stage ? m_stage->minimumSizeHint().expandedTo(m_stage->minimumSize()) : QSize();
    }

protected:
    void resizeEvent(QResizeEvent *) override
    {
        if (m_stage)
            m_stage->setGeometry(rect());
    }
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::LayoutRequest) // the stage's minimum changed: the scroll area looks again
            updateGeometry();
        return QWidget::event(event);
    }

private:
    QPointer<QWidget> m_stage;
};

} // namespace

QStringList presenterStageKeys()
{
    return {QStringLiteral("round"),   QStringLiteral("distributions"), QStringLiteral("plots"),
            QStringLiteral("numbers"), QStringLiteral("lab"),           QStringLiteral("arena"),
            QStringLiteral("theory"),  QStringLiteral("quiz"),          QStringLiteral("race")};
}

std::optional<PresenterStage> presenterStageFromKey(const QString &key)
{
    const qsizetype i = presenterStageKeys().indexOf(key);
    if (i < 0)
        return std::nullopt;
    return static_cast<PresenterStage>(i);
}

PresenterMode::PresenterMode(QMainWindow *window)
    : QObject(window)
    , m_window(window)
{
    const double saved = QSettings().value(QStringLiteral("presenter/scale"), kDefaultScale).toDouble();
    m_scale = std::clamp(saved, 1.0, 2.5);
}

void PresenterMode::setStages(const QList<Stage> &stages)
{
    m_stages = stages;
}

void PresenterMode::setStageTitles(const QStringList &titles)
{
    for (int i = 0; i < m_stages.size() && i < titles.size(); ++i) {
        m_stages[i].title = titles[i];
        if (m_tabs && i < m_tabs->count())
            m_tabs->setTabText(i, titles[i]);
    }
}

void PresenterMode::setActive(bool on)
{
    if (on == m_active)
        return;
    if (on)
        enter();
    else
        leave();
    emit activeChanged(m_active);
}

void PresenterMode::enter()
{
    m_state = m_window->saveState();
    m_font = m_window->font();
    m_hidden.clear();
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        if (dock->parentWidget() == m_window && dock->isVisible()) {
            m_hidden << dock;
            dock->hide();
        }
    for (QToolBar *bar : m_window->findChildren<QToolBar *>())
        if (bar->parentWidget() == m_window && bar->isVisible()
            && bar->objectName() != QLatin1String("TransportToolBar")) {
            m_hidden << bar;
            bar->hide();
        }
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("PresenterStages"));
    m_tabs->setDocumentMode(true);
    m_homes.clear();
    for (const Stage &stage : std::as_const(m_stages)) {
        Home home;
        home.widget = stage.widget;
        home.visible = stage.widget->isVisible();
        if (stage.widget == m_window->centralWidget()) {
            home.central = true;
            m_window->takeCentralWidget();
        } else if (auto *dock = qobject_cast<QDockWidget *>(stage.widget->parentWidget())) {
            home.dock = dock;
        } else if (stage.widget->isWindow()) {
            home.window = true;
            home.geometry = stage.widget->saveGeometry();
        }
        m_homes << home;
        // A page of the main window (reparented); the scroll area keeps a stage's minimum size from
        // growing the window past the projector (a stage that needs more room scrolls instead).
        auto *page = new QScrollArea;
        page->setFrameShape(QFrame::NoFrame);
        page->setWidgetResizable(true);
        if (home.window)
            stage.widget->setWindowFlags(Qt::Widget);
        page->setWidget(new StagePage(stage.widget));
        stage.widget->show();
        m_tabs->addTab(page, stage.title);
    }
    m_window->setCentralWidget(m_tabs);
    m_active = true;
    applyScale(m_scale);
    connect(m_tabs, &QTabWidget::currentChanged, this, &PresenterMode::stageShown);
    emit stageShown(m_tabs->currentIndex());
}

void PresenterMode::leave()
{
    applyScale(1.0 / m_scale);
    m_window->setFont(m_font);
    // Each stage goes back home (which reparents it) before the tabs and their pages are deleted.
    QTabWidget *tabs = qobject_cast<QTabWidget *>(m_window->takeCentralWidget());
    for (const Home &home : std::as_const(m_homes)) {
        QWidget *w = home.widget;
        if (!w)
            continue;
        if (home.central) {
            m_window->setCentralWidget(w);
        } else if (home.dock) {
            home.dock->setWidget(w);
        } else if (home.window) {
            w->setParent(m_window, Qt::Window);
            w->restoreGeometry(home.geometry);
        } else {
            w->setParent(nullptr); // (no stage lacks a home; never deleted with its page)
        }
        w->setVisible(home.central || home.dock || home.visible);
    }
    delete tabs;
    m_tabs = nullptr;
    m_homes.clear();
    for (const QPointer<QWidget> &w : std::as_const(m_hidden))
        if (w)
            w->show();
    m_hidden.clear();
    m_window->restoreState(m_state);
    m_active = false;
}

void PresenterMode::showStage(int index)
{
    if (m_tabs && index >= 0 && index < m_tabs->count())
        m_tabs->setCurrentIndex(index);
}

int PresenterMode::currentStage() const
{
    return m_tabs ? m_tabs->currentIndex() : -1;
}

QWidget *PresenterMode::stageWidget(int index) const
{
    return index >= 0 && index < m_stages.size() ? m_stages[index].widget : nullptr;
}

void PresenterMode::setScale(double scale)
{
    scale = std::clamp(std::round(scale * 10.0) / 10.0, 1.0, 2.5);
    if (scale == m_scale)
        return;
    if (m_active)
        applyScale(scale / m_scale);
    m_scale = scale;
    QSettings().setValue(QStringLiteral("presenter/scale"), m_scale);
}

void PresenterMode::applyScale(double factor)
{
    // The window's font: every widget that does not set its own font follows it (cards, labels, tables).
    // One that does (a header ×1.25, the transcript ×1.35, a title made bold from a copy of its font) or that
    // a style sheet styles keeps its size: it is scaled by the same factor, so every text keeps its
    // proportion to the others. Parents come before their children, so a child that follows a scaled
    // parent has changed already and is left alone.
    QList<QPair<QPointer<QWidget>, double>> before;
    for (QWidget *w : m_window->findChildren<QWidget *>())
        if (w->window() == m_window)
            before.append({w, QFontInfo(w->font()).pointSizeF()});
    m_window->setFont(scaled(m_window->font(), factor));
    for (const auto &[w, size] : std::as_const(before))
        if (w && std::abs(QFontInfo(w->font()).pointSizeF() - size) < 0.01)
            w->setFont(scaled(w->font(), factor));
    QList<QCustomPlot *> plots = m_window->findChildren<QCustomPlot *>();
    for (QCustomPlot *plot : std::as_const(plots))
        scalePlot(plot, factor);
}

} // namespace specdec::gui
