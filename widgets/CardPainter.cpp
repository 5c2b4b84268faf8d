// SPDX-License-Identifier: GPL-3.0-or-later
#include "CardPainter.h"

#include "NumberText.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
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

QFont scaled(const QFont &font, double factor)
{
    QFont f = font;
    if (font.pixelSize() > 0)
        f.setPixelSize(std::max(6, static_cast<int>(font.pixelSize() * factor)));
    else
        f.setPointSizeF(std::max(5.0, font.pointSizeF() * factor));
    return f;
}

/// The box `text` needs in `font` (a fallback font, e.g. for CJK, may be taller than the font's own height).
QSizeF needed(const QFont &font, const QString &text)
{
    const QFontMetricsF m(font);
    const QRectF box = m.boundingRect(QRectF(0, 0, 1e5, 1e5), Qt::AlignLeft | Qt::AlignTop, text);
    return {std::max(box.width(), m.horizontalAdvance(text)), std::max(box.height(), m.height())};
}

/// `font`, made smaller until `text` fits `width` (at most down to 60 %); nullopt when it never fits.
std::optional<QFont> fitting(const QFont &font, const QString &text, double width)
{
    QFont f = font;
    for (int i = 0; i < 6; ++i) {
        if (needed(f, text).width() <= width)
            return f;
        f = scaled(f, 0.9);
    }
    return std::nullopt;
}

/// The font's size in pixels: every length of a card that is not the card's own size follows it, so a larger
/// window font (presenter mode) gives larger glyphs, numbers and die bars.
double em(const QFont &font)
{
    return std::max(6, QFontInfo(font).pixelSize());
}

/// The die bar's height and the room above it for the u marker.
double barHeight(const QFont &font)
{
    return std::max(10.0, 0.8 * em(font));
}

