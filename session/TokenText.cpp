// SPDX-License-Identifier: GPL-3.0-or-later
#include "TokenText.h"

namespace specdec::gui {

QString tokenString(const Tokenizer &vocabulary, TokenId id)
{
    if (id < 0 || id >= vocabulary.size())
        return QStringLiteral("?");
    return QString::fromStdString(vocabulary.display(id));
}

QString tokenGlyph(const Tokenizer &vocabulary, TokenId id)
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

QString tokensString(const Tokenizer &vocabulary, std::span<const TokenId> ids)
{
    if (vocabulary.kind() == Tokenizer::Kind::HuggingFace)
        return QString::fromStdString(vocabulary.decode(ids));
    QString out;
    for (TokenId id : ids)
        out += tokenString(vocabulary, id);
    return out;
}

QString tokensGlyphs(const Tokenizer &vocabulary, std::span<const TokenId> ids)
{
    QString out;
    for (TokenId id : ids)
        out += tokenGlyph(vocabulary, id);
    return out;
}

} // namespace specdec::gui
