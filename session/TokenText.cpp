// SPDX-License-Identifier: GPL-3.0-or-later
#include "TokenText.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextBoundaryFinder>

namespace specdec::gui {

namespace {

/// A byte or a control character as its code, the way the traces write a byte: "<E5>", "<05>".
QString byteCode(unsigned value)
{
    return QStringLiteral("<%1>").arg(value, 2, 16, QLatin1Char('0')).toUpper();
}

} // namespace

QString tokenString(const Tokenizer &vocabulary, TokenId id)
{
    if (id < 0 || id >= vocabulary.size())
        return QStringLiteral("?");
    return QString::fromStdString(vocabulary.display(id));
}

QString tokenGlyph(const Tokenizer &vocabulary, TokenId id)
{
    QString s = tokenString(vocabulary, id);
    if (s == QLatin1String(" "))
        return QStringLiteral("␣");
    // (also inside a piece: ".\n" is one token of Qwen3, drawn on one line as ".⏎")
    s.replace(QLatin1Char('\n'), QStringLiteral("⏎"));
    s.replace(QLatin1Char('\t'), QStringLiteral("⇥"));
    return visibleControls(s);
}

QString visibleControls(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text)
        if ((c.unicode() < 0x20 && c != QLatin1Char('\n') && c != QLatin1Char('\t')) || c.unicode() == 0x7F)
            out += byteCode(c.unicode());
        else
            out += c;
    return out;
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
    const bool pieces = vocabulary.kind() == Tokenizer::Kind::HuggingFace;
    QString out;
    for (TokenId id : ids) {
        if (pieces && !out.isEmpty())
            out += QLatin1Char('|');
        out += tokenGlyph(vocabulary, id);
    }
    return out;
}

QString pendingBytesText(const std::string &bytes)
{
    QString out;
    for (const char b : bytes)
        out += byteCode(static_cast<unsigned char>(b));
    return out;
}

TokenLook tokenLook(const Tokenizer &vocabulary, TokenId id)
{
    TokenLook look;
    look.text = tokenGlyph(vocabulary, id);
    if (id < 0 || id >= vocabulary.size())
        return look;
    const TokenPiece piece = vocabulary.piece(id);
    QString tip = QCoreApplication::translate("TokenText", "“%1”: token %2").arg(look.text).arg(id);
    if (vocabulary.kind() == Tokenizer::Kind::HuggingFace) {
        const QString spelled = QString::fromStdString(piece.text);
        if (spelled != look.text)
            tip += QLatin1Char('\n')
                + QCoreApplication::translate("TokenText", "in the tokenizer.json: “%1”").arg(spelled);
    }
    switch (piece.kind) {
    case TokenPiece::Kind::Text: break;
    case TokenPiece::Kind::Special:
        look.kind = TokenLook::Kind::Special;
        tip += QLatin1Char('\n')
            + QCoreApplication::translate("TokenText", "A special token: it marks, it writes no text.");
        break;
    case TokenPiece::Kind::Byte: {
        static const QRegularExpression bytesOnly(QStringLiteral("^(<[0-9A-F]{2}>)+$"));
        if (bytesOnly.match(look.text).hasMatch()) {
            look.kind = TokenLook::Kind::Byte;
            tip += QLatin1Char('\n')
                + QCoreApplication::translate("TokenText",
                                              "Bytes of a character split into several tokens: the "
                                              "character appears when its last byte comes.");
        } else {
            look.kind = TokenLook::Kind::Partial;
            tip += QLatin1Char('\n')
                + QCoreApplication::translate("TokenText",
                                              "Part of a character: its other bytes come in the next "
                                              "or the previous token.");
        }
        break;
    }
    }
    look.toolTip = tip;
    return look;
}

QString elidedPiece(const QString &text, int maxCharacters)
{
    // The first maxCharacters - 1 characters and "…" when there are more than maxCharacters.
    QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, text);
    int count = 0;
    qsizetype keep = 0;
    while (graphemes.toNextBoundary() >= 0) {
        ++count;
        if (count == maxCharacters - 1)
            keep = graphemes.position();
        if (count > maxCharacters)
            return text.left(keep) + QStringLiteral("…");
    }
    return text;
}

} // namespace specdec::gui
