// SPDX-License-Identifier: GPL-3.0-or-later
#include "Utf8.h"

#include "Error.h"

#include <cstdint>
#include <cstdio>

namespace specdec {

std::u32string decodeUtf8(std::string_view bytes, std::string_view what)
{
    std::u32string out;
    out.reserve(bytes.size());
    const auto *s = reinterpret_cast<const unsigned char *>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF)
        i = 3;

    auto fail = [&](std::size_t offset, const char *why) {
        throw Error(std::string(what) + ": invalid UTF-8 at byte offset " + std::to_string(offset) + " (" + why + ")");
    };

    while (i < n) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            out.push_back(c);
            ++i;
            continue;
        }
        int length = 0;
        char32_t cp = 0;
        char32_t minimum = 0;
        if ((c & 0xE0) == 0xC0) {
            length = 2, cp = c & 0x1F, minimum = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3, cp = c & 0x0F, minimum = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4, cp = c & 0x07, minimum = 0x10000;
        } else {
            fail(i, (c & 0xC0) == 0x80 ? "unexpected continuation byte" : "invalid leading byte");
        }
        if (i + length > n)
            fail(i, "sequence truncated at end of input");
        for (int k = 1; k < length; ++k) {
            const unsigned char cc = s[i + k];
            if ((cc & 0xC0) != 0x80)
                fail(i, "missing continuation byte");
            cp = (cp << 6) | (cc & 0x3F);
        }
        if (cp < minimum)
            fail(i, "overlong encoding");
        if (cp >= 0xD800 && cp <= 0xDFFF)
            fail(i, "surrogate code point");
        if (cp > 0x10FFFF)
            fail(i, "code point above U+10FFFF");
        out.push_back(cp);
        i += length;
    }
    return out;
}

std::string encodeUtf8(char32_t cp)
{
    std::string out;
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return out;
}

std::string encodeUtf8(std::u32string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char32_t cp : text)
        out += encodeUtf8(cp);
    return out;
}

std::string displayCodePoint(char32_t cp)
{
    switch (cp) {
    case U'\n': return "'\\n'";
    case U'\t': return "'\\t'";
    case U'\r': return "'\\r'";
    case U' ': return "' '";
    default: break;
    }
    if (cp < 0x20 || cp == 0x7F) {
        char buffer[16];
        std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(cp));
        return buffer;
    }
    std::string quoted(1, '\'');
    quoted += encodeUtf8(cp);
    quoted += '\'';
    return quoted;
}

} // namespace specdec
