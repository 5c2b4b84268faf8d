// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one printer of the errors and warnings of both programs (specdec and specdec-lab): "PROGRAM: error:
// MESSAGE" on one line, whatever the message holds. Line breaks and other control characters in a message
// (a newline in --variant, a corpus path, model metadata) are made visible ("\n" as the two characters \ n),
// so an error can never run to several lines or forge a line of its own.

#include <QString>
#include <QTextStream>

namespace specdec::app {

/// `message` with every control character visible: \n \r \t as those two characters, others as \xNN (C0,
/// DEL) or \u{NNNN} (C1, U+2028, U+2029); an over-long message is cut to `maxChars` with "…".
QString oneLineMessage(const QString &message, qsizetype maxChars = 2000);
/// Writes "PROGRAM: KIND: MESSAGE\n" (kind "error", "warning", "internal error") to `stream` and flushes it.
void printMessage(QTextStream &stream, const QString &program, const QString &kind, const QString &message);

} // namespace specdec::app
