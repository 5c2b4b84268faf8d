// SPDX-License-Identifier: GPL-3.0-or-later
#include "ByteLevelAlphabet.h"

#include "TextUnits.h"

namespace specdec::tok {

namespace {

struct Alphabet
{
    std::array<std::string, 256> chars;
    std::array<int, 324> bytes{}; // indexed by code point (all are below U+0144)

    Alphabet()
    {
        bytes.fill(-1);
        int extra = 0;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            const char32_t c = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + extra++);
            appendUtf8(chars[static_cast<std::size_t>(b)], c);
            bytes[c] = b;
        }
    }
};

const Alphabet &alphabet()
{
    static const Alphabet instance;
    return instance;
}

} // namespace

const std::string &byteLevelChar(std::uint8_t byte)
{
    return alphabet().chars[byte];
}

int byteLevelByte(char32_t c)
{
    return c < alphabet().bytes.size() ? alphabet().bytes[c] : -1;
}

std::string toByteLevel(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char b : bytes)
        out += byteLevelChar(static_cast<std::uint8_t>(b));
    return out;
}

} // namespace specdec::tok
