// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the window writes a probability: one rounding for cards, captions, the distribution view and the arena,
// so the same number never reads 0.0006 in one place and 0.001 in another.

#include <QString>

namespace specdec::gui {

/// Three decimals; four for values below 0.001 (so a small p(x) does not read as 0.000).
QString probabilityText(double value);

} // namespace specdec::gui
