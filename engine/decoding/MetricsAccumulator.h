// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MetricsAccumulator: the metrics of a run kept up to date round by round. add() folds one RoundTrace into
// running sums (O(K) per round, whatever the number of rounds); metrics() turns the sums into a RunMetrics:
//   alpha-hat = accepted / tested, tokens per round = generated / rounds, mean beta = sum beta / tested,
//   c = (draft seconds / draft calls) / (baseline seconds / tokens): a draft call over a step of the target alone
//   (NaN without a baseline: a verification call is no step),
//   E[N] = (1 - a^{K+1}) / (1 - a) and the cost-model speedup at alpha-hat, the mean K and c.
// computeMetrics(rounds) is exactly an accumulator fed every round, so both give identical numbers.

#include "RoundTrace.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace specdec {

struct RunMetrics;

/// Throws a specdec::Error naming the round when `round` contradicts itself: K negative or not the number of
/// positions recorded, a rejection outside 0..K-1, more than K + 1 tokens committed (a trace read from a file
/// or built by hand; the decoders never make one).
void checkConsistent(const RoundTrace &round);

class MetricsAccumulator
{
public:
    /// Folds `round` in; an inconsistent round (checkConsistent) throws and changes nothing.
    void add(const RoundTrace &round);
    void clear() { *this = MetricsAccumulator(); }

    /// The metrics of the rounds added so far; `seconds` is their wall time, `baselineSeconds` that of an
    /// autoregressive run of the same target for the same number of tokens (when measured).
    RunMetrics metrics(double seconds, std::optional<double> baselineSeconds = std::nullopt) const;

    int rounds() const { return m_rounds; }
    std::int64_t generatedTokens() const { return m_generated; }

private:
    int m_rounds = 0;
    std::int64_t m_generated = 0;
    int m_drafted = 0;
    int m_tested = 0;
    int m_accepted = 0;
    int m_maxDraftLength = 0;
    double m_draftLengthSum = 0.0;
    double m_overlapSum = 0.0;
    double m_tvSum = 0.0;
    std::int64_t m_targetCalls = 0;
    std::int64_t m_draftCalls = 0;
    double m_targetSeconds = 0.0;
    double m_draftSeconds = 0.0;
    std::int64_t m_targetFed = 0;
    std::int64_t m_targetDiscarded = 0;
    std::int64_t m_draftDiscarded = 0;
    std::int64_t m_refills = 0;
    std::vector<int> m_testedAt;
    std::vector<int> m_acceptedAt;
};

} // namespace specdec
