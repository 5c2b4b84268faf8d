// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineDelegate.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

#include <cmath>
#include <cstdlib>
#include <iterator>

namespace specdec::gui {

void TimelineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    // Background, selection and focus as the style draws them, without the text.
    const QWidget *widget = opt.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    if (m_rows.size() >= kCachedRows && !m_rows.contains(index.row())) {
        // Forget the rows far from this one (those on screen are near it).
        for (auto it = m_rows.begin(); it != m_rows.end();)
            it = std::abs(it.key() - index.row()) > kCachedRows / 4 ? m_rows.erase(it) : std::next(it);
    }
    QStaticText &row = m_rows[index.row()];
    if (row.text() != text) {
        row.setText(text);
        row.setTextFormat(Qt::PlainText);
        row.prepare(QTransform(), opt.font);
    }
    const QRect r = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
    painter->save();
    painter->setFont(opt.font);
    painter->setPen(
        opt.palette.color(group, opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
    const qreal y = r.top() + (r.height() - row.size().height()) / 2.0;
    painter->drawStaticText(QPointF(r.left() + margin, y), row);
    painter->restore();
}

QSize TimelineDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    QStaticText text(opt.text + QStringLiteral("␣"));
    text.setTextFormat(Qt::PlainText);
    text.prepare(QTransform(), opt.font);
    // The text rectangle sits inside the row with the style's focus margins above and below.
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameVMargin, nullptr, widget) + 1;
    size.setHeight(std::max(size.height(), static_cast<int>(std::ceil(text.size().height())) + 2 * margin));
    return size;
}

} // namespace specdec::gui
