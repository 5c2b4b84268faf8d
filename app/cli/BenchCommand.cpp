// SPDX-License-Identifier: GPL-3.0-or-later
// specdec bench: decoding throughput of the engine on the shipped corpora (a benchmark, not a test).
#include "CacheBench.h"
#include "CliOptions.h"
#include "Commands.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Generation.h"
#include "LosslessLab.h"
#include "Metrics.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <chrono>

namespace specdec::cli {

namespace {

struct Case
{
    const char *corpus;
    const char *target;
    const char *draft;
    const char *prompt;
};

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int benchCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, OutputOptions);
    parser.addOption({QStringLiteral("tokens"), tr("Tokens per measured generation."), tr("n"), QStringLiteral("200000")});
    parser.addOption({QStringLiteral("repeat"), tr("Measured generations per case (the best counts)."), tr("n"),
                      QStringLiteral("3")});
    parser.addOption(
        {{QStringLiteral("k"), QStringLiteral("draft-length")}, tr("Draft length K."), tr("K"), QStringLiteral("4")});
    parser.addOption({QStringLiteral("kv-cache-speedup"),
                      tr("Instead: autoregressive decoding of an ONNX target with its key/value cache against "
                         "without it, side by side (300 tokens, 1 thread by default); prints the ratio.")});
    parser.addOption({QStringLiteral("target"), tr("With --kv-cache-speedup: the target model."), tr("spec"),
                      QStringLiteral("onnx:corpora/kjv/models/target.onnx")});
    parser.addOption({QStringLiteral("prompt"), tr("With --kv-cache-speedup: the text to continue."), tr("text"),
                      QStringLiteral("And God said")});
    parser.addOption({QStringLiteral("threads"), tr("With --kv-cache-speedup: threads of the ONNX executor."), tr("n"),
                      QStringLiteral("1")});
    if (!parseArguments(parser, QStringLiteral("bench"),
                        tr("Measure decoding throughput: n-gram target and draft on kjv and tang-song."), arguments))
        return 0;
    if (parser.isSet(QStringLiteral("kv-cache-speedup"))) {
        Setup setup;
        setup.corpus = "kjv";
        setup.target = parser.value(QStringLiteral("target")).toStdString();
        setup.prompt = parser.value(QStringLiteral("prompt")).toStdString();
        setup.tokens = parser.isSet(QStringLiteral("tokens")) ? readInt(parser, QStringLiteral("tokens"), 300) : 300;
        setup.threads = readInt(parser, QStringLiteral("threads"), 1);
        setup.decoding.target.temperature = 0.0;
        setup.validate();
        return benchKvCache(setup, std::max(1, readInt(parser, QStringLiteral("repeat"), 3)),
                            parser.isSet(QStringLiteral("json")));
    }
    const int tokens = readInt(parser, QStringLiteral("tokens"), 200000);
    const int repeat = std::max(1, readInt(parser, QStringLiteral("repeat"), 3));
    const int k = readInt(parser, QStringLiteral("k"), 4);