/// Builds the layout at font scale `scale`; returns false when it needs more height than the card has (the
/// layout then holds what fitted, dropping the optional lines at the bottom).
bool build(CardLayout &out, const QRectF &rect, const CardContent &card, const LabColors &c, const QFont &font,
           double scale, bool force)
{
    const CardFrame &f = card.frame;
    out = CardLayout{};
    out.card = rect;
    const double w = rect.width();
    const bool compact = w < 84;
    const double pad = compact ? 4 : 10;
    const double left = rect.left() + pad;
    const double inner = w - 2 * pad;
    const double bottom = rect.bottom() - 6;
    const bool discarded = f.state == CardContent::State::Discarded;
    const bool placeholder = f.state == CardContent::State::Placeholder;
    const QFont small = scaled(font, (compact ? 0.8 : 0.9) * scale);
    double y = rect.top() + 5;
    bool fits = true;
    auto add = [&](const QString &text, const QFont &base, double top, int flags, const QColor &color, double width,
                   double x) -> std::optional<double> {
        const auto fontFit = fitting(base, text, width);
        if (!fontFit)
            return std::nullopt;
        const double h = needed(*fontFit, text).height() + 0.5;
        if (top + h > bottom + 0.5) {
            fits = false;
            return std::nullopt;
        }
        out.texts.push_back({text, *fontFit, QRectF(x, top, width, h), flags, color});
        return h;
    };

    // caption and verdict mark
    const QString mark = f.testShown && !discarded ? (!f.passed       ? QStringLiteral("?")
                                                          : *f.passed ? QStringLiteral("✓")
                                                                      : QStringLiteral("✗"))
                                                   : QString();
    // The verdict (✓, ✗, or the '?' of predict before reveal) in bold at 1.5× the text: read from the back
    // of a lecture hall, like the token. It hangs into the corner beside the (centred) token, so the card's
    // other lines keep their size.
    QFont markFont = scaled(font, (compact ? 1.2 : 1.5) * scale);
    markFont.setBold(true);
    const double markWidth = mark.isEmpty() ? 0.0 : needed(markFont, mark).width() + 2;
    const double rowHeight = needed(small, card.caption).height() + 0.5;
    add(card.caption, small, y, Qt::AlignLeft | Qt::AlignVCenter, c.muted, inner - markWidth, left);
    double markBottom = y;
    if (!mark.isEmpty())
        markBottom += add(mark, markFont, y, Qt::AlignRight | Qt::AlignVCenter,
                          !f.passed       ? c.text
                              : *f.passed ? c.accepted
                                          : c.rejected,
                          markWidth, left + inner - markWidth)
                          .value_or(0.0);
    y += rowHeight + 1;

    // the token: about four times the text size, as far as the card's width allows
    QFont glyphFont = font;
    // (and a third of the card's height, so that a short card — an arena lane — keeps its numbers legible)
    // (a larger scale than 1 grows it like the other texts, still within the card's width and height)
    const double grow = std::max(1.0, scale);
    const double glyph = std::max(1.2 * em(font), std::min({4.3 * em(font) * grow, 0.45 * w, rect.height() / 3.0}));
    glyphFont.setPixelSize(static_cast<int>(glyph * std::min(1.0, scale)));
    const bool chip = card.look != TokenLook::Kind::Text;
    if (card.look == TokenLook::Kind::Byte) { // bytes in a fixed-width font, like a hex dump
        const int pixels = glyphFont.pixelSize();
        glyphFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        glyphFont.setPixelSize(pixels);
    }
    // A long piece shrinks down to the size of the card's other texts, then is cut with "…".
    const double chipPad = chip ? std::max(4.0, 0.3 * em(font)) : 0.0;
    const double glyphWidth = w - 4 - 2 * chipPad;
    QString glyphText = card.glyph;
    QFont glyphFit = glyphFont;
    for (;;) {
        if (needed(glyphFit, glyphText).width() <= glyphWidth)
            break;
        if (glyphFit.pixelSize() * 0.9 >= QFontInfo(small).pixelSize()) {
            glyphFit.setPixelSize(static_cast<int>(glyphFit.pixelSize() * 0.9));
            continue;
        }
        glyphText = QFontMetricsF(glyphFit).elidedText(card.glyph, Qt::ElideRight, glyphWidth);
        out.glyphElided = true;
        break;
    }
    const double glyphHeight = needed(glyphFit, glyphText).height() + 0.5;
    // A chip as wide as the mark's column starts below the mark (the mark hangs below its row).
    const double textWidth = std::min(glyphWidth, needed(glyphFit, glyphText).width());
    if (chip && rect.center().x() + textWidth / 2 + chipPad > left + inner - markWidth)
        y = std::max(y, markBottom + 1);
    if (y + glyphHeight > bottom + 0.5)
        return false; // the token always shows: a smaller scale is needed
    const QRectF glyphRect(rect.left() + 2 + chipPad, y, glyphWidth, glyphHeight);
    out.texts.push_back(
        {glyphText, glyphFit, glyphRect, Qt::AlignCenter, discarded ? c.discarded : (placeholder ? c.muted : c.text)});
    if (chip) {
        out.chip = QRectF(glyphRect.center().x() - textWidth / 2 - chipPad, y, textWidth + 2 * chipPad, glyphHeight);
    }
    y += glyphHeight + 1;

    // q, p, r
    auto value = [&](const QString &name, const QColor &color, std::optional<double> v) {
        if (!v)
            return;
        const QString number = probabilityText(*v);
        const QColor ink = discarded ? c.discarded : color;
        const double nameWidth = needed(small, name).width();
        const double numberWidth = needed(small, number).width();
        if (!compact && nameWidth + numberWidth + 6 <= inner) {
            const double h = std::max(needed(small, name).height(), needed(small, number).height()) + 0.5;
            if (y + h > bottom + 0.5) {
                fits = false;
                return;
            }
            out.texts.push_back({name, small, QRectF(left, y, nameWidth + 1, h), Qt::AlignLeft | Qt::AlignVCenter, ink});
            out.texts.push_back({number, small, QRectF(left + inner - numberWidth - 1, y, numberWidth + 1, h),
                                 Qt::AlignRight | Qt::AlignVCenter, ink});
            y += h + 2;
        } else if (const auto h = add(number, small, y, Qt::AlignHCenter | Qt::AlignVCenter, ink, inner, left)) {
            y += *h + 2;
        }
    };
    value(QStringLiteral("q(x)"), c.draft, f.q);
    value(QStringLiteral("p(x)"), c.target, f.p);
    value(QStringLiteral("r(x)"), c.residual, f.r);

    // the test
    if (f.testShown && !discarded) {
        y += compact ? 4 : 8;
        if (card.greedy) {
            const QString text = !f.passed ? QStringLiteral("x = argmax p ?")
                : *f.passed                ? QCoreApplication::translate("CardPainter", "x = argmax p")
                                           : QCoreApplication::translate("CardPainter", "x ≠ argmax p");
            add(text, small, y, Qt::AlignHCenter | Qt::AlignVCenter,
                !f.passed       ? c.text
                    : *f.passed ? c.accepted
                                : c.rejected,
                inner, left);
        } else {
            const double bar = barHeight(font) * grow;
            const double barTop = y + 0.8 * bar; // room for the u marker above the bar
            if (barTop + bar <= bottom) {
                out.dieBar = QRectF(left + 2, barTop, inner - 4, bar);
                y = barTop + bar + 0.5 * bar;
                const QString relation = !f.passed ? QStringLiteral("?")
                    : *f.passed                    ? QStringLiteral("<")
                                                   : QStringLiteral("≥");
                // The numbers as the distribution view's caption writes them (one rounding, NumberText.h), on
                // the card's whole width.
                const QString t = probabilityText(f.threshold.value_or(0.0));
                // u rounded down with the digits the comparison needs (never "u 1.000": u < 1).
                const DieTexts die = f.u ? dieTexts(*f.u, f.threshold.value_or(0.0)) : DieTexts{};
                const QString text = f.u ? QStringLiteral("u %1 %2 %3").arg(die.u, relation, die.threshold)
                                         : QStringLiteral("min(1,p/q) %1").arg(t);
                add(text, small, y, Qt::AlignHCenter | Qt::AlignTop, c.muted, w - 12, rect.left() + 6);
            } else {
                fits = false;
            }
        }
    } else if (discarded) {
        y += compact ? 4 : 8;
        add(QCoreApplication::translate("CardPainter", "discarded"), small, y, Qt::AlignHCenter | Qt::AlignTop,
            c.discarded, inner, left);
    }
    return fits || force;
}

