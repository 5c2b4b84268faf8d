// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The specdec subcommands. Each takes its own arguments (without the command name) and returns the exit
// status; user errors are thrown (specdec::Error, cli::UsageError) and reported by main().

#include <QStringList>

namespace specdec::cli {

int runCommand(const QStringList &arguments);        ///< specdec run: generate, report rounds and metrics
int distCommand(const QStringList &arguments);       ///< specdec dist: one next-token distribution
int sampleCommand(const QStringList &arguments);     ///< specdec sample: counts of many continuations
int benchCommand(const QStringList &arguments);      ///< specdec bench: decoding throughput
int losslessCommand(const QStringList &arguments);   ///< specdec lossless: one-step lab with wrong variants
int compareCommand(const QStringList &arguments);    ///< specdec compare: several drafts on one target
int sweepCommand(const QStringList &arguments);      ///< specdec sweep: drafts x temperatures x K, measured
int raceCommand(const QStringList &arguments);       ///< specdec race: the target alone against speculative decoding
int onnxOpsCommand(const QStringList &arguments);    ///< specdec onnx-ops: supported operators
int onnxRunCommand(const QStringList &arguments);    ///< specdec onnx-run: run a model on tensor files
int tokenizeCommand(const QStringList &arguments);   ///< specdec tokenize: tokenizer.json ids of a text
int detokenizeCommand(const QStringList &arguments); ///< specdec detokenize: the text of token ids

} // namespace specdec::cli
