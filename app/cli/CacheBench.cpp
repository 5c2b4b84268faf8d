// SPDX-License-Identifier: GPL-3.0-or-later
// specdec bench --kv-cache: cached against uncached autoregressive decoding of one ONNX target, side by side in
// one process — the "≥ 20× faster with the cache" measured as one ratio.
#include "CacheBench.h"

#include "CliOptions.h"
#include "Output.h"

#include "DecodingState.h"
#include "Error.h"
#include "Generation.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <ctime>

namespace specdec::cli {

namespace {

/// CPU seconds of this process (all threads): on a busy machine it leaves out the time spent waiting for a core.
double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Timed
{
    Generation generation;
    double cpu = 0.0;
};

Timed decode(Experiment &experiment, int tokens, bool kvCache)
{
    const Setup &setup = experiment.setup();
    const double start = cpuSeconds();
    Timed t;
    t.generation = generateAutoregressive(experiment.target(), setup.decoding.target, setup.decoding.seed,
                                          experiment.prompt(), tokens, {}, kvCache);
    t.cpu = cpuSeconds() - start;
    return t;
}

} // namespace

int benchKvCache(Setup setup, int repeat, bool json)
{
    auto experiment = Experiment::load(setup, corpusCatalog(), false, loadingLine(setup, false));
    if (!experiment->target().hasKvCache())
        throw Error(experiment->target().describe()
                    + " keeps no key/value cache (bench --kv-cache needs an ONNX model in the decoder-with-past "
                      "layout, docs/model-format.md)");
    const int tokens = setup.tokens;
    decode(*experiment, 4, true); // warm-up
    decode(*experiment, 4, false);
    // The two modes alternate, `repeat` times; the fastest of each counts (a busy machine's stalls filtered out).
    Timed cached, uncached;
    for (int r = 0; r < repeat; ++r) {
        Timed on = decode(*experiment, tokens, true);
        Timed off = decode(*experiment, tokens, false);
        if (r == 0 || on.generation.seconds < cached.generation.seconds)
            cached = std::move(on);
        if (r == 0 || off.generation.seconds < uncached.generation.seconds)
            uncached = std::move(off);
    }
    const bool sameText = cached.generation.tokens == uncached.generation.tokens;
    const double wallRatio = cached.generation.seconds > 0 ? uncached.generation.seconds / cached.generation.seconds : 0;
    const double cpuRatio = cached.cpu > 0 ? uncached.cpu / cached.cpu : 0;
    if (json) {
        printJson({{QStringLiteral("target"), QString::fromStdString(experiment->target().describe())},
                   {QStringLiteral("tokens"), tokens},
                   {QStringLiteral("threads"), setup.threads},
                   {QStringLiteral("cached_seconds"), cached.generation.seconds},
                   {QStringLiteral("uncached_seconds"), uncached.generation.seconds},
                   {QStringLiteral("cached_cpu_seconds"), cached.cpu},
                   {QStringLiteral("uncached_cpu_seconds"), uncached.cpu},
                   {QStringLiteral("speedup"), wallRatio},
                   {QStringLiteral("speedup_cpu"), cpuRatio},
                   {QStringLiteral("same_text"), sameText}});
    } else {
        out() << tr("%1, %2 tokens after \"%3\", %4 thread(s):\n"
                    "  cached   %5 s (cpu %6 s)\n  uncached %7 s (cpu %8 s)\n"
                    "  cached / uncached: %9× wall clock, %10× cpu; same text: %11")
                     .arg(QString::fromStdString(experiment->target().describe()))
                     .arg(tokens)
                     .arg(QString::fromStdString(setup.prompt))
                     .arg(setup.threads)
                     .arg(cached.generation.seconds, 0, 'f', 4)
                     .arg(cached.cpu, 0, 'f', 4)
                     .arg(uncached.generation.seconds, 0, 'f', 4)
                     .arg(uncached.cpu, 0, 'f', 4)
                     .arg(wallRatio, 0, 'f', 1)
                     .arg(cpuRatio, 0, 'f', 1)
                     .arg(sameText ? tr("yes") : tr("NO"))
              << '\n';
        out().flush();
    }
    return sameText ? 0 : 1;
}

} // namespace specdec::cli
