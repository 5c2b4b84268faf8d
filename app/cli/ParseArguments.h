// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs a QCommandLineParser over a subcommand's arguments, turning its failures into UsageError.

#include "CliOptions.h"

#include <QCommandLineParser>
#include <QStringList>

namespace specdec::cli {

/// Parses `arguments` (the command name first); returns false when --help was printed.
bool parseArguments(QCommandLineParser &parser, const QString &command, const QString &description,
                    const QStringList &arguments);

} // namespace specdec::cli
