// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the window writes a probability: one rounding for cards, captions, the distribution view and the arena,
// so the same number never reads 0.0006 in one place and 0.001 in another.

#include <QString>

namespace specdec::gui {

/// Three decimals; four for values below 0.001 (so a small p(x) does not read as 0.000).
QString probabilityText(double value);

/// The die u and the threshold t = min(1, p/q) it was compared with, as written side by side.
struct DieTexts
{
    QString u, threshold;
};
/// u ∈ [0, 1) is rounded down, so it never reads as a value the draw cannot take (0.9996 is "0.999", not
/// "1.000"), and t to the nearest; both with the fewest decimals from `decimals` up to 8 at which the texts
/// show the comparison that was made: u < t (accepted) or u ≥ t (rejected).
DieTexts dieTexts(double u, double threshold, int decimals = 3);

} // namespace specdec::gui
