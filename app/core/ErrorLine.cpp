// SPDX-License-Identifier: GPL-3.0-or-later
#include "ErrorLine.h"

namespace specdec::app {

QString oneLineMessage(const QString &message, qsizetype maxChars)
{
    QString line;
    line.reserve(message.size());
    for (const QChar c : message) {
        const char16_t u = c.unicode();
        if (u == u'\n')
            line += QLatin1String("\\n");
        else if (u == u'\r')
            line += QLatin1String("\\r");
        else if (u == u'\t')
            line += QLatin1String("\\t");
        else if (u < 0x20 || u == 0x7f)
            line += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        else if ((u >= 0x80 && u < 0xa0) || u == 0x2028 || u == 0x2029)
            line += QStringLiteral("\\u{%1}").arg(u, 4, 16, QLatin1Char('0'));
        else
            line += c;
    }
    if (line.size() > maxChars) {
        line.truncate(maxChars);
        if (line.back().isHighSurrogate())
            line.chop(1);
        line += QChar(0x2026);
    }
    return line;
}

void printMessage(QTextStream &stream, const QString &program, const QString &kind, const QString &message)
{
    stream << program << QLatin1String(": ") << kind << QLatin1String(": ") << oneLineMessage(message) << '\n';
    stream.flush();
}

} // namespace specdec::app
