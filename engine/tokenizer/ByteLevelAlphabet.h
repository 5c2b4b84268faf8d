// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPT-2's byte-level alphabet: every byte 0..255 as a printable character (printable Latin-1 bytes stand for
// themselves, the other 68 become U+0100.. in order), so any UTF-8 text is a string over 256 symbols
// ("Ġ" is the space byte 0x20, "Ċ" the newline). Used by the ByteLevel pre-tokenizer and decoder.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace specdec::tok {

/// The UTF-8 of the character that stands for `byte`.
const std::string &byteLevelChar(std::uint8_t byte);
/// The byte the character `c` stands for, or -1 when `c` is not in the alphabet.
int byteLevelByte(char32_t c);
/// `bytes` mapped to the alphabet.
std::string toByteLevel(std::string_view bytes);

} // namespace specdec::tok
