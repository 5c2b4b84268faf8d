#pragma once
// The specdec subcommands. Each takes its own arguments (without the command name) and returns the exit
// status; user errors are thrown (specdec::Error, cli::UsageError) and reported by main().

#include <QStringList>

namespace specdec::cli {

int runCommand(const QStringList &arguments);     ///< specdec run: generate, report rounds and metrics
int distCommand(const QStringList &arguments);    ///< specdec dist: one next-token distribution
int sampleCommand(const QStringList &arguments);  ///< specdec sample: counts of many continuations
int benchCommand(const QStringList &arguments);   ///< specdec bench: decoding throughput

} // namespace specdec::cli
