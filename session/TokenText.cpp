// SPDX-License-Identifier: GPL-3.0-or-later
#include "TokenText.h"

namespace specdec::gui {

QString tokenString(const Vocabulary &vocabulary, TokenId id)
{
    if (id < 0 || id >= vocabulary.size())
        return QStringLiteral("?");
    const char32_t c = vocabulary.token(id);
    return QString::fromUcs4(&c, 1);
}

QString tokenGlyph(const Vocabulary &vocabulary, TokenId id)
{
    const QString s = tokenString(vocabulary, id);
    if (s == QLatin1String(" "))
        return QStringLiteral("␣");
    if (s == QLatin1String("\n"))
        return QStringLiteral("⏎");
    if (s == QLatin1String("\t"))
        return QStringLiteral("⇥");
    return s;
}

QString tokensString(const Vocabulary &vocabulary, std::span<const TokenId> ids)
{
    QString out;
    for (TokenId id : ids)
        out += tokenString(vocabulary, id);
    return out;
}

QString tokensGlyphs(const Vocabulary &vocabulary, std::span<const TokenId> ids)
{
    QString out;
    for (TokenId id : ids)
        out += tokenGlyph(vocabulary, id);
    return out;
}

} // namespace specdec::gui
