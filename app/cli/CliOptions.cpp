// SPDX-License-Identifier: GPL-3.0-or-later
#include "CliOptions.h"

#include "DefaultModels.h"
#include "Output.h"
#include "SessionFile.h"

#include <QCoreApplication>

#include <cmath>

namespace specdec::cli {

void addOptions(QCommandLineParser &parser, int groups)
{
    if (groups & CorpusOptions)
        parser.addOption({QStringLiteral("corpus"), tr("Corpus: a built corpus name (kjv, tang-song) or a UTF-8 file."),
                          tr("name|path"), QStringLiteral("kjv")});
    if (groups & ModelOptions) {
        parser.addOption({QStringLiteral("target"),
                          tr("Target model: ngram:ORDER, ngram:ORDER:addk=K, onnx:PATH, hf:FOLDER."), tr("spec"),
                          QStringLiteral("ngram:6")});
        parser.addOption({QStringLiteral("draft"),
                          tr("Draft model: ngram:ORDER, ngram:ORDER:addk=K, uniform, same, onnx:PATH, hf:FOLDER."),
                          tr("spec"), QStringLiteral("ngram:2")});
        parser.addOption({QStringLiteral("draft-corpus"), tr("Train the draft on another corpus."), tr("name|path")});
        addTokenizerOption(parser);
        parser.addOption({QStringLiteral("threads"), tr("Threads of the ONNX executor (0 = all cores)."), tr("n"),
                          QStringLiteral("0")});
    }
    if (groups & DecodeOptions) {
        parser.addOption({QStringLiteral("prompt"), tr("Text to continue."), tr("text")});
        parser.addOption({QStringLiteral("tokens"), tr("Tokens to generate."), tr("n"), QStringLiteral("200")});
        parser.addOption({QStringLiteral("cap"), tr("The most tokens a run writes; it stops there and says so."),
                          tr("n"), QStringLiteral("200000")});
        parser.addOption({{QStringLiteral("k"), QStringLiteral("draft-length")},
                          tr("Draft length K (1-64)."),
                          tr("K"),
                          QStringLiteral("4")});
        parser.addOption({QStringLiteral("seed"), tr("Random seed: the same seed gives the same run."), tr("n"),
                          QStringLiteral("0")});
        parser.addOption(
            {QStringLiteral("mode"), tr("speculative or autoregressive."), tr("mode"), QStringLiteral("speculative")});
        parser.addOption({QStringLiteral("policy"),
                          tr("Draft length policy: constant, heuristic, confidence:TAU, threshold:H."), tr("policy"),
                          QStringLiteral("constant")});
        parser.addOption({QStringLiteral("session"),
                          tr("Start from the setup saved in a session file (options given override it)."), tr("file")});
        parser.addOption({QStringLiteral("kv-cache"),
                          tr("Decode with each model's key/value cache (on) or recompute the window every call (off)."),
                          tr("on|off"), QStringLiteral("on")});
        parser.addOption({QStringLiteral("variant"),
                          tr("Acceptance rule: correct, or a wrong variant (accept-all, greedy-match, "
                             "resample-from-target, unnormalized-residual, temperature-target-only; with "
                             "--tree: no-residual-update, typical-acceptance)."),
                          tr("name"), QStringLiteral("correct")});
        parser.addOption({QStringLiteral("tree"),
                          tr("Draft a token tree instead of a chain: children per depth, e.g. 3,2,1 "
                             "(1,1,1,1 is the chain K = 4)."),
                          tr("shape")});
    }
    if (groups & SamplerOptions) {
        parser.addOption(
            {QStringLiteral("temperature"), tr("Target temperature; 0 = greedy."), tr("T"), QStringLiteral("1")});
        parser.addOption({QStringLiteral("draft-temperature"), tr("Draft temperature (default: the target's)."), tr("T")});
        parser.addOption(
            {QStringLiteral("top-k"), tr("Keep the k most probable tokens (0 = off)."), tr("k"), QStringLiteral("0")});
        parser.addOption(
            {QStringLiteral("top-p"), tr("Nucleus sampling mass in (0, 1] (1 = off)."), tr("p"), QStringLiteral("1")});
    }
    if (groups & OutputOptions)
        parser.addOption({QStringLiteral("json"), tr("Print one JSON object.")});
}

int readInt(const QCommandLineParser &parser, const QString &name, int defaultValue)
{
    const std::int64_t value = readInt64(parser, name, defaultValue);
    if (value < INT32_MIN || value > INT32_MAX)
        throw UsageError(tr("--%1 is out of range: %2").arg(name).arg(value));
    return static_cast<int>(value);
}

std::int64_t readInt64(const QCommandLineParser &parser, const QString &name, std::int64_t defaultValue)
{
    if (!parser.isSet(name) && parser.value(name).isEmpty())
        return defaultValue;
    bool ok = false;
    const QString text = parser.value(name);
    const std::int64_t value = text.toLongLong(&ok);
    if (!ok)
        throw UsageError(tr("--%1 expects a whole number, got '%2'").arg(name, text));
    return value;
}

std::uint64_t readSeed(const QCommandLineParser &parser)
{
    const QString text = parser.value(QStringLiteral("seed"));
    bool ok = false;
    const std::uint64_t value = text.toULongLong(&ok);
    if (!ok || text.trimmed().startsWith(QLatin1Char('-')))
        throw UsageError(tr("--seed expects a whole number from 0 to 18446744073709551615, got '%1'").arg(text));
    return value;
}

double readDouble(const QCommandLineParser &parser, const QString &name, double defaultValue)
{
    if (!parser.isSet(name) && parser.value(name).isEmpty())
        return defaultValue;
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value))
        throw UsageError(tr("--%1 expects a number, got '%2'").arg(name, text));
    return value;
}

