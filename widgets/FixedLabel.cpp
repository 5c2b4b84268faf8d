// SPDX-License-Identifier: GPL-3.0-or-later
#include "FixedLabel.h"

#include <algorithm>

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QPainter>

namespace specdec::gui {

FixedLabel::FixedLabel(int lines, QWidget *parent)
    : QWidget(parent)
    , m_lines(std::max(1, lines))
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_document.setDocumentMargin(0);
    relayout();
}

void FixedLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    relayout();
    update();
}

void FixedLabel::setRichText(bool rich)
{
    m_rich = rich;
    relayout();
    update();
}

QSize FixedLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    // A line as tall as a Chinese one too: the CJK fallback font is taller than most Latin fonts.
    const int line = std::max(fontMetrics().lineSpacing(),
                              fontMetrics().boundingRect(QStringLiteral("国gÅ")).height() + 1);
    return {fontMetrics().averageCharWidth() * 24 + m.left() + m.right(), line * m_lines + m.top() + m.bottom()};
}

QSize FixedLabel::minimumSizeHint() const
{
    return {0, sizeHint().height()};
}

void FixedLabel::relayout()
{
    m_document.setDefaultFont(font());
    if (m_rich)
        m_document.setHtml(m_text);
    else
        m_document.setPlainText(m_text);
}

void FixedLabel::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRect r = contentsRect();
    painter.setClipRect(r);
    painter.translate(r.topLeft());
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette = palette();
    context.palette.setColor(QPalette::Text, palette().color(foregroundRole()));
    m_document.documentLayout()->draw(&painter, context);
}

void FixedLabel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange) {
        relayout();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
