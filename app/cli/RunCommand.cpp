// SPDX-License-Identifier: GPL-3.0-or-later
// specdec run: generate N tokens by speculative (or autoregressive) decoding and report every round.
#include "CliOptions.h"
#include "Commands.h"
#include "ExperimentNotes.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"
#include "SessionFile.h"
#include "TraceExport.h"
#include "TreeJson.h"
#include "TreeOutput.h"

#include "FileIo.h"
#include "Generation.h"
#include "SpeculativeRun.h"
#include "Theory.h"
#include "VerificationCost.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <span>

namespace specdec::cli {

namespace {

/// The line that says a run ended at the target's end-of-text token (the last of `text`).
QString endOfTextLine(const Tokenizer &v, std::span<const TokenId> text)
{
    return tr("specdec: the target wrote its end-of-text token '%1' (id %2): the text ends there, after %3 tokens")
        .arg(visible(QString::fromStdString(v.display(text.back()))))
        .arg(text.back())
        .arg(text.size());
}

void printRound(const RoundTrace &t, const Tokenizer &v)
{
    std::vector<TokenId> drafted;
    for (const auto &pos : t.positions)
        drafted.push_back(pos.token);
    QString line = tr("round %1  K=%2  drafted \"%3\"  accepted %4/%5")
                       .arg(t.index + 1, 4)
                       .arg(t.draftLength)
                       .arg(visible(piecesToString(v, drafted)))
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

/// The report's summary, the same lines for chains and trees (a tree's per-position rates are per depth, its
/// mean beta the exact one-node acceptance 1 - prod_j (1 - beta_j)), with the tree's own counts after them.
void printSummary(const RunReport &r)
{
    const RunMetrics &m = r.metrics;
    out() << tr("rounds %1, target calls %2, draft calls %3, drafted %4, accepted %5")
                 .arg(m.rounds)
                 .arg(m.targetCalls)
                 .arg(m.draftCalls)
                 .arg(r.nodesDrafted)
                 .arg(m.accepted)
          << '\n';
    out() << (r.isTree() ? tr("acceptance rate %1 (per depth: %2), mean one-node acceptance %3")
                         : tr("acceptance rate %1 (per position: %2), mean beta %3"))
                 .arg(m.acceptanceRate, 0, 'f', 3)
                 .arg(rates(m.perPositionAcceptance))
                 .arg(m.meanOverlap, 0, 'f', 3)
          << '\n';
    if (r.isTree())
        out() << tr("tree %1: %2 positions verified, %3 nodes drafted per accepted token")
                     .arg(QString::fromStdString(r.tree.describe()))
                     .arg(r.verifiedPositions)
                     .arg(r.nodesPerAcceptedToken(), 0, 'f', 2)
              << '\n';
    out() << tr("tokens per round %1 (theory E[N] at alpha=%2, K=%3: %4)")
                 .arg(m.tokensPerRound, 0, 'f', 3)
                 .arg(m.acceptanceRate, 0, 'f', 3)
                 .arg(r.draftLength)
                 .arg(m.expectedTokensPerRound, 0, 'f', 3)
          << '\n';
    QString wall = m.speedupWallClock ? QString::number(*m.speedupWallClock, 'f', 2) + QLatin1Char('x')
                                      : tr("not measured (add --baseline)");
    // c = T_draft(1) / T_target(1) from this run's calls needs the baseline's steps (Metrics.h)
    const QString costModel = std::isfinite(m.costRatio)
        ? tr("%1x under the cost model (c = T_draft(1)/T_target(1) = %2 in this run)")
              .arg(m.speedupCostModel, 0, 'f', 2)
              .arg(m.costRatio, 0, 'f', 3)
        : tr("cost model not measured (c needs the baseline's steps: add --baseline)");
    out() << tr("speedup: %1x in target passes, %2, wall clock %3")
                 .arg(m.speedupForwardPasses, 0, 'f', 2)
                 .arg(costModel)
                 .arg(wall)
          << '\n';
    if (r.baseline)
        out() << tr("seconds: speculative %1 (%2 tokens/s), autoregressive baseline %3 (%4 tokens/s, %5 ms per step), "
                    "played alongside in the same steps")
                     .arg(r.seconds, 0, 'f', 3)
                     .arg(r.tokensPerSecond(), 0, 'f', 1)
                     .arg(r.baseline->seconds, 0, 'f', 3)
                     .arg(r.baseline->tokensPerSecond(), 0, 'f', 1)
                     .arg(r.baseline->stepSeconds() * 1e3, 0, 'f', 3)
              << '\n';
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

void printVerificationCost(const VerificationCost &prompt, const RunMetrics &m, int k)
{
    QString v;
    for (double x : prompt.v)
        v += QString::number(x, 'f', 2) + QLatin1Char(' ');
    out() << tr("cost of verification (%1), measured before the run where its calls are: V(1..%2) = %3 (target step %4 "
                "ms)")
                 .arg(prompt.kvCache ? tr("KV cache on") : tr("KV cache off"))
                 .arg(prompt.v.size())
                 .arg(v.trimmed())
                 .arg(prompt.seconds.front() * 1e3, 0, 'f', 3)
          << '\n';
    // One c and one V(K+1) from here on: the run's own when it has a baseline (calibratedCost).
    const VerificationCost cost = calibratedCost(prompt, m, k);
    const double vk = cost.v[static_cast<std::size_t>(std::min<int>(k, static_cast<int>(cost.v.size()) - 1))];
    if (cost.fromRun)
        out() << tr("in this run: a verification of %1 positions took V(%1) = %2 baseline steps, a draft call c = %3 "
                    "(the measured V(m) scaled to it for the best K)")
                     .arg(k + 1)
                     .arg(vk, 0, 'f', 2)
                     .arg(cost.c, 0, 'f', 3)
              << '\n';
    else
        out() << tr("c = T_draft(1)/T_target(1) = %1, measured before the run (--baseline measures it in the run)")
                     .arg(cost.c, 0, 'f', 3)
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
    parser.addOption(
        {QStringLiteral("save-session"), tr("Save the setup (and the last round) as a session file."), tr("file")});
    parser.addOption({QStringLiteral("export-trace"), tr("Write every round trace to a .csv or .json file."), tr("file")});
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

    const bool withDraft = mode == DecodingMode::Speculative;
    auto experiment = Experiment::load(setup, corpusCatalog(), withDraft, loadingLine(setup, withDraft));
    if (const QString line = followSamplingAdvice(parser, experiment->target(), setup); !line.isEmpty())
        err() << line << '\n';
    for (const QString &w : app::experimentWarnings(*experiment))
        printError(QStringLiteral("warning"), w);
    err().flush();
    const Tokenizer &vocab = experiment->tokenizer();
    LanguageModel &target = experiment->target();

    QJsonObject header{
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
        if (g.endOfText)
            err() << endOfTextLine(vocab, g.tokens) << '\n';
        else if (setup.tokens > setup.cap)
            err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
        const QString text = tokensToString(vocab, g.tokens, experiment->prompt());
        if (json) {
            header.insert(QStringLiteral("mode"), QStringLiteral("autoregressive"));
            header.insert(QStringLiteral("text"), text);
            header.insert(QStringLiteral("token_ids"), tokenIdsJson(g.tokens));
            header.insert(QStringLiteral("generated_tokens"), static_cast<int>(g.tokens.size()));
            header.insert(QStringLiteral("end_of_text"), g.endOfText);
            header.insert(QStringLiteral("target_calls"), static_cast<double>(g.target.calls));
            header.insert(QStringLiteral("draft_calls"), 0);
            header.insert(QStringLiteral("seconds"), g.seconds);
            header.insert(QStringLiteral("tokens_per_second"), g.seconds > 0 ? g.tokens.size() / g.seconds : 0.0);
            printJson(header);
        } else {
            out() << QString::fromStdString(setup.prompt) << text << '\n';
            out() << tr("%1 tokens, %2 target calls, %3 s").arg(g.tokens.size()).arg(g.target.calls).arg(g.seconds)
                  << '\n';
        }
        return 0;
    }

    const bool tree = !setup.decoding.tree.empty();
    if (tree && (!exportPath.isEmpty() || parser.isSet(QStringLiteral("save-session"))))
        throw UsageError(tr("--export-trace and --save-session do not take token trees yet (use --json --trace)"));
    LanguageModel &draft = *experiment->draft();
    // The run writes at most setup.cap tokens. Rounds are streamed from the one run loop (SpeculativeRun, with the
    // baseline played alongside when asked): printed (the first 30 unless --trace) and folded into the report as
    // they come; they are kept only for --trace or --export-trace, so a long run holds O(1) per round (the
    // sequence itself: 4 bytes per token).
    const int wanted = std::min(setup.tokens, setup.cap);
    const bool atCap = setup.tokens > setup.cap;
    const bool keepRounds = trace || !exportPath.isEmpty();
    constexpr int kRoundsShown = 30;
    if (!json) {
        const QString decoder = tree ? tr("tree %1 (%2)")
                                           .arg(QString::fromStdString(setup.decoding.tree.describe()),
                                                QString::fromStdString(treeVariantName(setup.decoding.treeVariant)))
                                     : tr("K=%1").arg(setup.decoding.draftLength);
        out() << tr("specdec run: corpus %1, %2, target %3, draft %4, %5, %6, seed %7")
                     .arg(QString::fromStdString(experiment->corpus().name))
                     .arg(QString::fromStdString(vocab.describe()))
                     .arg(QString::fromStdString(target.describe()), QString::fromStdString(draft.describe()))
                     .arg(decoder)
                     .arg(QString::fromStdString(setup.decoding.target.describe()))
                     .arg(setup.decoding.seed)
              << '\n';
        if (!setup.decoding.kvCache)
            out() << tr("KV cache off: every call recomputes its window, and so does the baseline (the uncached "
                        "decoder, about 20x slower than a cached one): its speedups are not a real engine's")
                  << '\n';
    }
    SpeculativeRun run(target, draft, setup.decoding, experiment->prompt(), wanted, baseline);
    // V(m) and c measured first, through the same kind of states the run uses, at the pasts of this run's middle
    // half and with the draft right after the target (CostProbe); V up to K = 16 at least (the window's range), so
    // that the best K is not capped at the K of this run.
    constexpr int kMeasuredK = 16;
    std::optional<VerificationCost> cost;
    if (!experiment->prompt().empty())
        cost = measureVerificationCost(target, &draft, experiment->prompt(),
                                       std::max(run.decoder().roundLength(), kMeasuredK) + 1, setup.decoding.kvCache, 5,
                                       {wanted, run.decoder().roundLength()});
    std::vector<RoundTrace> chainRounds;
    std::vector<TreeTrace> treeRounds;
    {
        std::vector<TokenId> firstText; // the text of the rounds printed before "text:"
        bool textStarted = false;
        TextStream stream(vocab, experiment->prompt()); // a character split into byte tokens waits for its end
        auto startText = [&] {
            out() << tr("text: ") << QString::fromStdString(setup.prompt)
                  << QString::fromStdString(stream.push(firstText));
            firstText.clear();
            textStarted = true;
        };
        while (std::optional<RunStep> step = run.step()) {
            const RoundTrace &path = step->round.path;
            const std::span<const TokenId> kept = step->keptTokens();
            if (json) {
                // the text comes from the run at the end
            } else if (trace || path.index < kRoundsShown) {
                if (step->round.tree) {
                    printTreeRound(*step->round.tree, vocab);
                    if (trace)
                        printTreeNodes(*step->round.tree, vocab);
                } else {
                    printRound(path, vocab);
                    if (trace)
                        printCaches(path);
                }
                firstText.insert(firstText.end(), kept.begin(), kept.end());
            } else {
                if (!textStarted)
                    startText();
                out() << QString::fromStdString(stream.push(kept));
            }
            if (keepRounds) {
                if (step->round.tree)
                    treeRounds.push_back(*step->round.tree);
                else
                    chainRounds.push_back(std::move(step->round.path));
            }
        }
        if (!json) {
            if (!textStarted)
                startText();
            out() << '\n';
            if (!trace && run.accumulator().rounds() > kRoundsShown)
                out() << tr("... %1 more rounds (--trace shows all)").arg(run.accumulator().rounds() - kRoundsShown)
                      << '\n';
        }
    }
    if (run.endedAtEndOfText())
        err() << endOfTextLine(vocab, run.text()) << '\n';
    else if (atCap)
        err() << tr("specdec: stopped at the cap of %1 tokens (--cap N writes more)").arg(setup.cap) << '\n';
    err().flush();
    const RunReport report = run.report();
    if (!exportPath.isEmpty())
        exportTraces(exportPath, chainRounds, vocab);
    if (parser.isSet(QStringLiteral("save-session")))
        SessionFile{setup, {report.metrics.rounds, QStringLiteral("commit")}}.save(
            parser.value(QStringLiteral("save-session")));

    if (json) {
        header.insert(QStringLiteral("mode"), QStringLiteral("speculative"));
        header.insert(QStringLiteral("draft"), QString::fromStdString(draft.describe()));
        header.insert(QStringLiteral("policy"), QString::fromStdString(setup.decoding.policy.describe()));
        header.insert(QStringLiteral("variant"),
                      QString::fromStdString(tree ? treeVariantName(setup.decoding.treeVariant)
                                                  : variantName(setup.decoding.variant)));
        const QJsonObject fields = reportJson(report, vocab, run.text(), run.baselineText(), experiment->prompt());
        for (auto it = fields.begin(); it != fields.end(); ++it)
            header.insert(it.key(), it.value());
        header.insert(QStringLiteral("cap"), setup.cap);
        header.insert(QStringLiteral("kv_cache"), setup.decoding.kvCache);
        QJsonObject theoryObject = header.value(QStringLiteral("theory")).toObject();
        const QJsonObject measured = cost ? verificationJson(*cost, report.metrics, report.draftLength) : QJsonObject();
        for (const QString &key : verificationKeys())
            theoryObject.insert(key, measured.value(key)); // null without a prompt to measure on
        header.insert(QStringLiteral("theory"), theoryObject);
        header.insert(QStringLiteral("stopped_at_cap"), atCap);
        QJsonArray rounds;
        if (trace) {
            for (const auto &r : chainRounds)
                rounds.append(traceJson(r, vocab));
            for (const auto &r : treeRounds)
                rounds.append(treeTraceJson(r, vocab));
        }
        header.insert(QStringLiteral("trace"), trace ? QJsonValue(rounds) : QJsonValue());
        printJson(header);
        return 0;
    }

    printSummary(report);
    if (cost)
        printVerificationCost(*cost, report.metrics, report.draftLength);
    out().flush();
    return 0;
}

} // namespace specdec::cli
