// SPDX-License-Identifier: GPL-3.0-or-later
#include "ParseArguments.h"

#include "Output.h"

namespace specdec::cli {

bool parseArguments(QCommandLineParser &parser, const QString &command, const QString &description,
                    const QStringList &arguments)
{
    parser.setApplicationDescription(description);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QCoreApplication::translate("specdec", "Show this help."));
    parser.addOption(help);
    QStringList withProgram = arguments;
    withProgram.prepend(QStringLiteral("specdec ") + command);
    if (!parser.parse(withProgram))
        throw UsageError(parser.errorText());
    if (parser.isSet(help)) {
        out() << parser.helpText();
        out().flush();
        return false;
    }
    if (!parser.positionalArguments().isEmpty())
        throw UsageError(QCoreApplication::translate("specdec", "unexpected argument '%1'")
                             .arg(parser.positionalArguments().constFirst()));
    return true;
}

} // namespace specdec::cli
