// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small helpers shared by the test suites: test corpora, built corpora and models trained on them.

#include "Corpus.h"
#include "ModelFactory.h"
#include "Random.h"
#include "TreeAcceptance.h"

#include <QString>
#include <QtTest>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

Q_DECLARE_METATYPE(Eigen::VectorXd)

namespace specdec {
struct DecodingSettings; // SpeculativeDecoder.h
struct ContinuationFit;  // Continuations.h
} // namespace specdec

namespace specdec::test {

/// Whether the suites run on CI (env CI=true): long statistical runs then use reduced sizes that still catch
/// the wrong variants.
bool onCi();

inline std::string dataPath(const char *file)
{
    return std::string(SPECDEC_TEST_DATA_DIR) + "/" + file;
}

inline Corpus tinyEnglish()
{
    return loadCorpusFile(dataPath("tiny-en.txt"));
}

inline Corpus tinyChinese()
{
    return loadCorpusFile(dataPath("tiny-zh.txt"));
}

/// The corpora built by the build (kjv, tang-song).
inline CorpusCatalog builtCorpora()
{
    return CorpusCatalog({SPECDEC_CORPUS_DIR});
}

/// A corpus built by the build (kjv, tang-song).
inline Corpus builtCorpus(const std::string &name)
{
    return builtCorpora().load(name);
}

/// The prompts the greedy-equivalence tests continue on a built corpus: empty, common, rare, one character.
inline std::vector<std::u32string> greedyPrompts(const QString &corpus)
{
    if (corpus == QLatin1String("kjv"))
        return {U"", U"In the beginning", U"And he said", U"Jesus wept.", U"the", U"Q", U"x"};
    return {U"", U"床前明月光", U"春", U"《静夜思》\n作者：李白\n", U"明月"};
}

/// Target and draft built from specs on one built corpus, the draft sharing the target's vocabulary.
struct BuiltPair
{
    Corpus corpus;
    BuiltModel target;
    BuiltModel draft;
};

inline BuiltPair builtPair(const QString &corpus, const QString &target, const QString &draft)
{
    BuiltPair pair{builtCorpus(corpus.toStdString()), {}, {}};
    pair.target = buildModel(ModelSpec::parse(target.toStdString()), pair.corpus);
    pair.draft = buildModel(ModelSpec::parse(draft.toStdString()), pair.corpus, &pair.target.model->tokenizer(),
                            pair.target.model.get());
    return pair;
}

inline std::unique_ptr<LanguageModel> model(const std::string &spec, const Corpus &corpus)
{
    return buildModel(ModelSpec::parse(spec), corpus).model;
}

/// The tiny model pair of the statistical and tree suites: target ngram:3 and draft ngram:1:addk=1 trained on
/// tiny-en.txt, and the prompt "the ". Small enough for exact continuation distributions and 10^5 samples.
struct TinyPair
{
    TinyPair();
    Corpus corpus;
    std::unique_ptr<LanguageModel> target;
    std::unique_ptr<LanguageModel> draft;
    std::vector<TokenId> prompt;
};

/// A tokenizer.json laid out by the tokenizer_files fixture (tests/tokenizer/fetch-tokenizers.sh): "qwen3",
/// "gpt2", "llama3", "mixtral", "gemma3" (the folder holding tokenizer.json).
inline std::string tokenizerFolder(const char *name)
{
    return std::string(SPECDEC_TOKENIZER_DIR) + "/" + name;
}

/// The subword pair: target ngram:4 and draft ngram:2 over kjv tokenized by Qwen3's tokenizer.json (151,669 ids,
/// every distribution that long), and the prompt "And God said". Built on first use, once per suite (about 5 s:
/// the tokenization of kjv and the two models); a suite using it requires the tokenizer_files fixture.
struct SubwordPair
{
    SubwordPair();
    Tokenizer tokenizer;
    Corpus corpus;
    std::unique_ptr<LanguageModel> target;
    std::unique_ptr<LanguageModel> draft;
    std::vector<TokenId> prompt;
};
SubwordPair &subwordPair();

/// Tree decoding settings: a shape ("3,2,1"), the same temperature and top-p for target and draft, a seed and
/// the rule children are tested with.
DecodingSettings treeSettings(const char *shape, double temperature, double topP, std::uint64_t seed,
                              TreeVariant variant = TreeVariant::Correct);

/// A vector from a list: vec({0.5, 0.3, 0.2}).
inline Eigen::VectorXd vec(std::initializer_list<double> values)
{
    Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double x : values)
        v[i++] = x;
    return v;
}

/// A random distribution over n tokens with a given number of exact zeros, from a fixed-seed generator.
Eigen::VectorXd randomDistribution(Rng &rng, int n, int zeros = 0);

/// The losslessness verdict of a chi-square fit of sampled continuations against their exact distribution,
/// printed as it is checked: a correct rule has no impossible continuation and p > 1e-3; a wrong variant is caught
/// at p < 1e-9; `minimumDegrees` (> 0) also asks for enough cells for the test to have power. Returns why the fit
/// contradicts `lossless`, empty when it agrees: QVERIFY2(why.isEmpty(), qPrintable(why)).
QString losslessVerdict(const ContinuationFit &fit, bool lossless, int minimumDegrees = 0);

} // namespace specdec::test
