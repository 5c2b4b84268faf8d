// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tokens as text: raw (decoded) for the transcript, made visible for cards and axis labels: a chars token as its
// character, a subword piece as Tokenizer::display writes it ("␣the", "▁of", "<E5>"), and how to draw it (TokenLook).

#include "Tokenizer.h"

#include <QString>

#include <span>

namespace specdec::gui {

/// The token as it appears in running text.
QString tokenString(const Tokenizer &vocabulary, TokenId id);
/// The token with white space made visible: ' ' → '␣', '\n' → '⏎', '\t' → '⇥' (also inside a piece), and every
/// other control character as its code (visibleControls).
QString tokenGlyph(const Tokenizer &vocabulary, TokenId id);
/// Text with its control characters other than '\n' and '\t' written as their codes, like bytes (U+0005 → "<05>",
/// DEL → "<7F>"): fonts draw them as nothing or a box, and the installed fonts have no control pictures (␅).
QString visibleControls(const QString &text);
/// Several tokens as running text.
QString tokensString(const Tokenizer &vocabulary, std::span<const TokenId> ids);
/// Several tokens with white space made visible; a tokenizer.json's pieces separated by '|' ("␣And|␣God").
QString tokensGlyphs(const Tokenizer &vocabulary, std::span<const TokenId> ids);

/// Bytes of a character not yet whole (TextStream::pending) as a chip's text: "<E5><88>".
QString pendingBytesText(const std::string &bytes);

/// How a token is drawn where it stands alone (a card, a tree node, a bar's label).
struct TokenLook
{
    enum class Kind {
        Text,    ///< whole characters ("e", "␣the", "▁of")
        Byte,    ///< only bytes of a character split into several tokens ("<E5>", "<E6><88>"): a byte chip
        Partial, ///< characters, then (or after) bytes of a character not whole in this piece ("␣<E6>")
        Special, ///< a special token ("<|endoftext|>")
    };
    Kind kind = Kind::Text;
    QString text;    ///< tokenGlyph()
    QString toolTip; ///< the whole piece, its id, the vocabulary's own spelling and what a byte token is
};
TokenLook tokenLook(const Tokenizer &vocabulary, TokenId id);

/// `text` when it has at most `maxCharacters` characters (a character and its combining marks count once), else
/// its first maxCharacters − 1 and "…".
QString elidedPiece(const QString &text, int maxCharacters);

} // namespace specdec::gui
