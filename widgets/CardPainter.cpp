// SPDX-License-Identifier: GPL-3.0-or-later
#include "CardPainter.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace specdec::gui {

namespace {


QColor stateColor(CardContent::State state, const LabColors &c)
{
    switch (state) {
    case CardContent::State::Accepted: return c.accepted;
    case CardContent::State::Rejected: return c.rejected;
    case CardContent::State::Discarded: return c.discarded;
    case CardContent::State::Residual: return c.residual;
    case CardContent::State::Bonus: return c.bonus;
    case CardContent::State::Placeholder: return c.border;
    case CardContent::State::Pending: return c.draft;
    }
    return c.border;
}

QString number(double value)
{
    return QString::number(value, 'f', value < 0.001 && value > 0 ? 4 : 3);
}

void paintDie(QPainter &painter, const QRectF &bar, const CardContent &card, const LabColors &c, const QFont &small)
{
    // The 0–1 bar: the part below min(1, p/q) accepts, the rest rejects; u is the marker.
    const double t = std::clamp(card.threshold, 0.0, 1.0);
    QRectF acceptZone = bar;
    acceptZone.setWidth(bar.width() * t);
    QRectF rejectZone = bar;
    rejectZone.setLeft(acceptZone.right());
    painter.setPen(Qt::NoPen);
    painter.setBrush(c.tint(c.accepted, 0.35));
    painter.drawRect(acceptZone);
    painter.setBrush(c.tint(c.rejected, 0.25));
    painter.drawRect(rejectZone);
    painter.setPen(QPen(c.muted, 1));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    if (card.u >= 0.0) {
        const double x = bar.left() + bar.width() * std::clamp(card.u, 0.0, 1.0);
        painter.setPen(QPen(c.text, 2.5));
        painter.drawLine(QPointF(x, bar.top() - 4), QPointF(x, bar.bottom() + 4));
        QPainterPath tri;
        tri.moveTo(x - 5, bar.top() - 9);
        tri.lineTo(x + 5, bar.top() - 9);
        tri.lineTo(x, bar.top() - 3);
        tri.closeSubpath();
        painter.fillPath(tri, c.text);
    }
    painter.setFont(small);
    painter.setPen(c.muted);
    const QRectF label(bar.left() - 4, bar.bottom() + 3, bar.width() + 8, 18);
    const QString verdict = card.u >= 0.0 ? QStringLiteral("u %1 %2 %3")
                                                .arg(QString::number(card.u, 'f', 2),
                                                     card.passed ? QStringLiteral("<") : QStringLiteral("≥"),
                                                     QString::number(t, 'f', 2))
                                          : QStringLiteral("min(1,p/q) %1").arg(QString::number(t, 'f', 2));
    painter.drawText(label, Qt::AlignHCenter | Qt::AlignTop, verdict);
}

} // namespace

void paintCard(QPainter &painter, const QRectF &rect, const CardContent &card, const LabColors &c, const QFont &font)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor accent = stateColor(card.state, c);
    const bool placeholder = card.state == CardContent::State::Placeholder;
    const bool decided = card.state != CardContent::State::Pending && !placeholder;
    const bool discarded = card.state == CardContent::State::Discarded;

    QPen border(card.selected ? c.text : (decided ? accent : c.border), card.selected ? 3 : (decided ? 2 : 1.2));
    if (placeholder)
        border.setStyle(Qt::DashLine);
    painter.setPen(border);
    painter.setBrush(decided ? c.tint(accent, discarded ? 0.06 : 0.14) : c.card);
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 10, 10);

    const double w = rect.width();
    const bool compact = w < 84;
    QFont small = font;
    small.setPointSizeF(font.pointSizeF() * (compact ? 0.75 : 0.9));
    QFont glyphFont = font;
    glyphFont.setPixelSize(static_cast<int>(std::clamp(w * 0.42, 16.0, 52.0)));

    // caption and verdict mark
    const double pad = compact ? 4 : 10;
    QRectF top(rect.left() + pad, rect.top() + 6, w - 2 * pad, 20);
    painter.setFont(small);
    painter.setPen(c.muted);
    painter.drawText(top, Qt::AlignLeft | Qt::AlignVCenter, card.caption);
    if (card.showTest && !discarded) {
        painter.setPen(card.passed ? c.accepted : c.rejected);
        painter.drawText(top, Qt::AlignRight | Qt::AlignVCenter,
                         card.passed ? QStringLiteral("✓") : QStringLiteral("✗"));
    }

    // the token
    QRectF glyphRect(rect.left(), top.bottom(), w, glyphFont.pixelSize() * 1.6);
    painter.setFont(glyphFont);
    painter.setPen(discarded ? c.discarded : (placeholder ? c.muted : c.text));
    painter.drawText(glyphRect, Qt::AlignCenter, card.glyph);

    // q and p
    double y = glyphRect.bottom() + 2;
    const double line = QFontMetricsF(small).height() + 3;
    auto drawValue = [&](const QString &name, const QColor &color, std::optional<double> value) {
        if (!value)
            return;
        QRectF r(rect.left() + pad, y, w - 2 * pad, line);
        painter.setPen(discarded ? c.discarded : color);
        if (compact) {
            painter.drawText(r, Qt::AlignHCenter | Qt::AlignVCenter, number(*value));
        } else {
            painter.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, name);
            painter.drawText(r, Qt::AlignRight | Qt::AlignVCenter, number(*value));
        }
        y += line;
    };
    painter.setFont(small);
    drawValue(QStringLiteral("q(x)"), c.draft, card.q);
    drawValue(QStringLiteral("p(x)"), c.target, card.p);
    drawValue(QStringLiteral("r(x)"), c.residual, card.r);

    // the test
    if (card.showTest && !compact) {
        y += 12;
        if (card.greedy) {
            QRectF r(rect.left() + pad, y, w - 2 * pad, line * 2);
            painter.setPen(card.passed ? c.accepted : c.rejected);
            painter.drawText(r, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                             card.passed ? QCoreApplication::translate("CardPainter", "x = argmax p") : QCoreApplication::translate("CardPainter", "x ≠ argmax p"));
        } else {
            paintDie(painter, QRectF(rect.left() + pad, y, w - 2 * pad, 12), card, c, small);
        }
    } else if (discarded && !compact) {
        QRectF r(rect.left() + pad, y + 8, w - 2 * pad, line);
        painter.setPen(c.discarded);
        painter.drawText(r, Qt::AlignHCenter | Qt::AlignTop, QCoreApplication::translate("CardPainter", "discarded"));
    }
    painter.restore();
}

} // namespace specdec::gui
