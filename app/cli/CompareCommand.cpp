// SPDX-License-Identifier: GPL-3.0-or-later
// specdec compare: several drafts against one target, same prompt, seed and sampler settings.
#include "CliOptions.h"
#include "Commands.h"
#include "ExperimentNotes.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Generation.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace specdec::cli {

int compareCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | DecodeOptions | SamplerOptions | OutputOptions);
    parser.addOption({QStringLiteral("baseline"),
                      tr("Also decode autoregressively with the target and report wall-clock speedups.")});
    if (!parseArguments(parser, QStringLiteral("compare"),
                        tr("Run several drafts (repeat --draft) against one target and compare them."), arguments))
        return 0;
    Setup setup = readSetup(parser);
    QStringList drafts = parser.values(QStringLiteral("draft"));
    if (drafts.isEmpty())
        drafts << QString::fromStdString(setup.draft); // the default draft of the setup (Experiment.h)
    if (drafts.size() > 6)
        throw UsageError(tr("compare takes at most 6 drafts, got %1").arg(drafts.size()));
    if (drafts.size() < 2 && parser.values(QStringLiteral("tree")).size() < 2)
        throw UsageError(tr("compare takes 2 to 6 drafts (repeat --draft) or 2 to 6 trees (repeat --tree), got one"));

    auto experiment = Experiment::load(setup, corpusCatalog(), false, loadingLine(setup, false));
    if (const QString line = followSamplingAdvice(parser, experiment->target(), setup); !line.isEmpty())
        err() << line << '\n';
    const Tokenizer &vocab = experiment->tokenizer();
    // Each run plays its own baseline alongside (SpeculativeRun), so a moment the CPU serves something else
    // slows both sides of its ratio.
    const bool baseline = parser.isSet(QStringLiteral("baseline"));

    QJsonArray results;
    const bool json = parser.isSet(QStringLiteral("json"));
    const QStringList trees = parser.values(QStringLiteral("tree"));
    if (trees.size() > 6)
        throw UsageError(tr("compare takes at most 6 trees, got %1").arg(trees.size()));
    auto wallClock = [](const RunMetrics &m) {
        return m.speedupWallClock ? QString::number(*m.speedupWallClock, 'f', 2) + QLatin1Char('x') : QStringLiteral("-");
    };
    if (!trees.isEmpty() && !json)
        out() << tr("draft                     tree     nodes  tokens/call  accepted/call  nodes/accepted  "
                    "per-depth acceptance      seconds  wall-clock")
              << '\n';
    for (const QString &spec : trees.isEmpty() ? QStringList() : drafts) {
        auto draft = experiment->makeDraft(spec.toStdString(), setup.draftCorpus);
        for (const QString &treeText : trees) {
            DecodingSettings decoding = setup.decoding;
            decoding.tree = readTree(treeText);
            const Generation g = generateSpeculative(experiment->target(), *draft, decoding, experiment->prompt(),
                                                     setup.tokens, {}, baseline);
            const RunMetrics &m = g.report.metrics;
            QJsonObject o = reportJson(g.report, vocab, g.tokens, g.baselineTokens);
            o.insert(QStringLiteral("draft"), QString::fromStdString(draft->describe()));
            results.append(o);
            if (json)
                continue;
            const double perCall = m.targetCalls > 0 ? static_cast<double>(m.accepted) / m.targetCalls : 0.0;
            out() << QStringLiteral("%1 %2 %3 %4 %5 %6  %7 %8 %9")
                         .arg(QString::fromStdString(draft->describe()), -24)
                         .arg(QString::fromStdString(decoding.tree.describe()), -8)
                         .arg(decoding.tree.nodeCount(), 5)
                         .arg(m.speedupForwardPasses, 12, 'f', 3)
                         .arg(perCall, 14, 'f', 3)
                         .arg(g.report.nodesPerAcceptedToken(), 15, 'f', 2)
                         .arg(rates(m.perPositionAcceptance), -24)
                         .arg(g.seconds, 8, 'f', 3)
                         .arg(wallClock(m), 11)
                  << '\n';
            out().flush();
        }
    }
    if (!json && trees.isEmpty())
        out() << tr("draft                     alpha  tok/round      c  passes  cost-model  wall-clock  draft ms")
              << '\n';
    for (const QString &spec : trees.isEmpty() ? drafts : QStringList()) {
        auto draft = experiment->makeDraft(spec.toStdString(), setup.draftCorpus);
        const Generation g = generateSpeculative(experiment->target(), *draft, setup.decoding, experiment->prompt(),
                                                 setup.tokens, {}, baseline);
        const RunMetrics &m = g.report.metrics;
        QJsonObject o = reportJson(g.report, vocab, g.tokens, g.baselineTokens);
        o.insert(QStringLiteral("draft"), QString::fromStdString(draft->describe()));
        results.append(o);
        if (!json) {
            out() << QStringLiteral("%1 %2 %3 %4 %5x %6x %7 %8")
                         .arg(QString::fromStdString(draft->describe()), -24)
                         .arg(m.acceptanceRate, 6, 'f', 3)
                         .arg(m.tokensPerRound, 10, 'f', 2)
                         .arg(fixed(m.costRatio, 3), 6)
                         .arg(m.speedupForwardPasses, 6, 'f', 2)
                         .arg(fixed(m.speedupCostModel, 2), 10)
                         .arg(wallClock(m), 11)
                         .arg(1000.0 * g.report.draft.secondsPerCall(), 9, 'f', 4)
                  << '\n';
            out().flush();
        }
    }
    for (const QString &w : app::experimentWarnings(*experiment))
        printError(QStringLiteral("warning"), w);
    if (json) {
        QJsonObject report{
            {QStringLiteral("corpus"), QString::fromStdString(experiment->corpus().name)},
            {QStringLiteral("target"), QString::fromStdString(experiment->target().describe())},
            {QStringLiteral("prompt"), QString::fromStdString(setup.prompt)},
            {QStringLiteral("k"), setup.decoding.draftLength},
            {QStringLiteral("trees"), QJsonArray::fromStringList(trees)},
            {QStringLiteral("policy"), QString::fromStdString(setup.decoding.policy.describe())},
            {QStringLiteral("temperature"), setup.decoding.target.temperature},
            {QStringLiteral("seed"), QString::number(setup.decoding.seed)},
            {QStringLiteral("results"), results},
        };
        printJson(report);
    }
    return 0;
}

} // namespace specdec::cli
