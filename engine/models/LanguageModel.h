// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface every model implements: next-token distributions for the last m positions in one call.

#include "CallStats.h"
#include "Tokenizer.h"

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace specdec {

class DecodingState;

/// One probability vector per row; row-major so that a row (one position's distribution) is contiguous.
using DistributionMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Distribution = Eigen::VectorXd;

/// One sequence of a batched call: score the last m prefixes of `sequence` (as distributions() does).
struct SequenceRequest
{
    std::span<const TokenId> sequence;
    int m = 1;
};

/// A causal next-token model over the ids of a Tokenizer.
///
/// One call of distributions() is one forward pass. For a sequence \f$x_1..x_n\f$ it returns m rows,
/// row j being \f$P(\cdot \mid x_1..x_{n-m+1+j})\f$, j = 0..m-1: the distributions after each of the last
/// m prefixes (the empty prefix included when m = n + 1). Speculative decoding verifies K drafted tokens
/// with one such call of m = K + 1. Every row is a proper distribution over all the tokenizer's ids.
class LanguageModel
{
public:
    virtual ~LanguageModel() = default;
    LanguageModel(const LanguageModel &) = delete;
    LanguageModel &operator=(const LanguageModel &) = delete;

    const Tokenizer &tokenizer() const { return m_tokenizer; }

    /// Fills `out` (resized to m x V) and counts one call; 1 <= m <= sequence.size() + 1.
    void distributions(std::span<const TokenId> sequence, int m, DistributionMatrix &out);

    /// Several sequences in one call (one batched forward pass, as a tree verification needs: one row per
    /// root-to-leaf path): out[i] gets requests[i].m rows. Counts one call, all rows as positions.
    /// Throws Error for an empty batch or a request distributions() would refuse.
    void batchDistributions(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out);
    /// A new, empty decoding state for one sequence (DecodingState.h). With `kvCache` a model that keeps a
    /// key/value cache returns a state that computes only new positions; otherwise (and for models whose
    /// cache is their context) each call recomputes through distributions()' windowed path.
    std::unique_ptr<DecodingState> newState(bool kvCache = true);
    /// True when newState(true) keeps a real key/value cache.
    virtual bool hasKvCache() const { return false; }
    /// A neural model's parameters (its weights' elements); 0 for a model that is counted, not trained.
    virtual std::int64_t parameterCount() const { return 0; }
    /// The ids that end a text (a Hugging Face folder's eos_token_id): a run whose target writes one ends after it.
    /// Empty for models that write on (n-grams, the shipped ONNX models).
    virtual std::span<const TokenId> endOfText() const { return {}; }
    /// True when `token` is one of endOfText(): the text ends after it.
    bool endsText(TokenId token) const
    {
        const std::span<const TokenId> end = endOfText();
        return std::find(end.begin(), end.end(), token) != end.end();
    }
    /// The sampling a model's folder recommends (generation_config.json: do_sample false = greedy, T = 0), which
    /// a run follows when its user sets none; nullopt when the model recommends none.
    struct SamplingAdvice
    {
        double temperature = 1.0; ///< 0 = greedy
        int topK = 0;             ///< 0 = off
        double topP = 1.0;        ///< 1 = off
        std::string file;         ///< the file that says so
    };
    virtual std::optional<SamplingAdvice> samplingAdvice() const { return std::nullopt; }

    /// A short description for tables and traces, e.g. "ngram:6 (Kneser-Ney)".
    virtual std::string describe() const = 0;

    const CallStats &stats() const { return m_stats; }
    void resetStats() { m_stats = {}; }

protected:
    explicit LanguageModel(Tokenizer tokenizer)
        : m_tokenizer(std::move(tokenizer))
    {
    }
    /// The model's forward pass; `out` is already m x V.
    virtual void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) = 0;
    /// The batched forward pass; each out[i] is already m_i x V. The default runs compute() per request
    /// (the rows of one batch, laid out one after the other); a model with a real batch dimension overrides it.
    virtual void computeBatch(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out);
    /// The state newState() returns, its calls counted in `counter`; the default is DecodingState itself.
    virtual std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache);

private:
    friend class SameAsTargetModel; // runs the target's compute() under its own counters
    friend class DecodingState;     // runs compute() and counts its calls
    Tokenizer m_tokenizer;
    CallStats m_stats;
};

} // namespace specdec
