// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lossless lab's k-candidates mode: one step of a token tree from a fixed p and q. Each sample draws
// k candidates i.i.d. from q and tests them one by one with testChildren() (TreeAcceptance.h); the output
// is the accepted candidate or the correction. With the correct rule the histogram converges to p, and
// the chance that some candidate is accepted is the exact
// \f$1 - \prod_{j=1}^{k} (1 - \sum_x \min(p_j(x), q(x)))\f$ (theory::treeNodeAcceptance).

#include "LosslessLab.h"
#include "Statistics.h"
#include "TreeAcceptance.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace specdec {

class CandidatesLab
{
public:
    /// p and q after their samplers, 1 <= k <= 8; throws Error when sizes differ, k is out of range or a
    /// vector is not a distribution.
    CandidatesLab(Eigen::VectorXd p, Eigen::VectorXd q, int k, TreeVariant variant);

    /// Draws `samples` more outputs with `rng`.
    void run(std::int64_t samples, Rng &rng);

    int k() const { return m_k; }
    TreeVariant variant() const { return m_variant; }
    const Eigen::VectorXd &p() const { return m_p; }
    const Eigen::VectorXd &q() const { return m_q; }
    std::int64_t samples() const { return m_samples; }
    /// Output counts per token.
    const std::vector<std::int64_t> &counts() const { return m_counts; }
    /// Parts of the counts: acceptedCounts(j)[x] = outputs x that were the accepted (j+1)-th candidate.
    const std::vector<std::int64_t> &acceptedCounts(int j) const { return m_accepted[static_cast<std::size_t>(j)]; }
    /// Outputs x drawn as the correction after all k were rejected.
    const std::vector<std::int64_t> &correctionCounts() const { return m_correction; }
    /// Samples where some candidate was accepted, and the half width of an interval of that fraction
    /// (normal approximation; z = 3.29 is a 99.9% interval, so a dozen checks rarely miss by chance).
    double measuredAcceptance() const;
    double acceptanceHalfWidth(double z = 3.29) const;
    /// The exact chance that a candidate is accepted under the correct rule.
    double exactAcceptance() const;

    ChiSquareResult test() const; ///< Pearson's chi-square of the counts against p
    double totalVariation() const;

private:
    Eigen::VectorXd m_p, m_q;
    int m_k;
    TreeVariant m_variant;
    CumulativeDistribution m_draft;
    std::vector<std::int64_t> m_counts, m_correction;
    std::vector<std::vector<std::int64_t>> m_accepted;
    std::int64_t m_samples = 0;
    std::int64_t m_acceptedSamples = 0;
};

} // namespace specdec
