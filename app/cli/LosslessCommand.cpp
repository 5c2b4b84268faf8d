// SPDX-License-Identifier: GPL-3.0-or-later
// specdec lossless: the classroom's one-step lab. Does one speculative step output tokens distributed as p?
#include "CliOptions.h"
#include "Commands.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"

#include "CandidatesLab.h"
#include "LosslessLab.h"
#include "Sampler.h"
#include "TestedDistribution.h"
#include "Utf8.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>

namespace specdec::cli {

namespace {

/// The chi-square line and the verdict (p-value below 10^-6: not p) with the variant's explanation.
void printVerdict(const ChiSquareResult &chi, double totalVariation, const std::string &explanation)
{
    out() << tr("chi-square %1 on %2 degrees of freedom: p-value %3, TV(histogram, p) = %4")
                 .arg(chi.statistic, 0, 'f', 1)
                 .arg(chi.degreesOfFreedom)
                 .arg(chi.pValue, 0, 'g', 4)
                 .arg(totalVariation, 0, 'f', 5)
          << '\n';
    out() << (chi.pValue < 1e-6 ? tr("the output does NOT follow p: ") : tr("consistent with p: "))
          << QString::fromStdString(explanation) << '\n';
}

/// The k-candidates mode: counts split into "accepted j-th candidate" parts and the correction, the
/// chi-square against p, and the measured acceptance beside the exact one-node formula.
int candidatesReport(const Eigen::VectorXd &p, const Eigen::VectorXd &q, int k, TreeVariant variant, std::int64_t samples,
                     std::uint64_t seed, const Tokenizer &vocab, const std::string &context, bool json)
{
    CandidatesLab lab(p, q, k, variant);
    Rng rng(seed);
    lab.run(samples, rng);
    const ChiSquareResult chi = lab.test();
    QJsonObject counts, expected, correction;
    QJsonArray accepted;
    for (int j = 0; j < k; ++j)
        accepted.append(QJsonObject());
    for (int x = 0; x < vocab.size(); ++x) {
        const auto i = static_cast<std::size_t>(x);
        if (lab.counts()[i] == 0 && p[x] == 0.0)
            continue;
        const QString token = tokenToString(vocab, x);
        counts.insert(token, static_cast<double>(lab.counts()[i]));
        expected.insert(token, p[x] * static_cast<double>(samples));
        correction.insert(token, static_cast<double>(lab.correctionCounts()[i]));
        for (int j = 0; j < k; ++j) {
            QJsonObject part = accepted[j].toObject();
            part.insert(token, static_cast<double>(lab.acceptedCounts(j)[i]));
            accepted[j] = part;
        }
    }
    const QJsonObject report{
        {QStringLiteral("mode"), QStringLiteral("k-candidates")},
        {QStringLiteral("k"), k},
        {QStringLiteral("variant"), QString::fromStdString(treeVariantName(variant))},
        {QStringLiteral("explanation"), QString::fromStdString(treeVariantExplanation(variant))},
        {QStringLiteral("context"), QString::fromStdString(context)},
        {QStringLiteral("samples"), static_cast<double>(samples)},
        {QStringLiteral("chi2"), std::isfinite(chi.statistic) ? QJsonValue(chi.statistic) : QJsonValue()},
        {QStringLiteral("dof"), chi.degreesOfFreedom},
        {QStringLiteral("p_value"), chi.pValue},
        {QStringLiteral("tv"), lab.totalVariation()},
        {QStringLiteral("measured_acceptance"), lab.measuredAcceptance()},
        {QStringLiteral("acceptance_half_width"), lab.acceptanceHalfWidth()},
        {QStringLiteral("exact_acceptance"), lab.exactAcceptance()},
        {QStringLiteral("counts"), counts},
        {QStringLiteral("expected"), expected},
        {QStringLiteral("accepted"), accepted},
        {QStringLiteral("correction"), correction},
    };
    if (json) {
        printJson(report);
        return 0;
    }
    out() << tr("%1, k = %2 candidates: %3 one-step samples after \"%4\"")
                 .arg(QString::fromStdString(treeVariantName(variant)))
                 .arg(k)
                 .arg(samples)
                 .arg(QString::fromStdString(context))
          << '\n';
    out() << tr("a candidate accepted: measured %1 +- %2 (99.9%), exact 1 - prod(1 - beta_j) = %3")
                 .arg(lab.measuredAcceptance(), 0, 'f', 4)
                 .arg(lab.acceptanceHalfWidth(), 0, 'f', 4)
                 .arg(lab.exactAcceptance(), 0, 'f', 4)
          << '\n';
    printVerdict(chi, lab.totalVariation(), treeVariantExplanation(variant));
    out().flush();
    return 0;
}

} // namespace

int losslessCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | ModelOptions | SamplerOptions | OutputOptions);
    parser.addOption({QStringLiteral("context"), tr("Text before the sampled token."), tr("text")});
    parser.addOption({QStringLiteral("variant"),
                      tr("correct, accept-all, greedy-match, resample-from-target, "
                         "unnormalized-residual or temperature-target-only; with --tree: "
                         "correct, no-residual-update or typical-acceptance."),
                      tr("name"), QStringLiteral("correct")});
    parser.addOption({QStringLiteral("tree"),
                      tr("k-candidates mode: k drafts drawn i.i.d. from q, tested one by one (a tree of one depth, "
                         "e.g. 3)."),
                      tr("k")});
    parser.addOption({QStringLiteral("samples"), tr("One-step samples (up to 10^9)."), tr("S"), QStringLiteral("100000")});
    parser.addOption({QStringLiteral("seed"), tr("Random seed."), tr("n"), QStringLiteral("0")});
    if (!parseArguments(parser, QStringLiteral("lossless"),
                        tr("Sample one speculative step many times and test the output against p."), arguments))
        return 0;

    Setup setup;
    setup.corpus = parser.value(QStringLiteral("corpus")).toStdString();
    setup.target = parser.value(QStringLiteral("target")).toStdString();
    setup.draft = parser.value(QStringLiteral("draft")).toStdString();
    setup.draftCorpus = parser.value(QStringLiteral("draft-corpus")).toStdString();
    setup.tokenizer = parser.value(QStringLiteral("tokenizer")).toStdString();
    setup.prompt = parser.value(QStringLiteral("context")).toStdString();
    setup.threads = readInt(parser, QStringLiteral("threads"), 0);
    setup.decoding.target = readSampler(parser);
    setup.decoding.draft = setup.decoding.target;
    setup.decoding.draft.temperature = readDouble(parser, QStringLiteral("draft-temperature"),
                                                  setup.decoding.target.temperature);
    setup.decoding.draft.validate();
    const bool candidates = parser.isSet(QStringLiteral("tree"));
    int k = 1;
    if (candidates) {
        const TreeShape shape = readTree(parser.value(QStringLiteral("tree")));
        if (shape.depth() != 1)
            throw UsageError(tr("lossless samples one step: --tree takes one depth (k candidates), got %1")
                                 .arg(QString::fromStdString(shape.describe())));
        k = shape.branching(1);
    }
    const Variant variant = candidates ? Variant::Correct : readVariant(parser);
    const TreeVariant treeVariant = candidates ? readTreeVariant(parser) : TreeVariant::Correct;
    const std::int64_t samples = readInt64(parser, QStringLiteral("samples"), 100000);
    if (samples < 1 || samples > 1000000000)
        throw UsageError(tr("--samples must be between 1 and 10^9, got %1").arg(samples));
    const auto seed = static_cast<std::uint64_t>(readInt64(parser, QStringLiteral("seed"), 0));

    auto experiment = Experiment::load(setup, corpusCatalog(), true, loadingLine(setup, true));
    const Tokenizer &vocab = experiment->tokenizer();
    DistributionMatrix row;
    experiment->target().distributions(experiment->prompt(), 1, row);
    Eigen::VectorXd p = row.row(0).transpose();
    applySampler(setup.decoding.target, p);
    experiment->draft()->distributions(experiment->prompt(), 1, row);
    const Eigen::VectorXd qRaw = row.row(0).transpose();
    Eigen::VectorXd q = qRaw;
    applySampler(setup.decoding.draft, q);
    const Eigen::VectorXd qTest = testedDistribution(variant, setup.decoding.draft, qRaw);

    if (candidates)
        return candidatesReport(p, q, k, treeVariant, samples, seed, vocab, setup.prompt,
                                parser.isSet(QStringLiteral("json")));

    LosslessLab lab(p, q, variant, qTest);
    Rng rng(seed);
    lab.run(samples, rng);
    const ChiSquareResult chi = lab.test();

    QJsonObject counts, expected, accepted, replaced;
    for (int x = 0; x < vocab.size(); ++x) {
        const auto i = static_cast<std::size_t>(x);
        if (lab.counts()[i] == 0 && p[x] == 0.0)
            continue;
        const QString token = tokenToString(vocab, x);
        counts.insert(token, static_cast<double>(lab.counts()[i]));
        expected.insert(token, p[x] * static_cast<double>(samples));
        accepted.insert(token, static_cast<double>(lab.acceptedCounts()[i]));
        replaced.insert(token, static_cast<double>(lab.replacedCounts()[i]));
    }
    const QJsonObject report{
        {QStringLiteral("variant"), QString::fromStdString(variantName(variant))},
        {QStringLiteral("explanation"), QString::fromStdString(variantExplanation(variant))},
        {QStringLiteral("context"), QString::fromStdString(setup.prompt)},
        {QStringLiteral("samples"), static_cast<double>(samples)},
        {QStringLiteral("chi2"), std::isfinite(chi.statistic) ? QJsonValue(chi.statistic) : QJsonValue()},
        {QStringLiteral("dof"), chi.degreesOfFreedom},
        {QStringLiteral("p_value"), chi.pValue},
        {QStringLiteral("tv"), lab.totalVariation()},
        {QStringLiteral("beta"), overlapMass(p, q)},
        {QStringLiteral("counts"), counts},
        {QStringLiteral("expected"), expected},
        {QStringLiteral("accepted"), accepted},
        {QStringLiteral("replaced"), replaced},
    };
    if (parser.isSet(QStringLiteral("json"))) {
        printJson(report);
        return 0;
    }
    out() << tr("%1: %2 one-step samples after \"%3\"; beta = sum min(p, q) = %4")
                 .arg(QString::fromStdString(variantName(variant)))
                 .arg(samples)
                 .arg(QString::fromStdString(setup.prompt))
                 .arg(overlapMass(p, q), 0, 'f', 4)
          << '\n';
    printVerdict(chi, lab.totalVariation(), variantExplanation(variant));
    out().flush();
    return 0;
}

} // namespace specdec::cli
