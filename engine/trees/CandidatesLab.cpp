// SPDX-License-Identifier: GPL-3.0-or-later
#include "CandidatesLab.h"

#include "Error.h"
#include "Theory.h"

#include <cmath>

namespace specdec {

namespace {
void requireDistribution(const Eigen::VectorXd &v, const char *name)
{
    if (v.size() == 0 || !v.allFinite() || v.minCoeff() < 0.0 || std::abs(v.sum() - 1.0) > 1e-9)
        throw Error(std::string("k-candidates lab: ") + name
                    + " must be a probability distribution (non-negative, sum 1)");
}
} // namespace

CandidatesLab::CandidatesLab(Eigen::VectorXd p, Eigen::VectorXd q, int k, TreeVariant variant)
    : m_p(std::move(p))
    , m_q(std::move(q))
    , m_k(k)
    , m_variant(variant)
{
    if (m_p.size() != m_q.size())
        throw Error("k-candidates lab: p and q must have the same size");
    if (k < 1 || k > 8)
        throw Error("k-candidates lab: k must be between 1 and 8, got " + std::to_string(k));
    requireDistribution(m_p, "p");
    requireDistribution(m_q, "q");
    m_draft = CumulativeDistribution(m_q);
    const auto n = static_cast<std::size_t>(m_p.size());
    m_counts.assign(n, 0);
    m_correction.assign(n, 0);
    m_accepted.assign(static_cast<std::size_t>(k), std::vector<std::int64_t>(n, 0));
}

void CandidatesLab::run(std::int64_t samples, Rng &rng)
{
    if (samples < 0)
        throw Error("k-candidates lab: the number of samples must not be negative");
    const auto uniform = [&rng] { return rng.uniform(); };
    std::vector<int> candidates(static_cast<std::size_t>(m_k));
    for (std::int64_t s = 0; s < samples; ++s) {
        for (int &x : candidates)
            x = m_draft.at(rng.uniform());
        const NodeTest t = testChildren(m_variant, m_p, m_q, candidates, false, uniform);
        int out;
        if (t.accepted >= 0) {
            out = candidates[static_cast<std::size_t>(t.accepted)];
            ++m_accepted[static_cast<std::size_t>(t.accepted)][static_cast<std::size_t>(out)];
            ++m_acceptedSamples;
        } else {
            out = t.correction;
            ++m_correction[static_cast<std::size_t>(out)];
        }
        ++m_counts[static_cast<std::size_t>(out)];
    }
    m_samples += samples;
}

double CandidatesLab::measuredAcceptance() const
{
    return m_samples > 0 ? static_cast<double>(m_acceptedSamples) / static_cast<double>(m_samples) : 0.0;
}

double CandidatesLab::acceptanceHalfWidth(double z) const
{
    if (m_samples == 0)
        return 1.0;
    const double a = measuredAcceptance();
    return z * std::sqrt(std::max(a * (1.0 - a), 1e-12) / static_cast<double>(m_samples));
}

double CandidatesLab::exactAcceptance() const
{
    return theory::treeNodeAcceptance(m_p, m_q, m_k);
}

ChiSquareResult CandidatesLab::test() const
{
    return chiSquareTest(m_counts, std::vector<double>(m_p.data(), m_p.data() + m_p.size()));
}

double CandidatesLab::totalVariation() const
{
    return empiricalTotalVariation(m_counts, std::vector<double>(m_p.data(), m_p.data() + m_p.size()));
}

} // namespace specdec
