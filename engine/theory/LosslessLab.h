// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lossless lab: one-step speculative sampling from a fixed p and q, many times, to show that the
// output histogram converges to p — and, with a wrong variant, that it does not.

#include "Acceptance.h"
#include "Random.h"
#include "Statistics.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace specdec {

/// Inverse-CDF sampling from fixed weights in O(log V): the same draw as Rng::categoricalAt, with the
/// cumulative sums computed once.
class CumulativeDistribution
{
public:
    CumulativeDistribution() = default;
    explicit CumulativeDistribution(const Eigen::Ref<const Eigen::VectorXd> &weights);
    /// The first index whose running sum exceeds u·total (indices of zero weight never returned), or -1
    /// when u·total lies beyond the last positive weight.
    int at(double u, bool scaleByTotal = true) const;
    double total() const { return m_total; }

private:
    std::vector<double> m_cumulative;
    std::vector<int> m_index; ///< token of each cumulative entry (positive weights only)
    double m_total = 0.0;
};

/// Counts of S one-step outputs: draw x ~ q, test it, replace a rejection — with the rule of `variant`.
/// Outputs are split by origin (accepted draft vs replacement) so a view can stack them and show the
/// residual filling exactly the gap between min(p, q) and p.
class LosslessLab
{
public:
    /// p and q after their samplers; `qTest` is what the test divides by (q itself except for the
    /// temperature-target-only variant). Throws Error when sizes differ or a vector is not a distribution.
    LosslessLab(Eigen::VectorXd p, Eigen::VectorXd q, Variant variant, Eigen::VectorXd qTest = {});

    /// Draws `samples` more outputs with `rng` (call repeatedly to show convergence).
    void run(std::int64_t samples, Rng &rng);

    std::int64_t samples() const { return m_samples; }
    const std::vector<std::int64_t> &counts() const { return m_counts; }
    const std::vector<std::int64_t> &acceptedCounts() const { return m_accepted; }
    const std::vector<std::int64_t> &replacedCounts() const { return m_replaced; }
    const Eigen::VectorXd &p() const { return m_p; }
    const Eigen::VectorXd &q() const { return m_q; }
    Variant variant() const { return m_variant; }

    /// Pearson's chi-square of the counts against p.
    ChiSquareResult test() const;
    /// TV between the histogram and p.
    double totalVariation() const;

private:
    Eigen::VectorXd m_p, m_q, m_qTest;
    Variant m_variant;
    int m_argmaxP = 0;
    CumulativeDistribution m_draft;
    CumulativeDistribution m_replacement; ///< residual, p, or the unnormalised residual, by variant
    std::vector<double> m_threshold;      ///< per token: min(1, p/qTest), or 1 / 0 for the rule-free variants
    std::vector<std::int64_t> m_counts, m_accepted, m_replaced;
    std::int64_t m_samples = 0;
};

} // namespace specdec
