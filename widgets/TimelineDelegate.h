// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TimelineDelegate: paints a timeline row from a cached QStaticText. The list repaints every visible row each
// time a round is appended; a row's text never changes, so its glyph layout is made once, not per paint.
// The cache is bounded (rows near the ones painted, at most kCachedRows): a prepared text holds about a kB, and a
// long run lists hundreds of thousands of rounds.

#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

namespace specdec::gui {

class TimelineDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    /// The style's row, at least as tall as the row's text laid out with "␣" (a space), whose glyph comes from
    /// a fallback font taller than the item font: the next row's background no longer cuts its bottom.
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    /// Forgets the cached rows (the model was reset, or the font or language changed).
    void clearCache() { m_rows.clear(); }
    static constexpr int kCachedRows = 512;
    int cachedRows() const { return static_cast<int>(m_rows.size()); }

private:
    mutable QHash<int, QStaticText> m_rows;
};

} // namespace specdec::gui
