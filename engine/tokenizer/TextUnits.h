// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Unicode character tests and UTF-8 steps the tokenizer stages share (ICU's character properties), named
// after the Rust predicates Hugging Face `tokenizers` uses (char::is_whitespace, is_alphanumeric, ...).

#include <cstddef>
#include <string>
#include <string_view>

namespace specdec::tok {

/// The code point starting at byte `i` of valid UTF-8 `text`; `i` moves past it.
char32_t nextCodePoint(std::string_view text, std::size_t &i);
/// Byte length of the UTF-8 sequence whose lead byte is `lead` (1 for a stray continuation byte).
std::size_t sequenceLength(unsigned char lead);
void appendUtf8(std::string &out, char32_t codePoint);

bool isWhitespace(char32_t c);   ///< Unicode White_Space (Rust char::is_whitespace)
bool isAlphanumeric(char32_t c); ///< Alphabetic or numeric (Rust char::is_alphanumeric)
bool isNumeric(char32_t c);      ///< General category Nd, Nl or No (Rust char::is_numeric)

/// Offset of the first byte of `text` that is not valid UTF-8, or npos.
std::size_t firstInvalidUtf8(std::string_view text);

/// `bytes` as text: valid UTF-8 kept, each maximal invalid subpart replaced by U+FFFD (Rust's
/// String::from_utf8_lossy). With `tail`, an incomplete sequence at the very end is not replaced but
/// returned in `*tail` (the bytes of a character still arriving).
std::string utf8Lossy(std::string_view bytes, std::string *tail = nullptr);

} // namespace specdec::tok
