// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paints one token card: the token, q(x) and p(x), the die u on a 0–1 bar against min(1, p/q) (or the
// greedy equality check), and the verdict colour. Pure drawing; the content comes from a RoundTrace.

#include "LabColors.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <optional>

class QPainter;

namespace specdec::gui {

struct CardContent
{
    enum class State { Pending, Placeholder, Accepted, Rejected, Discarded, Residual, Bonus };
    QString glyph;
    QString caption;            ///< "#1", "K+1", "residual", "bonus"
    std::optional<double> q;
    std::optional<double> p;
    std::optional<double> r;    ///< r(x): the residual probability of a corrected token
    bool showTest = false;      ///< the die (or equality check) is shown
    bool greedy = false;
    double u = -1.0;
    double threshold = 0.0;
    bool passed = false;        ///< the test's outcome (when shown)
    State state = State::Pending;
    bool selected = false;
};

void paintCard(QPainter &painter, const QRectF &rect, const CardContent &card, const LabColors &colors,
               const QFont &font);

} // namespace specdec::gui
