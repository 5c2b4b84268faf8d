// SPDX-License-Identifier: GPL-3.0-or-later
// specdec dist: the next-token distribution of one model after a context.
#include "CliOptions.h"
#include "Commands.h"
#include "JsonReport.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Error.h"
#include "ModelFactory.h"
#include "Utf8.h"

#include <QCoreApplication>

#include <numeric>
#include <optional>

namespace specdec::cli {

int distCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser, CorpusOptions | SamplerOptions | OutputOptions);
    parser.addOption({QStringLiteral("model"),
                      tr("Model: ngram:ORDER, ngram:ORDER:addk=K, uniform, onnx:PATH, hf:FOLDER."), tr("spec"),
                      QStringLiteral("ngram:6")});
    parser.addOption({QStringLiteral("context"), tr("Text before the predicted token."), tr("text")});
    addTokenizerOption(parser);
    parser.addOption(
        {QStringLiteral("threads"), tr("Threads of the ONNX executor (0 = all cores)."), tr("n"), QStringLiteral("0")});
    if (!parseArguments(parser, QStringLiteral("dist"), tr("Print a model's next-token distribution."), arguments))
        return 0;

    const SamplerSettings sampler = readSampler(parser);
    const CorpusCatalog catalog = corpusCatalog();
    const ModelSpec spec = ModelSpec::parse(parser.value(QStringLiteral("model")).toStdString(), catalog);
    const Corpus corpus = catalog.load(parser.value(QStringLiteral("corpus")).toStdString());
    const std::string tokenizerPath = parser.value(QStringLiteral("tokenizer")).toStdString();
    const std::optional<Tokenizer> tokenizer = tokenizerPath == "chars"
        ? std::nullopt
        : std::optional<Tokenizer>(Tokenizer::load(catalog.dataFile(tokenizerPath)));
    BuiltModel built = buildModel(spec, corpus, tokenizer ? &*tokenizer : nullptr, nullptr,
                                  readInt(parser, QStringLiteral("threads"), 0));
    if (tokenizer && !(built.model->tokenizer() == *tokenizer))
        throw Error("the model " + spec.text + " uses " + built.model->tokenizer().describe() + ", not "
                    + tokenizer->describe() + " given as the tokenizer");
    LanguageModel &model = *built.model;
    const std::string context = parser.value(QStringLiteral("context")).toStdString();
    const std::vector<TokenId> ids = model.tokenizer().encode(context, "context");

    DistributionMatrix rows;
    model.distributions(ids, 1, rows);
    Eigen::VectorXd p = rows.row(0).transpose();
    applySampler(sampler, p);

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject report = distributionJson(p, model.tokenizer());
        report.insert(QStringLiteral("model"), QString::fromStdString(model.describe()));
        report.insert(QStringLiteral("context"), QString::fromStdString(context));
        printJson(report);
        return 0;
    }
    std::vector<int> order(static_cast<std::size_t>(p.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p[a] > p[b]; });
    out() << tr("%1 after \"%2\" (%3):")
                 .arg(QString::fromStdString(model.describe()), QString::fromStdString(context),
                      QString::fromStdString(sampler.describe()))
          << '\n';
    for (std::size_t i = 0; i < std::min<std::size_t>(order.size(), 20); ++i) {
        const Tokenizer &tokenizerOfModel = model.tokenizer();
        const QString token = tokenizerOfModel.characters()
            ? QString::fromStdString(displayCodePoint(tokenizerOfModel.characters()->token(order[i])))
            : QLatin1Char('\'') + visible(QString::fromStdString(tokenizerOfModel.display(order[i]))) + QLatin1Char('\'');
        out() << QStringLiteral("  %1  %2").arg(token, -8).arg(p[order[i]], 0, 'f', 6) << '\n';
    }
    out().flush();
    return 0;
}

} // namespace specdec::cli
