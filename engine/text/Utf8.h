// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// UTF-8 <-> Unicode code points. Tokens of specdec-lab are code points, so Chinese and English work alike.

#include <string>
#include <string_view>

namespace specdec {

/// Decodes UTF-8 strictly (no overlongs, no surrogates, nothing above U+10FFFF, a leading BOM is dropped).
/// Throws Error naming the byte offset of the first invalid sequence; `what` names the source in the message.
std::u32string decodeUtf8(std::string_view bytes, std::string_view what = "text");

std::string encodeUtf8(char32_t codePoint);
std::string encodeUtf8(std::u32string_view text);

/// A code point as a person reads it in an error message or a table: 'a', '\n', ' ' as "␠", U+XXXX for controls.
std::string displayCodePoint(char32_t codePoint);

} // namespace specdec
