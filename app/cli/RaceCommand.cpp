// SPDX-License-Identifier: GPL-3.0-or-later
// specdec race: the target alone (autoregressive, cached) and speculative decoding write the same continuation
// of the same prompt, each lane at its own engine pace (RaceRun: the lane that has used less decoding time
// moves). On a terminal two lines update in place; otherwise each lane is printed when the race ends.
#include "CliOptions.h"
#include "Commands.h"
#include "ExperimentNotes.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"

#include "RaceRun.h"

#include <QJsonObject>

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace specdec::cli {

namespace {

QString laneName(RaceLane lane)
{
    return lane == RaceLane::Autoregressive ? tr("autoregressive") : tr("speculative");
}

/// "autoregressive   80/200 tokens   1234.5 tokens/s   80 target calls": a lane's numbers, one line.
QString laneNumbers(const RaceRun &race, RaceLane lane)
{
    const RaceLaneState &s = race.state(lane);
    return tr("%1 %2/%3 tokens  %4 tokens/s  %5 target calls")
        .arg(laneName(lane), -14)
        .arg(s.tokens.size(), 5)
        .arg(race.tokens())
        .arg(s.tokensPerSecond(), 8, 'f', 1)
        .arg(s.targetCalls, 5);
}

QJsonObject laneJson(const RaceRun &race, RaceLane lane, const Tokenizer &vocab)
{
    const RaceLaneState &s = race.state(lane);
    return {{QStringLiteral("text"), tokensToString(vocab, s.tokens)},
            {QStringLiteral("tokens"), static_cast<int>(s.tokens.size())},
            {QStringLiteral("seconds"), s.seconds},
            {QStringLiteral("tokens_per_second"), s.tokensPerSecond()},
            {QStringLiteral("target_calls"), static_cast<double>(s.targetCalls)},
            {lane == RaceLane::Autoregressive ? QStringLiteral("steps") : QStringLiteral("rounds"),
             static_cast<double>(s.steps)}};
}

/// The two lines on a terminal: numbers, then the newest text that fits the width.
class LiveLines
{
public:
    explicit LiveLines(const Tokenizer &vocab)
        : m_vocab(vocab)
    {
        const QByteArray columns = qgetenv("COLUMNS");
        m_width = columns.toInt() >= 40 ? columns.toInt() : 100;
    }

    void draw(const RaceRun &race)
    {
        if (m_drawn)
            out() << "\x1b[1A\r"; // back to the first of the two lines
        for (RaceLane lane : {RaceLane::Autoregressive, RaceLane::Speculative}) {
            const QString numbers = laneNumbers(race, lane) + QStringLiteral("  ");
            const QString text = visible(tokensToString(m_vocab, race.state(lane).tokens));
            const int room = std::max(0, m_width - 1 - static_cast<int>(numbers.size()));
            out() << "\x1b[K" << numbers << text.right(room);
            if (lane == RaceLane::Autoregressive)
                out() << '\n';
        }
        out().flush();
        m_drawn = true;
    }

private:
    const Tokenizer &m_vocab;
    int m_width = 100;
    bool m_drawn = false;
};

} // namespace

int raceCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | DecodeOptions | SamplerOptions | OutputOptions);
    if (!parseArguments(parser, QStringLiteral("race"),
                        tr("Race the target alone against speculative decoding on the same prompt, seed and sampler."),
                        arguments))
        return 0;
    Setup setup = readSetup(parser);
    const bool json = parser.isSet(QStringLiteral("json"));
    auto experiment = Experiment::load(setup, corpusCatalog(), true, loadingLine(setup, true));
    if (const QString line = followSamplingAdvice(parser, experiment->target(), setup); !line.isEmpty())
        err() << line << '\n';
    for (const QString &w : app::experimentWarnings(*experiment))
        err() << "specdec: warning: " << w << '\n';
    err().flush();
    const Tokenizer &vocab = experiment->tokenizer();
    LanguageModel &target = experiment->target();
    LanguageModel &draft = *experiment->draft();
    const int wanted = std::min(setup.tokens, setup.cap);
    RaceRun race(target, draft, setup.decoding, experiment->prompt(), wanted);

    const bool live = !json && isatty(fileno(stdout));
    if (!json)
        out() << tr("specdec race: corpus %1, target %2 alone against draft %3 (%4), %5, seed %6, KV cache %7")
                     .arg(QString::fromStdString(experiment->corpus().name), QString::fromStdString(target.describe()),
                          QString::fromStdString(draft.describe()))
                     .arg(setup.decoding.tree.empty()
                              ? QStringLiteral("K=%1").arg(setup.decoding.draftLength)
                              : tr("tree %1").arg(QString::fromStdString(setup.decoding.tree.describe())))
                     .arg(QString::fromStdString(setup.decoding.target.describe()))
                     .arg(setup.decoding.seed)
                     .arg(setup.decoding.kvCache ? tr("on") : tr("off"))
              << '\n';
    std::optional<LiveLines> lines;
    if (live) {
        lines.emplace(vocab);
        lines->draw(race);
    }
    auto shown = std::chrono::steady_clock::now();
    while (race.advance()) {
        // a terminal is redrawn at most 25 times a second: printing must not slow the lanes it times
        if (lines && std::chrono::steady_clock::now() - shown > std::chrono::milliseconds(40)) {
            lines->draw(race);
            shown = std::chrono::steady_clock::now();
        }
    }
    if (setup.tokens > setup.cap)
        err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
    err().flush();

    const auto &ar = race.state(RaceLane::Autoregressive).tokens;
    const auto &spec = race.state(RaceLane::Speculative).tokens;
    const bool identical = ar == spec;
    if (json) {
        QJsonObject report{
            {QStringLiteral("corpus"), QString::fromStdString(experiment->corpus().name)},
            {QStringLiteral("target"), QString::fromStdString(target.describe())},
            {QStringLiteral("draft"), QString::fromStdString(draft.describe())},
            {QStringLiteral("prompt"), QString::fromStdString(setup.prompt)},
            {QStringLiteral("seed"), QString::number(setup.decoding.seed)},
            {QStringLiteral("temperature"), setup.decoding.target.temperature},
            {QStringLiteral("kv_cache"), setup.decoding.kvCache},
            {QStringLiteral("autoregressive"), laneJson(race, RaceLane::Autoregressive, vocab)},
            {QStringLiteral("speculative"), laneJson(race, RaceLane::Speculative, vocab)},
            {QStringLiteral("ratio"), race.ratio()},
            {QStringLiteral("texts_identical"), identical},
        };
        if (setup.decoding.tree.empty())
            report.insert(QStringLiteral("k"), setup.decoding.draftLength);
        else
            report.insert(QStringLiteral("tree"), QString::fromStdString(setup.decoding.tree.describe()));
        printJson(report);
        return 0;
    }
    if (lines) {
        lines->draw(race);
        out() << '\n';
    } else {
        for (RaceLane lane : {RaceLane::Autoregressive, RaceLane::Speculative})
            out() << laneNumbers(race, lane) << '\n'
                  << tr("text: ") << QString::fromStdString(setup.prompt)
                  << tokensToString(vocab, race.state(lane).tokens) << '\n';
    }
    out() << tr("speculative / autoregressive = %1x in tokens per second, each lane timed over its own decoding")
                 .arg(race.ratio(), 0, 'f', 2)
          << '\n';
    if (identical) {
        out() << tr("texts identical: both lanes wrote the same %1 tokens").arg(ar.size()) << '\n';
    } else {
        std::size_t at = 0;
        while (at < ar.size() && at < spec.size() && ar[at] == spec[at])
            ++at;
        out() << tr("texts differ from token %1 on: above temperature 0 each lane draws its own samples (the same "
                    "distribution, not the same text)")
                     .arg(at + 1)
              << '\n';
    }
    out().flush();
    return 0;
}

} // namespace specdec::cli
