// SPDX-License-Identifier: GPL-3.0-or-later
#include "CombiningHat.h"

namespace specdec::app {

namespace {
constexpr char16_t kHat = u'\u0302';
constexpr char16_t kJoiner = u'\u200D';
} // namespace

QString withDrawnHats(const QString &text)
{
    if (bareHats(text) == 0)
        return text;
    QString out;
    out.reserve(text.size() + 4);
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == kHat && (i == 0 || text[i - 1] != kJoiner))
            out += QChar(kJoiner);
        out += text[i];
    }
    return out;
}

int bareHats(const QString &text)
{
    int bare = 0;
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text[i] == kHat && (i == 0 || text[i - 1] != kJoiner))
            ++bare;
    return bare;
}

} // namespace specdec::app
