// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CombiningHat: the hat of α̂ drawn over its letter. DejaVu Sans Book, Debian's default sans, places a combining
// circumflex (U+0302) by its mark lookup about 1.5 em above the letter (HarfBuzz through Qt 6.4): "α̂ = 93/117"
// read "α = 93/117" with a stray "ˆ" floating in the line above or cut off. After a zero-width joiner (U+200D)
// no lookup attaches the mark, and the font draws it where its outline stands, over the letter before it, in
// DejaVu Sans (Book, Bold, Oblique), DejaVu Serif and Noto Sans CJK alike. The window's own strings write α̂ so,
// as "α\u200D\u0302"; texts read from files (lessons, the quiz, the user guide) go through withDrawnHats.

#include <QString>

namespace specdec::app {

/// `text` with a zero-width joiner before every combining circumflex that has none.
QString withDrawnHats(const QString &text);
/// The number of combining circumflexes in `text` without a zero-width joiner before them (0: all drawn).
int bareHats(const QString &text);

} // namespace specdec::app
