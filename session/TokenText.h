// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tokens (code points) as text: raw for the transcript, made visible for cards and axis labels.

#include "Tokenizer.h"

#include <QString>

#include <span>

namespace specdec::gui {

/// The token as it appears in running text.
QString tokenString(const Tokenizer &vocabulary, TokenId id);
/// The token with white space made visible: ' ' → '␣', '\n' → '⏎', '\t' → '⇥'.
QString tokenGlyph(const Tokenizer &vocabulary, TokenId id);
/// Several tokens as running text.
QString tokensString(const Tokenizer &vocabulary, std::span<const TokenId> ids);
/// Several tokens with white space made visible.
QString tokensGlyphs(const Tokenizer &vocabulary, std::span<const TokenId> ids);

} // namespace specdec::gui
