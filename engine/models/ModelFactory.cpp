// SPDX-License-Identifier: GPL-3.0-or-later
#include "ModelFactory.h"

#include "Error.h"
#include "ModelFiles.h"
#include "PromptLookupModel.h"
#include "TeachingDrafts.h"

#include <charconv>
#include <cmath>

namespace specdec {

namespace {

const char *kForms = "expected ngram:ORDER, ngram:ORDER:addk=K, uniform, same, lookup:N, onnx:PATH or hf:PATH";

[[noreturn]] void badSpec(const std::string &spec, const std::string &why)
{
    throw Error("model spec '" + spec + "': " + why + " (" + kForms + ")");
}

int parseOrder(const std::string &spec, const std::string &digits)
{
    int order = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), order);
    if (ec != std::errc() || end != digits.data() + digits.size())
        badSpec(spec, "order '" + digits + "' is not a whole number");
    if (order < 1 || order > 10)
        badSpec(spec, "n-gram order must be between 1 and 10, got " + std::to_string(order));
    return order;
}

} // namespace

ModelSpec ModelSpec::parse(const std::string &spec)
{
    ModelSpec s;
    s.text = spec;
    if (spec == "uniform") {
        s.kind = Kind::Uniform;
    } else if (spec == "same") {
        s.kind = Kind::Same;
    } else if (spec.rfind("lookup:", 0) == 0) {
        s.kind = Kind::Lookup;
        const std::string digits = spec.substr(7);
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), s.lookup);
        if (ec != std::errc() || end != digits.data() + digits.size() || s.lookup < 1 || s.lookup > 16)
            badSpec(spec, "prompt lookup needs a length from 1 to 16");
    } else if (spec.rfind("onnx:", 0) == 0) {
        s.kind = Kind::Onnx;
        s.path = spec.substr(5);
        if (s.path.empty())
            badSpec(spec, "no file after onnx:");
    } else if (spec.rfind("hf:", 0) == 0) {
        s.kind = Kind::HfFolder;
        s.path = spec.substr(3);
        if (s.path.empty())
            badSpec(spec, "no folder after hf:");
    } else if (spec.rfind("ngram:", 0) == 0) {
        s.kind = Kind::NGram;
        const std::string rest = spec.substr(6);
        const auto colon = rest.find(':');
        s.ngram.order = parseOrder(spec, rest.substr(0, colon));
        s.ngram.smoothing = Smoothing::KneserNey;
        if (colon != std::string::npos) {
            const std::string option = rest.substr(colon + 1);
            if (option == "kn") {
                s.ngram.smoothing = Smoothing::KneserNey;
            } else if (option.rfind("addk=", 0) == 0) {
                s.ngram.smoothing = Smoothing::AddK;
                const std::string value = option.substr(5);
                char *end = nullptr;
                s.ngram.k = std::strtod(value.c_str(), &end);
                if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(s.ngram.k) || s.ngram.k < 0)
                    badSpec(spec, "add-k needs a number k >= 0, got '" + value + "'");
            } else {
                badSpec(spec, "unknown n-gram option '" + option + "'");
            }
        }
    } else {
        badSpec(spec, "unknown model kind");
    }
    return s;
}

ModelSpec ModelSpec::parse(const std::string &spec, const CorpusCatalog &catalog)
{
    ModelSpec parsed = parse(spec);
    if (parsed.kind == Kind::Onnx || parsed.kind == Kind::HfFolder)
        parsed.path = catalog.dataFile(parsed.path);
    return parsed;
}

// OnnxModelLoader.cpp (NoOnnxExecutor.cpp in a build without the executor)
std::unique_ptr<LanguageModel> loadOnnxModel(const std::string &path, int threads, const LoadProgress &progress);
std::unique_ptr<LanguageModel> loadHfFolderModel(const std::string &dir, int threads, const LoadProgress &progress);

double loadWork(const ModelSpec &spec, std::size_t corpusLength)
{
    switch (spec.kind) {
    case ModelSpec::Kind::Onnx:
    case ModelSpec::Kind::HfFolder:
        return static_cast<double>(weightFileBytes(NeuralModelRef{spec.kind == ModelSpec::Kind::HfFolder, spec.path}));
    case ModelSpec::Kind::NGram:
        return static_cast<double>(corpusLength) * (2.0 * spec.ngram.order - 1.0) * kNGramBytesPerPosition;
    default: return 0.0;
    }
}

BuiltModel buildModel(const ModelSpec &spec, const Corpus &corpus, const Tokenizer *tokenizer, LanguageModel *target,
                      int threads, const LoadProgress &progress)
{
    BuiltModel built;
    const Tokenizer vocab = tokenizer ? *tokenizer : Tokenizer::chars(corpus.vocabulary, corpus.name);
    switch (spec.kind) {
    case ModelSpec::Kind::NGram: {
        const std::vector<TokenId> ids = corpus.tokens(vocab, &built.unmapped);
        built.model = NGramModel::train(ids, vocab, spec.ngram, progress);
        break;
    }
    case ModelSpec::Kind::Uniform: built.model = std::make_unique<UniformModel>(vocab); break;
    case ModelSpec::Kind::Lookup: built.model = std::make_unique<PromptLookupModel>(vocab, spec.lookup); break;
    case ModelSpec::Kind::Same:
        if (!target)
            throw Error("model spec 'same' is a draft only: it stands for the target itself");
        built.model = std::make_unique<SameAsTargetModel>(*target);
        break;
    case ModelSpec::Kind::Onnx: built.model = loadOnnxModel(spec.path, threads, progress); break;
    case ModelSpec::Kind::HfFolder: built.model = loadHfFolderModel(spec.path, threads, progress); break;
    }
    progress.finish();
    return built;
}

} // namespace specdec
