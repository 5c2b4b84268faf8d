// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Command-line options shared by the specdec commands, and their translation into engine settings.

#include "Continuations.h"
#include "Corpus.h"
#include "CorpusLocations.h"
#include "Experiment.h"
#include "JsonReport.h"

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <stdexcept>

namespace specdec::cli {

using namespace specdec::app; // the shared reports, session files and exports of app/core

/// A user error in the command line: printed as one line, exit status 2.
class UsageError : public std::runtime_error
{
public:
    explicit UsageError(const QString &message)
        : std::runtime_error(message.toStdString())
    {
    }
};

enum OptionGroup {
    CorpusOptions = 0x1,  ///< --corpus
    ModelOptions = 0x2,   ///< --target --draft --draft-corpus --threads
    DecodeOptions = 0x4,  ///< --prompt --tokens -k --seed --mode --policy --variant --tree
    SamplerOptions = 0x8, ///< --temperature --draft-temperature --top-k --top-p
    OutputOptions = 0x10, ///< --json
};

/// Adds the options of `groups` to `parser`.
void addOptions(QCommandLineParser &parser, int groups);

/// Reads the options present in `parser` into a Setup (defaults for the rest; with --session FILE, the
/// file's setup for the rest); throws UsageError or specdec::Error.
/// --tokenizer chars|PATH (on the commands that take model specs).
void addTokenizerOption(QCommandLineParser &parser);

Setup readSetup(const QCommandLineParser &parser);
/// Follows the target's sampling advice (a model folder's generation_config.json: temperature, top-k, top-p, or
/// greedy) when the command line sets none of --temperature, --draft-temperature, --top-k, --top-p and no
/// --session gives the setup; the draft samples as the target does. Returns the line that says so (empty when
/// nothing changed), for stderr.
QString followSamplingAdvice(const QCommandLineParser &parser, const LanguageModel &target, Setup &setup);
SamplerSettings readSampler(const QCommandLineParser &parser);
DecodingMode readMode(const QCommandLineParser &parser);
Variant readVariant(const QCommandLineParser &parser);
/// --variant read as a tree rule (correct, no-residual-update, typical-acceptance).
TreeVariant readTreeVariant(const QCommandLineParser &parser);
/// A --tree value ("3,2,1"); throws specdec::Error naming the bad entry.
TreeShape readTree(const QString &text);

int readInt(const QCommandLineParser &parser, const QString &name, int defaultValue);
std::int64_t readInt64(const QCommandLineParser &parser, const QString &name, std::int64_t defaultValue);
double readDouble(const QCommandLineParser &parser, const QString &name, double defaultValue);
/// --seed as an unsigned 64-bit number (a negative number is an error, not 2^64 - 1).
std::uint64_t readSeed(const QCommandLineParser &parser);

} // namespace specdec::cli