void paintDie(QPainter &painter, const QRectF &bar, const CardContent &card, const LabColors &c)
{
    const double m = bar.height() / 10.0; // the marker's sizes follow the bar's (and so the font's)
    // The 0–1 bar: the part below min(1, p/q) accepts, the rest rejects; u is the marker.
    const double t = std::clamp(card.frame.threshold.value_or(0.0), 0.0, 1.0);
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
    if (card.frame.u) {
        const double x = bar.left() + bar.width() * std::clamp(*card.frame.u, 0.0, 1.0);
        painter.setPen(QPen(c.text, 2.5 * m));
        painter.drawLine(QPointF(x, bar.top() - 3 * m), QPointF(x, bar.bottom() + 3 * m));
        QPainterPath tri;
        tri.moveTo(x - 4 * m, bar.top() - 8 * m);
        tri.lineTo(x + 4 * m, bar.top() - 8 * m);
        tri.lineTo(x, bar.top() - 2 * m);
        tri.closeSubpath();
        painter.fillPath(tri, c.text);
    }
}

} // namespace

CardLayout layoutCard(const QRectF &rect, const CardContent &card, const LabColors &colors, const QFont &font)
{
    CardLayout layout;
    // A card wider than kCardBaseWidth tries its texts larger first (in steps down to the strip's font).
    const double grow = std::clamp(rect.width() / kCardBaseWidth, 1.0, kMaxCardTextScale);
    for (double scale = grow; scale > 1.0; scale -= 0.1)
        if (build(layout, rect, card, colors, font, scale, false))
            return layout;
    for (double scale : {1.0, 0.9, 0.8, 0.7, 0.6})
        if (build(layout, rect, card, colors, font, scale, false))
            return layout;
    build(layout, rect, card, colors, font, 0.6, true); // the lines that fit; the rest left out whole
    return layout;
}

void paintCard(QPainter &painter, const QRectF &rect, const CardContent &card, const LabColors &c, const QFont &font)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const CardContent::State state = card.frame.state;
    const QColor accent = stateColor(state, c);
    const bool placeholder = state == CardContent::State::Placeholder;
    const bool decided = state != CardContent::State::Pending && !placeholder;
    const bool discarded = state == CardContent::State::Discarded;

    QPen border(card.selected ? c.text : (decided ? accent : c.border), card.selected ? 3 : (decided ? 2 : 1.2));
    if (placeholder)
        border.setStyle(Qt::DashLine);
    painter.setPen(border);
    painter.setBrush(decided ? c.tint(accent, discarded ? 0.06 : 0.14) : c.card);
    painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), 10, 10);

    const CardLayout layout = layoutCard(rect, card, c, font);
    if (!layout.chip.isEmpty()) {
        const QColor ink = discarded ? c.discarded : c.muted;
        QPen outline(ink, 1.2);
        if (card.look == TokenLook::Kind::Partial)
            outline.setStyle(Qt::DashLine);
        painter.setPen(outline);
        painter.setBrush(card.look == TokenLook::Kind::Byte ? QBrush(c.tint(ink, 0.22)) : QBrush(Qt::NoBrush));
        painter.drawRoundedRect(layout.chip, 5, 5);
    }
    if (!layout.dieBar.isEmpty())
        paintDie(painter, layout.dieBar, card, c);
    for (const CardText &t : layout.texts) {
        painter.setFont(t.font);
        painter.setPen(t.color);
        painter.drawText(t.rect, t.flags, t.text);
    }
    painter.restore();
}

} // namespace specdec::gui
