// SPDX-License-Identifier: GPL-3.0-or-later
// specdec sweep: drafts × temperatures × K against one target, with the autoregressive baseline measured
// in the same process — the table of measured against predicted speedups.
#include "CliOptions.h"
#include "Commands.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Generation.h"
#include "Metrics.h"
#include "Theory.h"
#include "VerificationCost.h"

#include <QJsonArray>

#include <algorithm>

namespace specdec::cli {

namespace {

std::vector<double> readList(const QCommandLineParser &parser, const QString &name)
{
    std::vector<double> values;
    for (const QString &part : parser.value(name).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        values.push_back(part.trimmed().toDouble(&ok));
        if (!ok)
            throw UsageError(tr("--%1 expects numbers separated by commas, got '%2'").arg(name, parser.value(name)));
    }
    if (values.empty())
        throw UsageError(tr("--%1 is empty").arg(name));
    return values;
}

} // namespace

int sweepCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | DecodeOptions | SamplerOptions | OutputOptions);
    parser.addOption({QStringLiteral("ks"), tr("Draft lengths to try."), tr("list"), QStringLiteral("1,2,3,4,6,8")});
    parser.addOption({QStringLiteral("temperatures"), tr("Temperatures to try (draft and target alike)."), tr("list"),
                      QStringLiteral("0,1")});
    parser.addOption({QStringLiteral("repeat"),
                      tr("Paired baseline/speculative runs per row; the fastest of each counts (filters out a busy "
                         "machine's stalls)."),
                      tr("n"), QStringLiteral("2")});
    if (!parseArguments(parser, QStringLiteral("sweep"),
                        tr("Measure speedups over drafts, temperatures and draft lengths (a markdown table)."), arguments))
        return 0;
    Setup setup = readSetup(parser);
    QStringList drafts = parser.values(QStringLiteral("draft"));
    if (drafts.isEmpty())
        drafts << QString::fromStdString(setup.draft); // the default draft of the setup (Experiment.h)
    const std::vector<double> ks = readList(parser, QStringLiteral("ks"));
    const std::vector<double> temperatures = readList(parser, QStringLiteral("temperatures"));
    const int repeat = std::max(1, readInt(parser, QStringLiteral("repeat"), 2));
    std::vector<TreeShape> trees; // with --tree (repeatable), the trees replace the K axis
    for (const QString &text : parser.values(QStringLiteral("tree")))
        trees.push_back(readTree(text));
    const std::size_t columns = trees.empty() ? ks.size() : trees.size();

    auto experiment = Experiment::load(setup, corpusCatalog(), false, loadingLine(setup, false));
    std::vector<std::unique_ptr<LanguageModel>> draftModels;
    for (const QString &spec : drafts)
        draftModels.push_back(experiment->makeDraft(spec.toStdString(), setup.draftCorpus));

    const bool json = parser.isSet(QStringLiteral("json"));
    QJsonArray rows;
    if (!json) {
        out() << tr("target %1, %2 tokens, prompt \"%3\", seed %4")
                     .arg(QString::fromStdString(experiment->target().describe()))
                     .arg(setup.tokens)
                     .arg(QString::fromStdString(setup.prompt))
                     .arg(setup.decoding.seed)
              << "\n\n";
        if (trees.empty())
            out() << tr(
                "| draft | T | K | α | tokens/round | c | predicted | V(K+1) | c step | predicted with V | V run | "
                "c run | predicted with V run | measured | measured/predicted | measured/predicted with V | "
                "measured/predicted with V run |")
                  << '\n'
                  << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        else
            out() << tr(
                "| draft | T | tree | nodes | tokens/target call | nodes/accepted token | acceptance per depth | "
                "measured |")
                  << '\n'
                  << "|---|---|---|---|---|---|---|---|\n";
        out().flush();
    }
    // V(m) = T_target(m new positions) / T_target(1) and c = T_draft(1) / T_target(1), measured before the runs
    // through the same states they use, at the pasts of a run's middle half, with rounds of K draft calls after the
    // target's (VerificationCost.h): once per draft and K.
    std::vector<std::vector<VerificationCost>> costs(draftModels.size());
    if (trees.empty()) {
        for (std::size_t d = 0; d < draftModels.size(); ++d)
            for (const auto k : ks)
                costs[d].push_back(measureVerificationCost(
                    experiment->target(), draftModels[d].get(), experiment->prompt(), static_cast<int>(k) + 1,
                    setup.decoding.kvCache, 7, {setup.tokens, static_cast<int>(k)}));
    }
    for (double temperature : temperatures) {
        DecodingSettings decoding = setup.decoding;
        decoding.target.temperature = decoding.draft.temperature = temperature;
        decoding.target.validate();
        generateAutoregressive(experiment->target(), decoding.target, decoding.seed, experiment->prompt(), 4, {},
                               decoding.kvCache); // warm-up
        for (std::size_t d = 0; d < draftModels.size(); ++d) {
            for (std::size_t column = 0; column < columns; ++column) {
                if (trees.empty())
                    decoding.draftLength = static_cast<int>(ks[column]);
                else
                    decoding.tree = trees[column];
                decoding.validate();
                // Each speculative run plays its baseline alongside in the same steps (SpeculativeRun), and the
                // fastest of `repeat` runs counts on each side.
                Generation g;
                double baseSeconds = 0.0;
                double baseStep = 0.0;
                for (int r = 0; r < repeat; ++r) {
                    Generation s = generateSpeculative(experiment->target(), *draftModels[d], decoding,
                                                       experiment->prompt(), setup.tokens, {}, true);
                    if (r == 0 || s.report.baseline->seconds < baseSeconds) {
                        baseSeconds = s.report.baseline->seconds;
                        baseStep = s.report.baseline->stepSeconds();
                    }
                    if (r == 0 || s.seconds < g.seconds)
                        g = std::move(s);
                }
                const bool sameText = g.tokens == g.baselineTokens;
                if (!trees.empty()) {
                    const RunMetrics m = g.report.metrics;
                    const double measured = g.seconds > 0.0 ? baseSeconds / g.seconds : 0.0;
                    QJsonArray perDepth;
                    for (double a : m.perPositionAcceptance)
                        perDepth.append(a);
                    rows.append(QJsonObject{
                        {QStringLiteral("draft"), QString::fromStdString(draftModels[d]->describe())},
                        {QStringLiteral("temperature"), temperature},
                        {QStringLiteral("tree"), QString::fromStdString(decoding.tree.describe())},
                        {QStringLiteral("nodes"), decoding.tree.nodeCount()},
                        {QStringLiteral("tokens_per_target_call"), m.speedupForwardPasses},
                        {QStringLiteral("nodes_per_accepted_token"), g.report.nodesPerAcceptedToken()},
                        {QStringLiteral("per_depth_acceptance"), perDepth},
                        {QStringLiteral("measured_speedup"), measured},
                        {QStringLiteral("baseline_seconds"), baseSeconds},
                        {QStringLiteral("seconds"), g.seconds},
                        {QStringLiteral("same_text_as_baseline"), sameText},
                    });
                    if (!json) {
                        out() << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8× |")
                                     .arg(QString::fromStdString(draftModels[d]->describe()))
                                     .arg(temperature)
                                     .arg(QString::fromStdString(decoding.tree.describe()))
                                     .arg(decoding.tree.nodeCount())
                                     .arg(m.speedupForwardPasses, 0, 'f', 3)
                                     .arg(g.report.nodesPerAcceptedToken(), 0, 'f', 2)
                                     .arg(rates(m.perPositionAcceptance))
                                     .arg(measured, 0, 'f', 2)
                              << '\n';
                        out().flush();
                    }
                    continue;
                }
                const RunMetrics m = g.report.metrics;
                const double measured = g.seconds > 0.0 ? baseSeconds / g.seconds : 0.0;
                const int k = decoding.draftLength;
                // Before the run (CostProbe): V(K+1) and c of a round; from the run's own calls: the mean
                // verification call and the mean draft call over the mean baseline step.
                const VerificationCost &cost = costs[d][column];
                const double vk = cost.at(k + 1);
                const double predictedV = theory::generalisedSpeedup(m.acceptanceRate, k, cost.c, vk);
                const double step = baseStep;
                const double vRun = step > 0.0 ? g.report.target.secondsPerCall() / step : 0.0;
                const double cRun = step > 0.0 ? g.report.draft.secondsPerCall() / step : 0.0;
                const double predictedVRun = theory::generalisedSpeedup(m.acceptanceRate, k, cRun, vRun);
                auto ratio = [measured](double predicted) { return predicted > 0.0 ? measured / predicted : 0.0; };
                const QJsonObject row{
                    {QStringLiteral("draft"), QString::fromStdString(draftModels[d]->describe())},
                    {QStringLiteral("temperature"), temperature},
                    {QStringLiteral("k"), k},
                    {QStringLiteral("acceptance_rate"), m.acceptanceRate},
                    {QStringLiteral("tokens_per_round"), m.tokensPerRound},
                    {QStringLiteral("cost_ratio_c"), m.costRatio},
                    {QStringLiteral("predicted_speedup"), m.speedupCostModel},
                    {QStringLiteral("verification_cost"), vk},
                    {QStringLiteral("draft_cost_step"), cost.c},
                    {QStringLiteral("predicted_speedup_generalised"), predictedV},
                    {QStringLiteral("verification_cost_run"), vRun},
                    {QStringLiteral("draft_cost_run"), cRun},
                    {QStringLiteral("predicted_speedup_generalised_run"), predictedVRun},
                    {QStringLiteral("measured_speedup"), measured},
                    {QStringLiteral("baseline_seconds"), baseSeconds},
                    {QStringLiteral("seconds"), g.seconds},
                    {QStringLiteral("same_text_as_baseline"), sameText},
                };
                rows.append(row);
                if (!json) {
                    const QString cells[] = {
                        QString::fromStdString(draftModels[d]->describe()),
                        QString::number(temperature),
                        QString::number(k),
                        QString::number(m.acceptanceRate, 'f', 3),
                        QString::number(m.tokensPerRound, 'f', 2),
                        QString::number(m.costRatio, 'f', 3),
                        QString::number(m.speedupCostModel, 'f', 2) + QStringLiteral("×"),
                        QString::number(vk, 'f', 2),
                        QString::number(cost.c, 'f', 3),
                        QString::number(predictedV, 'f', 2) + QStringLiteral("×"),
                        QString::number(vRun, 'f', 2),
                        QString::number(cRun, 'f', 3),
                        QString::number(predictedVRun, 'f', 2) + QStringLiteral("×"),
                        QString::number(measured, 'f', 2) + QStringLiteral("×"),
                        QString::number(ratio(m.speedupCostModel), 'f', 2),
                        QString::number(ratio(predictedV), 'f', 2),
                        QString::number(ratio(predictedVRun), 'f', 2),
                    };
                    QString line = QStringLiteral("|");
                    for (const QString &cell : cells)
                        line += QLatin1Char(' ') + cell + QStringLiteral(" |");
                    out() << line << '\n';
                    out().flush();
                }
            }
        }
    }
    if (json)
        printJson({{QStringLiteral("target"), QString::fromStdString(experiment->target().describe())},
                   {QStringLiteral("tokens"), setup.tokens},
                   {QStringLiteral("rows"), rows}});
    return 0;
}

} // namespace specdec::cli
