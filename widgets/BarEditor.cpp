// SPDX-License-Identifier: GPL-3.0-or-later
#include "BarEditor.h"

#include "LabColors.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <numeric>

namespace specdec::gui {

BarEditor::BarEditor(QWidget *parent)
    : QWidget(parent)
    , m_color(LabColors::from(palette()).target)
{
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setToolTip(tr("Drag a bar up or down to change its probability; the other bars rescale so the total stays 1."));
}

void BarEditor::setTitle(const QString &title)
{
    m_title = title;
    update();
}

void BarEditor::setColor(const QColor &color)
{
    m_color = color;
    update();
}

void BarEditor::setValues(const QVector<double> &values, const QStringList &labels)
{
    m_values = values;
    m_labels = labels;
    while (m_labels.size() < m_values.size())
        m_labels << QString::number(m_labels.size());
    const double sum = std::accumulate(m_values.begin(), m_values.end(), 0.0);
    if (sum > 0.0)
        for (double &v : m_values)
            v /= sum;
    update();
}

void BarEditor::setBar(int index, double value)
{
    if (index < 0 || index >= m_values.size())
        return;
    value = std::clamp(value, 0.0, 1.0);
    const double others = std::accumulate(m_values.begin(), m_values.end(), 0.0) - m_values[index];
    const int n = static_cast<int>(m_values.size());
    for (int i = 0; i < n; ++i) {
        if (i == index)
            continue;
        if (others > 1e-12)
            m_values[i] *= (1.0 - value) / others;
        else
            m_values[i] = n > 1 ? (1.0 - value) / (n - 1) : 0.0;
    }
    m_values[index] = n > 1 ? value : 1.0;
    update();
    emit edited(m_values);
}

QRectF BarEditor::plotRect() const
{
    const QFontMetricsF fm(font());
    return QRectF(rect()).adjusted(fm.horizontalAdvance(QStringLiteral("0.00")) + 6, 1.8 * fm.height() + 4, -4,
                                   -(2 * fm.height() + 4));
}

QSize BarEditor::sizeHint() const
{
    return {320, 170};
}

QSize BarEditor::minimumSizeHint() const
{
    return {180, 110};
}

void BarEditor::paintEvent(QPaintEvent *)
{
    const LabColors c = LabColors::from(palette());
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetricsF fm(font());
    const QRectF plot = plotRect();
    painter.setPen(c.text);
    painter.drawText(QRectF(0, 0, width(), fm.height() + 2), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    painter.setPen(QPen(c.border, 1));
    for (double tick : {0.0, 0.5, 1.0}) {
        const double y = plot.bottom() - tick * plot.height();
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(c.muted);
        painter.drawText(QRectF(0, y - fm.height() / 2, plot.left() - 4, fm.height()), Qt::AlignRight,
                         QString::number(tick, 'f', 1));
        painter.setPen(QPen(c.border, 1));
    }
    const int n = static_cast<int>(m_values.size());
    if (n == 0)
        return;
    const double slot = plot.width() / n;
    for (int i = 0; i < n; ++i) {
        const double h = m_values[i] * plot.height();
        const QRectF bar(plot.left() + i * slot + slot * 0.15, plot.bottom() - h, slot * 0.7, h);
        painter.fillRect(bar, i == m_dragged ? m_color.darker(120) : m_color);
        painter.setPen(c.text);
        painter.drawText(QRectF(plot.left() + i * slot, plot.bottom() + 2, slot, fm.height()), Qt::AlignCenter,
                         m_labels.value(i));
        painter.setPen(c.muted);
        painter.drawText(QRectF(plot.left() + i * slot, plot.bottom() + 2 + fm.height(), slot, fm.height()),
                         Qt::AlignCenter, QString::number(m_values[i], 'f', 2));
    }
}

void BarEditor::dragTo(const QPointF &position)
{
    const QRectF plot = plotRect();
    if (m_dragged < 0 || plot.height() <= 0)
        return;
    setBar(m_dragged, (plot.bottom() - position.y()) / plot.height());
}

void BarEditor::mousePressEvent(QMouseEvent *event)
{
    const QRectF plot = plotRect();
    const int n = static_cast<int>(m_values.size());
    if (n == 0 || plot.width() <= 0)
        return;
    const int i = static_cast<int>((event->position().x() - plot.left()) / (plot.width() / n));
    m_dragged = (i >= 0 && i < n) ? i : -1;
    dragTo(event->position());
}

void BarEditor::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton)
        dragTo(event->position());
}

void BarEditor::mouseReleaseEvent(QMouseEvent *)
{
    m_dragged = -1;
    update();
}

} // namespace specdec::gui
