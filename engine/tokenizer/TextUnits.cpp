// SPDX-License-Identifier: GPL-3.0-or-later
#include "TextUnits.h"

#include <unicode/uchar.h>

namespace specdec::tok {

std::size_t sequenceLength(unsigned char lead)
{
    if (lead < 0x80)
        return 1;
    if (lead >= 0xF0 && lead <= 0xF4)
        return 4;
    if (lead >= 0xE0 && lead <= 0xEF)
        return 3;
    if (lead >= 0xC2 && lead <= 0xDF)
        return 2;
    return 1;
}

char32_t nextCodePoint(std::string_view text, std::size_t &i)
{
    const auto b = static_cast<unsigned char>(text[i]);
    const std::size_t n = sequenceLength(b);
    if (n == 1 || i + n > text.size()) {
        ++i;
        return b;
    }
    char32_t c = n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k)
        c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += n;
    return c;
}

void appendUtf8(std::string &out, char32_t c)
{
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xE0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (c & 0x3F));
    }
}

bool isWhitespace(char32_t c)
{
    return u_isUWhiteSpace(static_cast<UChar32>(c));
}

bool isNumeric(char32_t c)
{
    const auto type = u_charType(static_cast<UChar32>(c));
    return type == U_DECIMAL_DIGIT_NUMBER || type == U_LETTER_NUMBER || type == U_OTHER_NUMBER;
}

bool isAlphanumeric(char32_t c)
{
    return u_isUAlphabetic(static_cast<UChar32>(c)) || isNumeric(c);
}

namespace {

/// Length of the valid UTF-8 sequence at `i` (0 if invalid); `*incomplete` when it is a valid prefix cut by
/// the end of `s`; `*valid` bytes of the longest valid prefix (the maximal subpart).
std::size_t validSequenceAt(std::string_view s, std::size_t i, bool *incomplete, std::size_t *prefix)
{
    const auto b = static_cast<unsigned char>(s[i]);
    *incomplete = false;
    *prefix = 1;
    if (b < 0x80)
        return 1;
    const std::size_t n = sequenceLength(b);
    if (n == 1)
        return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if (i + k >= s.size()) {
            *incomplete = true;
            *prefix = k;
            return 0;
        }
        const auto c = static_cast<unsigned char>(s[i + k]);
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (k == 1) {
            if (b == 0xE0)
                lo = 0xA0;
            else if (b == 0xED)
                hi = 0x9F;
            else if (b == 0xF0)
                lo = 0x90;
            else if (b == 0xF4)
                hi = 0x8F;
        }
        if (c < lo || c > hi) {
            *prefix = k;
            return 0;
        }
    }
    return n;
}

} // namespace

std::size_t firstInvalidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        bool incomplete = false;
        std::size_t prefix = 0;
        const std::size_t n = validSequenceAt(text, i, &incomplete, &prefix);
        if (n == 0)
            return i;
        i += n;
    }
    return std::string_view::npos;
}

std::string utf8Lossy(std::string_view bytes, std::string *tail)
{
    std::string out;
    out.reserve(bytes.size());
    if (tail)
        tail->clear();
    for (std::size_t i = 0; i < bytes.size();) {
        bool incomplete = false;
        std::size_t prefix = 0;
        const std::size_t n = validSequenceAt(bytes, i, &incomplete, &prefix);
        if (n > 0) {
            out.append(bytes.substr(i, n));
            i += n;
        } else if (incomplete && tail) {
            tail->assign(bytes.substr(i));
            break;
        } else {
            out += "\xEF\xBF\xBD";
            i += prefix;
        }
    }
    return out;
}

} // namespace specdec::tok
