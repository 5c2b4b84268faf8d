// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Small helpers shared by the test suites: test corpora, built corpora and models trained on them.

#include "Corpus.h"
#include "ModelFactory.h"
#include "Random.h"

#include <QString>
#include <QtTest>

#include <memory>
#include <string>

Q_DECLARE_METATYPE(Eigen::VectorXd)

namespace specdec::test {

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

inline std::unique_ptr<LanguageModel> model(const std::string &spec, const Corpus &corpus)
{
    return buildModel(ModelSpec::parse(spec), corpus).model;
}

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

} // namespace specdec::test
