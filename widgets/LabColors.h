// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colours of the lab, derived from the widget's QPalette so that light and dark themes both read well:
// the apprentice (draft, q), the head chef (target, p), and the verdicts.

#include <QColor>
#include <QPalette>

namespace specdec::gui {

struct LabColors
{
    QColor draft;   ///< q, the apprentice
    QColor target;  ///< p, the head chef
    QColor overlap; ///< min(p, q)
    QColor accepted;
    QColor rejected;
    QColor discarded;
    QColor residual;
    QColor bonus;
    QColor text;
    QColor muted; ///< secondary text
    QColor card;  ///< card background
    QColor border;
    QColor base;

    static LabColors from(const QPalette &palette);
    /// `color` blended toward the palette base: a calm fill for backgrounds.
    QColor tint(const QColor &color, double amount) const;
};

} // namespace specdec::gui
