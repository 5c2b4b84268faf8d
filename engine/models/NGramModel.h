// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// n-gram language models over any tokenizer's ids: interpolated modified Kneser–Ney and add-k.

#include "FlatHashMap.h"
#include "LanguageModel.h"
#include "LoadProgress.h"

#include <array>
#include <memory>
#include <span>
#include <vector>

namespace specdec {

enum class Smoothing { KneserNey, AddK };

struct NGramSettings
{
    int order = 3; ///< N: conditions on the previous N - 1 tokens (1..10)
    Smoothing smoothing = Smoothing::KneserNey;
    double k = 0.2; ///< add-k pseudo-count
};

/// An n-gram model stored as a trie of reversed contexts (the node of "x_{t-1} x_{t-2} ..." is a child of
/// the node of the shorter context), so one walk from the root visits every order a prediction needs.
///
/// Interpolated modified Kneser–Ney (Chen & Goodman 1998), for the context h of length n - 1:
/// \f[ P_n(w \mid h) = \frac{\max(c(hw) - D_n(c(hw)), 0)}{\sum_v c(hv)} + \gamma(h)\, P_{n-1}(w \mid h'), \qquad
///     \gamma(h) = \frac{D_{n,1} N_1(h\cdot) + D_{n,2} N_2(h\cdot) + D_{n,3+} N_{3+}(h\cdot)}{\sum_v c(hv)} \f]
/// where c are raw counts at the highest order and continuation counts \f$N_{1+}(\cdot h w)\f$ below it,
/// \f$D_{n,1..3+}\f$ come from the count-of-counts of order n, h' drops the oldest token, and the recursion
/// ends in the uniform distribution 1/V. A context never seen falls through to the next lower order.
///
/// Add-k: \f$P(w \mid h) = (c(hw) + k) / (c(h) + kV)\f$ on the longest available context (N - 1 tokens, fewer at
/// the start of a sequence), and the uniform distribution when that context never occurred in training.
class NGramModel final : public LanguageModel
{
public:
    /// Trains on token ids; -1 marks a break (a character outside a chars tokenizer) that no n-gram crosses.
    /// `progress` hears the passes over the text (counting, then smoothing) as they go.
    static std::unique_ptr<NGramModel> train(std::span<const TokenId> text, Tokenizer tokenizer,
                                             const NGramSettings &settings, const LoadProgress &progress = {});

    const NGramSettings &settings() const { return m_settings; }
    std::string describe() const override;
    /// The discounts D_1, D_2, D_3+ of an order (1..N), Kneser–Ney only.
    std::array<double, 3> discounts(int order) const { return m_discounts[static_cast<std::size_t>(order - 1)]; }

    /// How the training text covers the contexts of `length` tokens (0..N − 1): the positions that have such a
    /// context before them, and how many distinct contexts those are (positions / contexts: how often a context
    /// was seen, on average).
    struct ContextCoverage
    {
        std::size_t positions = 0;
        std::size_t contexts = 0;
    };
    ContextCoverage coverage(int length) const { return m_coverage.at(static_cast<std::size_t>(length)); }
    /// The tokens of the training text (breaks not counted).
    std::size_t trainedTokens() const { return m_coverage.empty() ? 0 : m_coverage[0].positions; }

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override;

private:
    NGramModel(Tokenizer tokenizer, const NGramSettings &settings);
    static constexpr std::uint32_t kNoNode = ~std::uint32_t{0};
    static std::uint64_t childKey(std::uint32_t node, TokenId token)
    {
        return (std::uint64_t{node} << 21) | static_cast<std::uint32_t>(token);
    }
    std::uint32_t child(std::uint32_t node, TokenId token) const
    {
        return m_children.find(childKey(node, token), kNoNode);
    }
    /// Throws Error unless every stored distribution is finite and sums to 1.
    void checkDistributions() const;
    /// Writes the distribution of a walked context; `longest` is the context length that was looked for.
    void fill(const std::uint32_t *path, int depth, int longest, double *row) const;

    NGramSettings m_settings;
    FlatHashMap m_children;                     ///< (node, older token) -> node of the longer context
    std::vector<std::uint32_t> m_followerBegin; ///< node -> first follower; node count + 1 entries
    std::vector<TokenId> m_followerToken;       ///< next token w of each (context, w) pair
    std::vector<double> m_followerValue;        ///< KN: max(c - D, 0) / c(h); add-k: c / (c(h) + kV)
    std::vector<double> m_nodeWeight;           ///< KN: gamma(h); add-k: k / (c(h) + kV)
    std::vector<std::array<double, 3>> m_discounts;
    std::vector<ContextCoverage> m_coverage;            ///< by context length 0..N − 1
    Eigen::VectorXd m_rootDistribution;                 ///< the whole root level: its followers plus its uniform share
    std::vector<std::array<std::uint32_t, 11>> m_paths; ///< per-call scratch: trie path of each row
    std::vector<int> m_depths;
    std::vector<int> m_longest;

    friend class NGramBuilder;
};

} // namespace specdec
