// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestSupport.h"

#include "Continuations.h"
#include "Random.h"
#include "SpeculativeDecoder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace specdec::test {

bool onCi()
{
    const char *ci = std::getenv("CI");
    return ci && std::strcmp(ci, "true") == 0;
}

TinyPair::TinyPair()
    : corpus(tinyEnglish())
    , target(model("ngram:3", corpus))
    , draft(model("ngram:1:addk=1", corpus))
    , prompt(corpus.vocabulary.encode(U"the "))
{
}

SubwordPair::SubwordPair()
    : tokenizer(Tokenizer::load(tokenizerFolder("qwen3")))
    , corpus(builtCorpus("kjv"))
    , target(buildModel(ModelSpec::parse("ngram:4"), corpus, &tokenizer).model)
    , draft(buildModel(ModelSpec::parse("ngram:2"), corpus, &tokenizer).model)
    , prompt(tokenizer.encode("And God said"))
{
}

SubwordPair &subwordPair()
{
    static SubwordPair pair;
    return pair;
}

DecodingSettings treeSettings(const char *shape, double temperature, double topP, std::uint64_t seed, TreeVariant variant)
{
    DecodingSettings s;
    s.tree = TreeShape::parse(shape);
    s.target = {temperature, 0, topP};
    s.draft = {temperature, 0, topP};
    s.seed = seed;
    s.treeVariant = variant;
    return s;
}

Eigen::VectorXd randomDistribution(Rng &rng, int n, int zeros)
{
    Eigen::VectorXd p(n);
    for (int i = 0; i < n; ++i)
        p[i] = -std::log(1.0 - rng.uniform()); // Exp(1): normalised, a uniform draw from the simplex
    for (int z = 0; z < zeros && z < n - 1; ++z)
        p[static_cast<int>(rng.next() % static_cast<std::uint64_t>(n))] = 0.0;
    if (p.sum() <= 0.0)
        p[0] = 1.0;
    return p / p.sum();
}

QString losslessVerdict(const ContinuationFit &fit, bool lossless, int minimumDegrees)
{
    qInfo("chi2 %.1f dof %d p-value %.3g TV %.4f", fit.chi.statistic, fit.chi.degreesOfFreedom, fit.chi.pValue,
          fit.totalVariation);
    if (fit.chi.degreesOfFreedom < minimumDegrees)
        return QStringLiteral("%1 degrees of freedom: too few cells for the test to have power (%2 needed)")
            .arg(fit.chi.degreesOfFreedom)
            .arg(minimumDegrees);
    if (lossless && fit.chi.impossible != 0)
        return QStringLiteral("%1 continuations the target cannot produce").arg(fit.chi.impossible);
    if (lossless && !(fit.chi.pValue > 1e-3))
        return QStringLiteral("p-value %1: not consistent with the target").arg(fit.chi.pValue);
    if (!lossless && !(fit.chi.pValue < 1e-9))
        return QStringLiteral("p-value %1: the wrong variant is not caught").arg(fit.chi.pValue);
    return {};
}

} // namespace specdec::test
