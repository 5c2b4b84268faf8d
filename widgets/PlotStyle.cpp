// SPDX-License-Identifier: GPL-3.0-or-later
#include "PlotStyle.h"

#include <qcustomplot.h>

#include <algorithm>

namespace specdec::gui {

void stylePlot(QCustomPlot *plot, const LabColors &c)
{
    // QCustomPlot repaints synchronously after every replot by default, which paints the window's whole
    // dirty region once per plot; with update() the window paints everything that changed in one pass.
    plot->setPlottingHint(QCP::phImmediateRefresh, false);
    // Solid polylines as separate segments: several times faster for wide antialiased pens.
    plot->setPlottingHint(QCP::phFastPolylines, true);
    // The overlay layer (unused here) has its own buffer by default, cleared and blitted on every replot.
    if (QCPLayer *overlay = plot->layer(QStringLiteral("overlay")))
        overlay->setMode(QCPLayer::lmLogical);
    plot->setBackground(c.base);
    plot->axisRect()->setBackground(c.base);
    QFont tickFont = plot->font();
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(c.border, 1));
        axis->setTickPen(QPen(c.border, 1));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(c.muted);
        axis->setLabelColor(c.muted);
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(tickFont);
        axis->grid()->setPen(QPen(c.tint(c.text, 0.10), 1));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    plot->xAxis->grid()->setVisible(false);
    plot->legend->setBrush(c.base);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setTextColor(c.text);
    QFont legendFont = plot->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.9);
    plot->legend->setFont(legendFont);
    if (QCPTextElement *title = plotTitle(plot))
        title->setTextColor(c.text);
}

namespace {

/// Refits a plot's legend when the plot is resized or its entries change.
class LegendFitter : public QObject
{
public:
    explicit LegendFitter(QCustomPlot *plot)
        : QObject(plot)
    {
        plot->installEventFilter(this);
        connect(plot, &QCustomPlot::beforeReplot, this, [plot] { fitLegend(plot); });
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize)
            fitLegend(static_cast<QCustomPlot *>(watched));
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

void fitLegend(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    QList<QCPAbstractLegendItem *> items;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (legend->item(i) && legend->item(i)->visible())
            items << legend->item(i);
    const QMargins m = legend->margins();
    if (items.isEmpty()) {
        // An empty legend's widest size is its margins, and the plot's one layout column would shrink to that:
        // the axis rect above it would be squeezed to its minimum. An empty legend spans the plot instead.
        legend->setMinimumSize(std::max(0, plot->width() - m.left() - m.right()), 0);
        return;
    }
    legend->setMinimumSize(0, 0);
    const double available = plot->width() - m.left() - m.right() - 2;
    int columns = static_cast<int>(items.size());
    for (; columns > 1; --columns) {
        double total = legend->columnSpacing() * (columns - 1);
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (int i = c; i < items.size(); i += columns)
                widest = std::max(widest, items[i]->minimumOuterSizeHint().width());
            total += widest;
        }
        if (total <= available)
            break;
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-arranges the entries in `columns` columns
    }
}

void legendBelow(QCustomPlot *plot)
{
    auto *legend = plot->legend;
    plot->axisRect()->insetLayout()->take(legend);
    plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, legend);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(3);
    legend->setMargins(QMargins(4, 0, 4, 2));
    legend->setVisible(true);
    plot->plotLayout()->setRowStretchFactor(plot->plotLayout()->rowCount() - 1, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    new LegendFitter(plot);
}

QPixmap discPixmap(const QColor &color, int diameter)
{
    QPixmap pixmap(diameter, diameter);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(0, 0, diameter, diameter));
    return pixmap;
}

QCPTextElement *plotTitle(QCustomPlot *plot)
{
    if (auto *existing = qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0)))
        return existing;
    plot->plotLayout()->insertRow(0);
    QFont font = plot->font();
    font.setBold(true);
    auto *title = new QCPTextElement(plot, QString(), font);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

} // namespace specdec::gui
