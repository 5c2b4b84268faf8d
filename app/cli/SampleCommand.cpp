// SPDX-License-Identifier: GPL-3.0-or-later
// specdec sample: many independent short generations, counted; with --exact, compared with the target.
#include "CliOptions.h"
#include "Commands.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Continuations.h"
#include "Statistics.h"

#include <QCoreApplication>

#include <cmath>

namespace specdec::cli {

namespace {
constexpr std::int64_t kMaxSamples = 10'000'000;
} // namespace

int sampleCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | DecodeOptions | SamplerOptions | OutputOptions);
    parser.addOption(
        {QStringLiteral("samples"), tr("Number of independent generations."), tr("S"), QStringLiteral("10000")});
    parser.addOption(
        {QStringLiteral("exact"), tr("Also enumerate the target's exact probabilities and run a chi-square test.")});
    if (!parseArguments(parser, QStringLiteral("sample"),
                        tr("Count the continuations of many independent generations."), arguments))
        return 0;

    Setup setup = readSetup(parser);
    if (!parser.isSet(QStringLiteral("tokens")))
        setup.tokens = 2;
    const DecodingMode mode = readMode(parser);
    const std::int64_t samples = readInt64(parser, QStringLiteral("samples"), 10000);
    if (samples < 1 || samples > kMaxSamples) // each sample is a generation: 10^9 of them run for days
        throw UsageError(tr("--samples must be from 1 to %1, got %2").arg(kMaxSamples).arg(samples));
    const bool withDraft = mode == DecodingMode::Speculative;
    auto experiment = Experiment::load(setup, corpusCatalog(), withDraft, loadingLine(setup, withDraft));
    if (const QString line = followSamplingAdvice(parser, experiment->target(), setup); !line.isEmpty())
        err() << line << '\n';
    const Tokenizer &vocab = experiment->tokenizer();

    const auto counts = sampleContinuations(experiment->target(), experiment->draft(), setup.decoding, mode,
                                            experiment->prompt(), setup.tokens, samples);
    QJsonObject countsJson;
    for (const auto &[continuation, count] : counts)
        countsJson.insert(piecesToString(vocab, continuation), static_cast<double>(count));
    QJsonObject report{
        {QStringLiteral("mode"),
         mode == DecodingMode::Speculative ? QStringLiteral("speculative") : QStringLiteral("autoregressive")},
        {QStringLiteral("samples"), static_cast<double>(samples)},
        {QStringLiteral("tokens"), setup.tokens},
        {QStringLiteral("distinct"), static_cast<int>(counts.size())},
        {QStringLiteral("tree"), QString::fromStdString(setup.decoding.tree.describe())},
        {QStringLiteral("counts"), countsJson},
    };

    if (parser.isSet(QStringLiteral("exact"))) {
        if (std::pow(static_cast<double>(vocab.size()), setup.tokens) > 5e6)
            throw UsageError(
                tr("--exact enumerates V^tokens continuations; %1^%2 is too many").arg(vocab.size()).arg(setup.tokens));
        const auto exact = exactContinuations(experiment->target(), setup.decoding.target, experiment->prompt(),
                                              setup.tokens);
        QJsonObject expected;
        for (const auto &[continuation, probability] : exact)
            expected.insert(piecesToString(vocab, continuation), probability * static_cast<double>(samples));
        const ContinuationFit fit = fitContinuations(exact, counts);
        const ChiSquareResult &chi = fit.chi;
        report.insert(QStringLiteral("expected"), expected);
        report.insert(QStringLiteral("chi2"), std::isfinite(chi.statistic) ? QJsonValue(chi.statistic) : QJsonValue());
        report.insert(QStringLiteral("dof"), chi.degreesOfFreedom);
        report.insert(QStringLiteral("p_value"), chi.pValue);
        report.insert(QStringLiteral("tv"), fit.totalVariation);
    }

    if (parser.isSet(QStringLiteral("json"))) {
        printJson(report);
        return 0;
    }
    std::vector<std::pair<std::int64_t, std::vector<TokenId>>> sorted;
    for (const auto &[continuation, count] : counts)
        sorted.emplace_back(count, continuation);
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (std::size_t i = 0; i < std::min<std::size_t>(sorted.size(), 30); ++i)
        out() << QStringLiteral("%1  \"%2\"").arg(sorted[i].first, 8).arg(piecesToString(vocab, sorted[i].second))
              << '\n';
    if (report.contains(QStringLiteral("p_value")))
        out() << tr("chi-square %1 on %2 degrees of freedom, p-value %3")
                     .arg(report.value(QStringLiteral("chi2")).toDouble())
                     .arg(report.value(QStringLiteral("dof")).toInt())
                     .arg(report.value(QStringLiteral("p_value")).toDouble())
              << '\n';
    out().flush();
    return 0;
}

} // namespace specdec::cli
