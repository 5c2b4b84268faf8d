// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paints one token card from its frame (RoundFrame.h): the token, q(x) and p(x), the die u on a 0–1 bar against
// min(1, p/q) (or the greedy equality check), and the verdict colour. Pure drawing. The layout is its own
// function so a test can check that every text fits its box at every card size: a text that does not fit is
// drawn in a smaller font, and a line that has no room at all is left out (never cut in half). A token piece too
// long for the card even at the text's size is cut with "…" (the strip's tooltip holds it whole).

#include "LabColors.h"
#include "RoundFrame.h"
#include "TokenText.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

class QPainter;

namespace specdec::gui {

struct CardContent
{
    using State = CardFrame::State;
    CardFrame frame;
    QString glyph;                                ///< the token as shown, '?' when not known yet
    TokenLook::Kind look = TokenLook::Kind::Text; ///< a byte token or a part of a character is drawn as a chip
    QString caption;                              ///< "#1", "K+1", "residual", "bonus"
    bool greedy = false;
    bool selected = false;
    State state() const { return frame.state; }
};

/// One text of a card, where it is drawn and in which font.
struct CardText
{
    QString text;
    QFont font;
    QRectF rect;
    int flags = 0;
    QColor color;
};

struct CardLayout
{
    QRectF card; ///< the card's outline
    std::vector<CardText> texts;
    QRectF dieBar; ///< empty when no die is drawn
    /// Around the token: a byte chip (filled), a part of a character (dashed) or a special token (outlined);
    /// empty for whole characters.
    QRectF chip;
    bool glyphElided = false; ///< the token was too long for the card even at the text's size: cut, with "…"
};

/// The card width at which a card's texts are drawn in the strip's font. A wider card (a strip with height to
/// spare: a projector's stage, or early in a session when the transcript is short) draws its texts larger in
/// proportion, up to kMaxCardTextScale, when they still fit its height.
constexpr double kCardBaseWidth = 150.0;
constexpr double kMaxCardTextScale = 1.5;

/// The texts of one card at `rect` and where they go: at the largest scale (<= rect's width / kCardBaseWidth)
/// at which everything fits, a smaller font for a text too wide, lines left out whole when nothing fits.
CardLayout layoutCard(const QRectF &rect, const CardContent &card, const LabColors &colors, const QFont &font);
void paintCard(QPainter &painter, const QRectF &rect, const CardContent &card, const LabColors &colors,
               const QFont &font);

} // namespace specdec::gui
