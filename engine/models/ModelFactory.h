// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Model specs ("ngram:6", "ngram:2:addk=0.2", "uniform", "same", "lookup:3", "onnx:PATH", "hf:PATH") and the models
// they build.

#include "Corpus.h"
#include "LanguageModel.h"
#include "LoadProgress.h"
#include "NGramModel.h"

#include <memory>
#include <string>
#include <vector>

namespace specdec {

struct ModelSpec
{
    enum class Kind { NGram, Uniform, Same, Onnx, Lookup, HfFolder };
    Kind kind = Kind::NGram;
    NGramSettings ngram;
    std::string path; ///< onnx:PATH (a file), hf:PATH (a Hugging Face model folder)
    int lookup = 0;   ///< lookup:N
    std::string text; ///< the spec as written

    /// Throws Error naming the spec and the accepted forms when it cannot be parsed.
    static ModelSpec parse(const std::string &spec);
    /// parse(spec), with a relative onnx: or hf: path that is not found as given looked up among the catalog's data
    /// files (so "onnx:corpora/kjv/models/target.onnx" names the shipped model from any directory).
    static ModelSpec parse(const std::string &spec, const CorpusCatalog &catalog);
};

struct BuiltModel
{
    std::unique_ptr<LanguageModel> model;
    std::vector<char32_t> unmapped; ///< corpus characters outside the model's vocabulary (dropped in training)
};

/// Builds the model of `spec` on `corpus`.
/// - n-gram: trained on the corpus tokenized by `tokenizer` when given (a target's tokenizer, so the draft can be
///   verified by it; with chars, corpus characters outside it are reported in `unmapped`), else by the chars
///   tokenizer of the corpus.
/// - uniform, lookup: over `tokenizer` or the corpus's chars. same: needs `target`. onnx: loads the file (its own
///   chars tokenizer, `specdec.vocab`). hf: loads the folder (its tokenizer.json; docs/model-format.md §7).
/// `progress` hears an ONNX model's load by the bytes of its weights (OnnxLanguageModel::load), an n-gram's
/// training by its passes over the text (NGramModel::train), any other model only when it is built (1).
BuiltModel buildModel(const ModelSpec &spec, const Corpus &corpus, const Tokenizer *tokenizer = nullptr,
                      LanguageModel *target = nullptr, int threads = 0, const LoadProgress &progress = {});
/// How much of a load building `spec` is, in the bytes of weights an ONNX load reads in the same time: a neural
/// spec's weight files on disk (ModelFiles.h); an n-gram's 2 N - 1 passes over a corpus of `corpusLength`
/// characters, each worth kNGramBytesPerPosition; 0 for every other spec.
double loadWork(const ModelSpec &spec, std::size_t corpusLength);
/// Measured on the 2-core development machine: ngram:6 trains on kjv's 4.1 M characters (11 passes) in ~0.45 s,
/// ~10 ns a position; target-large's 46 MB file loads in 0.2-0.4 s, ~6 ns a byte.
inline constexpr double kNGramBytesPerPosition = 1.5;

} // namespace specdec