SamplerSettings readSampler(const QCommandLineParser &parser)
{
    SamplerSettings s;
    s.temperature = readDouble(parser, QStringLiteral("temperature"), 1.0);
    s.topK = readInt(parser, QStringLiteral("top-k"), 0);
    s.topP = readDouble(parser, QStringLiteral("top-p"), 1.0);
    s.validate();
    return s;
}

DecodingMode readMode(const QCommandLineParser &parser)
{
    const QString mode = parser.value(QStringLiteral("mode"));
    if (mode == QLatin1String("speculative"))
        return DecodingMode::Speculative;
    if (mode == QLatin1String("autoregressive"))
        return DecodingMode::Autoregressive;
    throw UsageError(tr("--mode must be speculative or autoregressive, got '%1'").arg(mode));
}

Variant readVariant(const QCommandLineParser &parser)
{
    const QString name = parser.value(QStringLiteral("variant"));
    const auto variant = variantFromName(name.toStdString());
    if (!variant) {
        QStringList names;
        for (Variant v : allVariants())
            names << QString::fromStdString(variantName(v));
        throw UsageError(tr("unknown variant '%1' (known: %2)").arg(name, names.join(QStringLiteral(", "))));
    }
    return *variant;
}

TreeVariant readTreeVariant(const QCommandLineParser &parser)
{
    const QString name = parser.value(QStringLiteral("variant"));
    const auto variant = treeVariantFromName(name.toStdString());
    if (!variant) {
        QStringList names;
        for (TreeVariant v : allTreeVariants())
            names << QString::fromStdString(treeVariantName(v));
        throw UsageError(
            tr("unknown tree variant '%1' (known with --tree: %2)").arg(name, names.join(QStringLiteral(", "))));
    }
    return *variant;
}

TreeShape readTree(const QString &text)
{
    return TreeShape::parse(text.toStdString());
}

void addTokenizerOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("tokenizer"),
                      tr("The tokenizer the target and the draft share: chars (Unicode code points), or a Hugging "
                         "Face tokenizer.json (or the folder holding it)."),
                      tr("chars|path"), QStringLiteral("chars")});
}

QString followSamplingAdvice(const QCommandLineParser &parser, const LanguageModel &target, Setup &setup)
{
    const std::optional<LanguageModel::SamplingAdvice> advice = target.samplingAdvice();
    if (!advice || parser.isSet(QStringLiteral("session")))
        return {};
    for (const char *name : {"temperature", "draft-temperature", "top-k", "top-p"})
        if (parser.isSet(QLatin1String(name)))
            return {};
    SamplerSettings &t = setup.decoding.target;
    t.temperature = advice->temperature;
    t.topK = advice->topK;
    t.topP = advice->topP;
    setup.decoding.draft = t;
    const QString file = QString::fromStdString(advice->file);
    if (t.greedy())
        return tr("specdec: greedy (temperature 0), as %1 says (do_sample false); --temperature T samples").arg(file);
    return tr("specdec: temperature %1, top-k %2, top-p %3, as %4 says; --temperature, --top-k, --top-p set others")
        .arg(t.temperature)
        .arg(t.topK)
        .arg(t.topP)
        .arg(file);
}