    const Case cases[] = {{"kjv", "ngram:6", "ngram:2", "In the beginning"},
                          {"tang-song", "ngram:6", "ngram:2", "床前明月光"}};
    QJsonArray results;
    if (!parser.isSet(QStringLiteral("json")))
        out() << tr("speculative / autoregressive: tokens per second of speculative decoding (n-gram draft, K=%1) and "
                    "of the target alone, the best of %2 generations of %3 tokens each; n-gram calls are cheap for "
                    "target and draft alike, so this is the engine's throughput, not a speedup (specdec race shows "
                    "one)")
                     .arg(k)
                     .arg(repeat)
                     .arg(tokens)
              << '\n';
    out().flush();
    for (const Case &c : cases) {
        // progress on stderr (stdout keeps the results, and --json one document)
        err() << tr("specdec bench: %1: loading the models").arg(QLatin1String(c.corpus)) << '\n';
        err().flush();
        Setup setup;
        setup.corpus = c.corpus;
        setup.target = c.target;
        setup.draft = c.draft;
        setup.prompt = c.prompt;
        setup.tokens = tokens;
        setup.decoding.draftLength = k;
        const auto loadStart = std::chrono::steady_clock::now();
        auto experiment = Experiment::load(setup, corpusCatalog(), true, loadingLine(setup, true));
        const double loadSeconds = secondsSince(loadStart);

        double bestSpeculative = 0.0;
        double bestAutoregressive = 0.0;
        RunMetrics metrics;
        for (int r = 0; r < repeat; ++r) {
            setup.decoding.seed = static_cast<std::uint64_t>(r);
            err() << tr("specdec bench: %1: generation %2 of %3 (speculative, then autoregressive)")
                         .arg(QLatin1String(c.corpus))
                         .arg(r + 1)
                         .arg(repeat)
                  << '\n';
            err().flush();
            const Generation spec = generateSpeculative(experiment->target(), *experiment->draft(), setup.decoding,
                                                        experiment->prompt(), tokens);
            const Generation ar = generateAutoregressive(experiment->target(), setup.decoding.target, setup.decoding.seed,
                                                         experiment->prompt(), tokens, {}, setup.decoding.kvCache);
            bestSpeculative = std::max(bestSpeculative, tokens / spec.seconds);
            bestAutoregressive = std::max(bestAutoregressive, tokens / ar.seconds);
            metrics = computeMetrics(spec.rounds, spec.seconds, ar.seconds);
        }
        const QJsonObject result{
            {QStringLiteral("corpus"), QLatin1String(c.corpus)},
            {QStringLiteral("vocabulary_size"), experiment->tokenizer().size()},
            {QStringLiteral("target"), QLatin1String(c.target)},
            {QStringLiteral("draft"), QLatin1String(c.draft)},
            {QStringLiteral("k"), k},
            {QStringLiteral("tokens"), tokens},
            {QStringLiteral("load_seconds"), loadSeconds},
            {QStringLiteral("speculative_tokens_per_second"), bestSpeculative},
            {QStringLiteral("autoregressive_tokens_per_second"), bestAutoregressive},
            {QStringLiteral("acceptance_rate"), metrics.acceptanceRate},
            {QStringLiteral("tokens_per_round"), metrics.tokensPerRound},
            {QStringLiteral("lossless_lab_seconds_per_million"), 0.0},
        };
        // The lossless lab: 10^6 one-step samples from the first position's p and q.
        DistributionMatrix row;
        experiment->target().distributions(experiment->prompt(), 1, row);
        const Eigen::VectorXd p = row.row(0).transpose();
        experiment->draft()->distributions(experiment->prompt(), 1, row);
        LosslessLab lab(p, row.row(0).transpose(), Variant::Correct);
        Rng rng(1);
        const auto labStart = std::chrono::steady_clock::now();
        lab.run(1000000, rng);
        const double labSeconds = secondsSince(labStart);
        QJsonObject withLab = result;
        withLab.insert(QStringLiteral("lossless_lab_seconds_per_million"), labSeconds);
        results.append(withLab);
        if (!parser.isSet(QStringLiteral("json"))) {
            out() << tr("%1 (V=%2) target %3 draft %4 K=%5: speculative %6 tokens/s, autoregressive %7 tokens/s, "
                        "alpha %8, %9 tokens/round, models loaded in %10 s; lossless lab: 10^6 samples in %11 s")
                         .arg(QLatin1String(c.corpus))
                         .arg(experiment->tokenizer().size())
                         .arg(QLatin1String(c.target), QLatin1String(c.draft))
                         .arg(k)
                         .arg(bestSpeculative, 0, 'f', 0)
                         .arg(bestAutoregressive, 0, 'f', 0)
                         .arg(metrics.acceptanceRate, 0, 'f', 3)
                         .arg(metrics.tokensPerRound, 0, 'f', 2)
                         .arg(loadSeconds, 0, 'f', 2)
                         .arg(labSeconds, 0, 'f', 3)
                  << '\n';
            out().flush();
        }
    }
    if (parser.isSet(QStringLiteral("json")))
        printJson({{QStringLiteral("bench"), results}});
    return 0;
}

} // namespace specdec::cli
