// SPDX-License-Identifier: GPL-3.0-or-later
// specdec run: generate N tokens by speculative (or autoregressive) decoding and report every round.
#include "CliOptions.h"
#include "Commands.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"
#include "SessionFile.h"
#include "TraceExport.h"
#include "TreeJson.h"
#include "TreeOutput.h"

#include "FileIo.h"
#include "Generation.h"
#include "Metrics.h"
#include "MetricsAccumulator.h"
#include "TreeMetrics.h"
#include "Theory.h"
#include "VerificationCost.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <chrono>
#include <span>

namespace specdec::cli {

namespace {

void printRound(const RoundTrace &t, const Vocabulary &v)
{
    std::vector<TokenId> drafted;
    for (const auto &pos : t.positions)
        drafted.push_back(pos.token);
    QString line = tr("round %1  K=%2  drafted \"%3\"  accepted %4/%5")
                       .arg(t.index + 1, 4)
                       .arg(t.draftLength)
                       .arg(visible(tokensToString(v, drafted)))
                       .arg(t.acceptedCount())
                       .arg(t.draftLength);
    if (t.rejectedAt >= 0)
        line += tr("  rejected '%1' (p/q=%2) -> residual '%3'")
                    .arg(visible(tokenToString(v, t.positions[static_cast<std::size_t>(t.rejectedAt)].token)))
                    .arg(t.positions[static_cast<std::size_t>(t.rejectedAt)].ratio, 0, 'f', 3)
                    .arg(visible(tokenToString(v, t.correction)));
    else
        line += tr("  bonus '%1'").arg(visible(tokenToString(v, t.bonus)));
    line += tr("  +%1 tokens").arg(t.committed.size());
    out() << line << '\n';
}

void printSummary(const RunMetrics &m, int k)
{
    out() << tr("rounds %1, target calls %2, draft calls %3, drafted %4, accepted %5")
                 .arg(m.rounds)
                 .arg(m.targetCalls)
                 .arg(m.draftCalls)
                 .arg(m.drafted)
                 .arg(m.accepted)
          << '\n';
    out() << tr("acceptance rate %1 (per position: %2), mean beta %3")
                 .arg(m.acceptanceRate, 0, 'f', 3)
                 .arg(rates(m.perPositionAcceptance))
                 .arg(m.meanOverlap, 0, 'f', 3)
          << '\n';
    out() << tr("tokens per round %1 (theory E[N] at alpha=%2, K=%3: %4)")
                 .arg(m.tokensPerRound, 0, 'f', 3)
                 .arg(m.acceptanceRate, 0, 'f', 3)
                 .arg(k)
                 .arg(m.expectedTokensPerRound, 0, 'f', 3)
          << '\n';
    QString wall = m.speedupWallClock ? QString::number(*m.speedupWallClock, 'f', 2) + QLatin1Char('x')
                                      : tr("not measured (add --baseline)");
    out() << tr("speedup: %1x in target passes, %2x under the cost model (c = %3), wall clock %4")
                 .arg(m.speedupForwardPasses, 0, 'f', 2)
                 .arg(m.speedupCostModel, 0, 'f', 2)
                 .arg(m.costRatio, 0, 'f', 3)
                 .arg(wall)
          << '\n';
}

/// specdec run --tree: rounds of the tree decoder, printed (or in the JSON report with their trees).
int runTree(const Setup &setup, Experiment &experiment, QJsonObject report, bool json, bool trace, bool baseline)
{
    const Vocabulary &vocab = experiment.vocabulary();
    LanguageModel &target = experiment.target();
    LanguageModel &draft = *experiment.draft();
    const int wanted = std::min(setup.tokens, setup.cap);
    const Generation g = generateTree(target, draft, setup.decoding, experiment.prompt(), wanted);
    if (setup.tokens > setup.cap)
        err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
    err().flush();
    std::optional<Generation> base;
    if (baseline)
        base = generateAutoregressive(target, setup.decoding.target, setup.decoding.seed, experiment.prompt(), wanted);
    const TreeMetrics m = computeTreeMetrics(g.treeRounds, g.seconds, base ? std::optional(base->seconds) : std::nullopt);
    if (json) {
        report.insert(QStringLiteral("mode"), QStringLiteral("tree"));
        report.insert(QStringLiteral("draft"), QString::fromStdString(draft.describe()));
        report.insert(QStringLiteral("tree"), QString::fromStdString(setup.decoding.tree.describe()));
        report.insert(QStringLiteral("variant"), QString::fromStdString(treeVariantName(setup.decoding.treeVariant)));
        const QJsonObject fields = treeRunJson(g, m, vocab);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            report.insert(it.key(), it.value());
        if (base)
            report.insert(QStringLiteral("baseline"),
                          baselineJson(*base, g.tokens));
        if (trace) {
            QJsonArray rounds;
            for (const auto &r : g.treeRounds)
                rounds.append(treeTraceJson(r, vocab));
            report.insert(QStringLiteral("trace"), rounds);
        }
        printJson(report);
        return 0;
    }
    out() << tr("specdec run: corpus %1 (%2 tokens), target %3, draft %4, tree %5 (%6), %7, seed %8")
                 .arg(QString::fromStdString(experiment.corpus().name))
                 .arg(vocab.size())
                 .arg(QString::fromStdString(target.describe()), QString::fromStdString(draft.describe()))
                 .arg(QString::fromStdString(setup.decoding.tree.describe()))
                 .arg(QString::fromStdString(treeVariantName(setup.decoding.treeVariant)))
                 .arg(QString::fromStdString(setup.decoding.target.describe()))
                 .arg(setup.decoding.seed)
          << '\n';
    const std::size_t shown = trace ? g.treeRounds.size() : std::min<std::size_t>(g.treeRounds.size(), 30);
    for (std::size_t i = 0; i < shown; ++i) {
        printTreeRound(g.treeRounds[i], vocab);
        if (trace)
            printTreeNodes(g.treeRounds[i], vocab);
    }
    if (shown < g.treeRounds.size())
        out() << tr("... %1 more rounds (--trace shows all)").arg(g.treeRounds.size() - shown) << '\n';
    out() << tr("text: ") << QString::fromStdString(setup.prompt) << tokensToString(vocab, g.tokens) << '\n';
    printTreeSummary(m);
    out().flush();
    return 0;
}

/// "target cache 40 -> 45 -> 42 (-3)": the state's length before the round, after extension, after rollback.
void printCaches(const RoundTrace &t)
{
    auto lengths = [](const CacheLengths &c) {
        QString s = QStringLiteral("%1 -> %2 -> %3 (-%4)").arg(c.before).arg(c.extended).arg(c.after).arg(c.discarded);
        if (c.refills > 0)
            s += tr(", refills %1").arg(c.refills);
        return s;
    };
    out() << tr("           target cache %1   draft cache %2").arg(lengths(t.targetCache), lengths(t.draftCache)) << '\n';
}

void printVerificationCost(const VerificationCost &cost, const RunMetrics &m, int k)
{
    QString v;
    for (double x : cost.v)
        v += QString::number(x, 'f', 2) + QLatin1Char(' ');
    const double vk = cost.v[static_cast<std::size_t>(std::min<int>(k, static_cast<int>(cost.v.size()) - 1))];
    out() << tr("cost of verification (%1): V(1..%2) = %3; c = T_draft(1)/T_target(1) = %4 (target step %5 ms)")
                 .arg(cost.kvCache ? tr("KV cache on") : tr("KV cache off"))
                 .arg(cost.v.size())
                 .arg(v.trimmed())
                 .arg(cost.c, 0, 'f', 3)
                 .arg(cost.seconds.front() * 1e3, 0, 'f', 3)
          << '\n';
    out() << tr("predicted speedup E[N]/(V(K+1) + Kc) = %1x (best K %2); Leviathan's E[N]/(1 + Kc) = %3x (best K %4)")
                 .arg(theory::generalisedSpeedup(m.acceptanceRate, k, cost.c, vk), 0, 'f', 2)
                 .arg(theory::optimalDraftLengthMeasured(m.acceptanceRate, cost.c, cost.v))
                 .arg(theory::costModelSpeedup(m.acceptanceRate, k, cost.c), 0, 'f', 2)
                 .arg(theory::optimalDraftLength(m.acceptanceRate, cost.c, static_cast<int>(cost.v.size()) - 1))
          << '\n';
    out() << tr("KV cache: %1 entries discarded by rollbacks (%2 target, %3 draft), %4% of the target's computed "
                "positions; %5 window refills")
                 .arg(m.cacheDiscarded)
                 .arg(m.targetDiscarded)
                 .arg(m.draftDiscarded)
                 .arg(100.0 * m.rejectedComputeShare, 0, 'f', 1)
                 .arg(m.cacheRefills)
          << '\n';
}

} // namespace

int runCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | DecodeOptions | SamplerOptions | OutputOptions);
    parser.addOption({QStringLiteral("baseline"),
                      tr("Also decode autoregressively with the target and report the wall-clock speedup.")});
    parser.addOption({QStringLiteral("trace"), tr("Print every round trace (with --json: top entries of p and q).")});
    parser.addOption({QStringLiteral("save-session"), tr("Save the setup (and the last round) as a session file."),
                      tr("file")});
    parser.addOption({QStringLiteral("export-trace"), tr("Write every round trace to a .csv or .json file."),
                      tr("file")});
    if (!parseArguments(parser, QStringLiteral("run"), tr("Generate text and report every round."), arguments))
        return 0;

    Setup setup = readSetup(parser);
    const DecodingMode mode = readMode(parser);
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool trace = parser.isSet(QStringLiteral("trace"));
    const bool baseline = parser.isSet(QStringLiteral("baseline")) && mode == DecodingMode::Speculative;
    const QString exportPath = parser.value(QStringLiteral("export-trace"));
    // The files to write are checked before the run: an empty name, a wrong suffix, or a target that is not a
    // regular file (a FIFO, a device) fail at once instead of after minutes of decoding.
    if (parser.isSet(QStringLiteral("export-trace"))) {
        const QString suffix = QFileInfo(exportPath).suffix().toLower();
        if (exportPath.isEmpty() || (suffix != QLatin1String("csv") && suffix != QLatin1String("json")))
            throw UsageError(tr("--export-trace expects a .csv or .json file name, got '%1'").arg(exportPath));
        checkWritableTarget(QFile::encodeName(exportPath).toStdString());
    }
    if (parser.isSet(QStringLiteral("save-session"))) {
        if (parser.value(QStringLiteral("save-session")).isEmpty())
            throw UsageError(tr("--save-session expects a file name"));
        checkWritableTarget(QFile::encodeName(parser.value(QStringLiteral("save-session"))).toStdString());
    }
    setup.decoding.recordDistributions = (trace && json) || exportPath.endsWith(QLatin1String(".json"));
    // Every round then keeps its p and q rows (about 37 KB per token on kjv: 7.4 GB at the cap of 200,000).
    constexpr int kMaxRecordedTokens = 10000;
    if (setup.decoding.recordDistributions && std::min(setup.tokens, setup.cap) > kMaxRecordedTokens)
        throw UsageError(tr("--json --trace and --export-trace FILE.json keep every round's distributions: at most "
                            "%1 tokens, got %2 (use fewer --tokens, or --export-trace FILE.csv)")
                             .arg(kMaxRecordedTokens)
                             .arg(std::min(setup.tokens, setup.cap)));

    auto experiment = Experiment::load(setup, corpusCatalog(), mode == DecodingMode::Speculative);
    for (const auto &w : experiment->warnings())
        printError(QStringLiteral("warning"), QString::fromStdString(w));
    err().flush();
    const Vocabulary &vocab = experiment->vocabulary();
    LanguageModel &target = experiment->target();

    QJsonObject report{
        {QStringLiteral("corpus"), QString::fromStdString(experiment->corpus().name)},
        {QStringLiteral("vocabulary_size"), vocab.size()},
        {QStringLiteral("target"), QString::fromStdString(target.describe())},
        {QStringLiteral("prompt"), QString::fromStdString(setup.prompt)},
        {QStringLiteral("seed"), QString::number(setup.decoding.seed)},
        {QStringLiteral("temperature"), setup.decoding.target.temperature},
        {QStringLiteral("draft_temperature"), setup.decoding.draft.temperature},
        {QStringLiteral("top_k"), setup.decoding.target.topK},
        {QStringLiteral("top_p"), setup.decoding.target.topP},
    };

    if (mode == DecodingMode::Autoregressive) {
        const Generation g = generateAutoregressive(target, setup.decoding.target, setup.decoding.seed,
                                                    experiment->prompt(), std::min(setup.tokens, setup.cap), {},
                                                    setup.decoding.kvCache);
        if (setup.tokens > setup.cap)
            err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
        const QString text = tokensToString(vocab, g.tokens);
        if (json) {
            report.insert(QStringLiteral("mode"), QStringLiteral("autoregressive"));
            report.insert(QStringLiteral("text"), text);
            report.insert(QStringLiteral("generated_tokens"), static_cast<int>(g.tokens.size()));
            report.insert(QStringLiteral("target_calls"), static_cast<double>(g.target.calls));
            report.insert(QStringLiteral("draft_calls"), 0);
            report.insert(QStringLiteral("seconds"), g.seconds);
            report.insert(QStringLiteral("tokens_per_second"), g.seconds > 0 ? g.tokens.size() / g.seconds : 0.0);
            printJson(report);
        } else {
            out() << QString::fromStdString(setup.prompt) << text << '\n';
            out() << tr("%1 tokens, %2 target calls, %3 s").arg(g.tokens.size()).arg(g.target.calls).arg(g.seconds) << '\n';
        }
        return 0;
    }

    if (!setup.decoding.tree.empty()) {
        if (!exportPath.isEmpty() || parser.isSet(QStringLiteral("save-session")))
            throw UsageError(tr("--export-trace and --save-session do not take token trees yet (use --json --trace)"));
        return runTree(setup, *experiment, report, json, trace, baseline);
    }
    LanguageModel &draft = *experiment->draft();
    // The run writes at most setup.cap tokens. Rounds are streamed: printed (the first 30 unless --trace) and
    // folded into the metrics as they come; they are kept only for --trace or --export-trace, the text only
    // for --json, so a long run holds O(1) per round (the sequence itself: 4 bytes per token).
    const int wanted = std::min(setup.tokens, setup.cap);
    const bool atCap = setup.tokens > setup.cap;
    const bool keepRounds = trace || !exportPath.isEmpty();
    constexpr int kRoundsShown = 30;
    if (!json)
        out() << tr("specdec run: corpus %1 (%2 tokens), target %3, draft %4, K=%5, %6, seed %7")
                     .arg(QString::fromStdString(experiment->corpus().name))
                     .arg(vocab.size())
                     .arg(QString::fromStdString(target.describe()), QString::fromStdString(draft.describe()))
                     .arg(setup.decoding.draftLength)
                     .arg(QString::fromStdString(setup.decoding.target.describe()))
                     .arg(setup.decoding.seed)
              << '\n';
    // V(m) and c measured first, on the prompt, through the same kind of states the run uses.
    std::optional<VerificationCost> cost;
    if (!experiment->prompt().empty())
        cost = measureVerificationCost(target, &draft, experiment->prompt(), setup.decoding.draftLength + 1,
                                       setup.decoding.kvCache);
    Generation g;
    MetricsAccumulator metrics;
    {
        SpeculativeDecoder decoder(target, draft, setup.decoding);
        std::vector<TokenId> sequence = experiment->prompt();
        std::vector<TokenId> firstText; // the text of the rounds printed before "text:"
        const CallStats targetBefore = target.stats(), draftBefore = draft.stats();
        int generated = 0;
        bool textStarted = false;
        auto startText = [&] {
            out() << tr("text: ") << QString::fromStdString(setup.prompt) << tokensToString(vocab, firstText);
            firstText.clear();
            textStarted = true;
        };
        while (generated < wanted) {
            const auto start = std::chrono::steady_clock::now();
            RoundTrace round = decoder.round(sequence, wanted - generated);
            // decoding work only: the β and the distributions a trace records are not (RoundTrace::teachingSeconds)
            g.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                - round.teachingSeconds;
            metrics.add(round);
            // the last round's surplus is cut off, as in generateSpeculative
            const auto committed = std::span(round.committed).first(
                std::min<std::size_t>(round.committed.size(), static_cast<std::size_t>(wanted - generated)));
            generated += static_cast<int>(committed.size());
            if (json) {
                g.tokens.insert(g.tokens.end(), committed.begin(), committed.end());
            } else if (trace || round.index < kRoundsShown) {
                printRound(round, vocab);
                if (trace)
                    printCaches(round);
                firstText.insert(firstText.end(), committed.begin(), committed.end());
            } else {
                if (!textStarted)
                    startText();
                out() << tokensToString(vocab, std::vector<TokenId>(committed.begin(), committed.end()));
            }
            if (keepRounds)
                g.rounds.push_back(std::move(round));
        }
        if (!json) {
            if (!textStarted)
                startText();
            out() << '\n';
            if (!trace && metrics.rounds() > kRoundsShown)
                out() << tr("... %1 more rounds (--trace shows all)").arg(metrics.rounds() - kRoundsShown) << '\n';
        }
        g.target = {target.stats().calls - targetBefore.calls, target.stats().positions - targetBefore.positions,
                    target.stats().seconds - targetBefore.seconds};
        g.draft = {draft.stats().calls - draftBefore.calls, draft.stats().positions - draftBefore.positions,
                   draft.stats().seconds - draftBefore.seconds};
    }
    if (atCap)
        err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
    err().flush();
    std::optional<Generation> base;
    if (baseline)
        base = generateAutoregressive(target, setup.decoding.target, setup.decoding.seed, experiment->prompt(), wanted,
                                      {}, setup.decoding.kvCache);
    const RunMetrics m = metrics.metrics(g.seconds, base ? std::optional(base->seconds) : std::nullopt);
    if (!exportPath.isEmpty())
        exportTraces(exportPath, g.rounds, vocab);
    if (parser.isSet(QStringLiteral("save-session")))
        SessionFile{setup, {metrics.rounds(), QStringLiteral("commit")}}.save(
            parser.value(QStringLiteral("save-session")));

    if (json) {
        report.insert(QStringLiteral("mode"), QStringLiteral("speculative"));
        report.insert(QStringLiteral("draft"), QString::fromStdString(draft.describe()));
        report.insert(QStringLiteral("k"), setup.decoding.draftLength);
        report.insert(QStringLiteral("policy"), QString::fromStdString(setup.decoding.policy.describe()));
        report.insert(QStringLiteral("variant"), QString::fromStdString(variantName(setup.decoding.variant)));
        const QJsonObject fields = runJson(g, m, vocab, setup.decoding.draftLength);
        for (auto it = fields.begin(); it != fields.end(); ++it)
            report.insert(it.key(), it.value());
        report.insert(QStringLiteral("cap"), setup.cap);
        report.insert(QStringLiteral("kv_cache"), setup.decoding.kvCache);
        if (cost) {
            QJsonObject theoryObject = report.value(QStringLiteral("theory")).toObject();
            const QJsonObject measured = verificationJson(*cost, m, setup.decoding.draftLength);
            for (auto it = measured.begin(); it != measured.end(); ++it)
                theoryObject.insert(it.key(), it.value());
            report.insert(QStringLiteral("theory"), theoryObject);
        }
        report.insert(QStringLiteral("stopped_at_cap"), atCap);
        if (base) {
            report.insert(QStringLiteral("baseline"),
                          baselineJson(*base, g.tokens));
        }
        if (trace) {
            QJsonArray rounds;
            for (const auto &r : g.rounds)
                rounds.append(traceJson(r, vocab));
            report.insert(QStringLiteral("trace"), rounds);
        }
        printJson(report);
        return 0;
    }

    printSummary(m, setup.decoding.draftLength);
    if (cost)
        printVerificationCost(*cost, m, setup.decoding.draftLength);
    out().flush();
    return 0;
}

} // namespace specdec::cli