Setup readSetup(const QCommandLineParser &parser)
{
    const bool fromSession = parser.isSet(QStringLiteral("session"));
    Setup setup = fromSession ? SessionFile::load(parser.value(QStringLiteral("session"))).setup : Setup{};
    // Without a session every option counts (given or default); with one, only the options given.
    auto use = [&](const char *name) { return !fromSession || parser.isSet(QLatin1String(name)); };
    auto string = [&](const char *name, std::string &field) {
        if (use(name))
            field = parser.value(QLatin1String(name)).toStdString();
    };
    string("corpus", setup.corpus);
    string("target", setup.target);
    string("draft", setup.draft);
    if (!fromSession && !parser.isSet(QStringLiteral("target"))) // kjv: the chef (Experiment.h), else n-grams
        setup.target = defaultTarget(setup.corpus);
    if (!fromSession && !parser.isSet(QStringLiteral("draft")))
        setup.draft = defaultDraft(setup.target);
    string("draft-corpus", setup.draftCorpus);
    string("tokenizer", setup.tokenizer);
    if (!fromSession && !parser.isSet(QStringLiteral("target")) && setup.tokenizer != "chars") {
        setup.target = Setup{}.target; // the chef reads characters: a tokenizer.json starts from the n-grams
        if (!parser.isSet(QStringLiteral("draft")))
            setup.draft = Setup{}.draft;
    }
    string("prompt", setup.prompt);
    if (!fromSession && !parser.isSet(QStringLiteral("prompt")) && setup.target == kChefTarget)
        setup.prompt = kChefPrompt; // the chef continues a text; the n-grams may start from nothing
    if (use("tokens"))
        setup.tokens = readInt(parser, QStringLiteral("tokens"), 200);
    if (use("cap"))
        setup.cap = readInt(parser, QStringLiteral("cap"), 200000);
    if (use("threads"))
        setup.threads = readInt(parser, QStringLiteral("threads"), 0);
    if (setup.threads < 0)
        throw UsageError(tr("--threads must be >= 0, got %1").arg(setup.threads));
    DecodingSettings &d = setup.decoding;
    if (use("k"))
        d.draftLength = !fromSession && !parser.isSet(QStringLiteral("k")) && setup.target == kChefTarget
            ? kChefDraftLength
            : readInt(parser, QStringLiteral("k"), 4);
    if (use("seed"))
        d.seed = readSeed(parser);
    if (use("temperature"))
        d.target.temperature = readDouble(parser, QStringLiteral("temperature"), 1.0);
    if (use("top-k"))
        d.target.topK = d.draft.topK = readInt(parser, QStringLiteral("top-k"), 0);
    if (use("top-p"))
        d.target.topP = d.draft.topP = readDouble(parser, QStringLiteral("top-p"), 1.0);
    if (parser.isSet(QStringLiteral("draft-temperature")))
        d.draft.temperature = readDouble(parser, QStringLiteral("draft-temperature"), 1.0);
    else if (use("temperature"))
        d.draft.temperature = d.target.temperature;
    if (use("policy"))
        d.policy = DraftPolicy::parse(parser.value(QStringLiteral("policy")).toStdString());
    if (parser.isSet(QStringLiteral("tree"))) {
        d.tree = readTree(parser.value(QStringLiteral("tree")));
        d.treeVariant = readTreeVariant(parser);
    } else if (use("variant")) {
        d.variant = readVariant(parser);
    }
    if (use("kv-cache")) {
        const QString cache = parser.value(QStringLiteral("kv-cache"));
        if (cache != QLatin1String("on") && cache != QLatin1String("off"))
            throw UsageError(tr("--kv-cache must be on or off, got '%1'").arg(cache));
        d.kvCache = cache == QLatin1String("on");
    }
    setup.validate();
    return setup;
}

} // namespace specdec::cli
