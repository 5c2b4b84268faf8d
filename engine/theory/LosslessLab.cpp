// SPDX-License-Identifier: GPL-3.0-or-later
#include "LosslessLab.h"

#include "Error.h"
#include "Sampler.h"

#include <algorithm>
#include <cmath>

namespace specdec {

CumulativeDistribution::CumulativeDistribution(const Eigen::Ref<const Eigen::VectorXd> &weights)
{
    double running = 0.0;
    for (Eigen::Index i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0.0)
            continue;
        running += weights[i];
        m_cumulative.push_back(running);
        m_index.push_back(static_cast<int>(i));
    }
    m_total = running;
}

int CumulativeDistribution::at(double u, bool scaleByTotal) const
{
    if (m_cumulative.empty())
        return -1;
    const double target = scaleByTotal ? u * m_total : u;
    const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), target);
    if (it == m_cumulative.end())
        return scaleByTotal ? m_index.back() : -1;
    return m_index[static_cast<std::size_t>(it - m_cumulative.begin())];
}

namespace {
void requireDistribution(const Eigen::VectorXd &v, const char *name)
{
    if (v.size() == 0 || !v.allFinite() || v.minCoeff() < 0.0 || std::abs(v.sum() - 1.0) > 1e-9)
        throw Error(std::string("lossless lab: ") + name + " must be a probability distribution (non-negative, sum 1)");
}
} // namespace

LosslessLab::LosslessLab(Eigen::VectorXd p, Eigen::VectorXd q, Variant variant, Eigen::VectorXd qTest)
    : m_p(std::move(p))
    , m_q(std::move(q))
    , m_qTest(qTest.size() > 0 ? std::move(qTest) : m_q)
    , m_variant(variant)
{
    if (m_p.size() != m_q.size() || m_q.size() != m_qTest.size())
        throw Error("lossless lab: p and q must have the same size");
    requireDistribution(m_p, "p");
    requireDistribution(m_q, "q");
    requireDistribution(m_qTest, "the tested q");
    m_argmaxP = argmax(m_p);
    m_draft = CumulativeDistribution(m_q);
    const auto n = static_cast<std::size_t>(m_p.size());
    m_threshold.resize(n);
    for (std::size_t x = 0; x < n; ++x) {
        const auto i = static_cast<Eigen::Index>(x);
        switch (variant) {
        case Variant::AcceptAll: m_threshold[x] = 1.0; break;
        case Variant::GreedyMatch: m_threshold[x] = i == m_argmaxP ? 1.0 : 0.0; break;
        default: m_threshold[x] = acceptanceProbability(m_p[i], m_qTest[i]);
        }
    }
    switch (variant) {
    case Variant::ResampleFromTarget: m_replacement = CumulativeDistribution(m_p); break;
    case Variant::UnnormalizedResidual: m_replacement = CumulativeDistribution((m_p - m_qTest).cwiseMax(0.0)); break;
    default: m_replacement = CumulativeDistribution(residualDistribution(m_p, m_qTest));
    }
    m_counts.assign(n, 0);
    m_accepted.assign(n, 0);
    m_replaced.assign(n, 0);
}

void LosslessLab::run(std::int64_t samples, Rng &rng)
{
    // The same draws, in the same order, as SpeculativeDecoder at one position: x ~ q, then u, then the
    // replacement's draw.
    for (std::int64_t s = 0; s < samples; ++s) {
        const int x = m_draft.at(rng.uniform());
        const double u = rng.uniform(); // accept-all and greedy-match have thresholds of 1 or 0
        if (u < m_threshold[static_cast<std::size_t>(x)]) {
            ++m_accepted[static_cast<std::size_t>(x)];
            ++m_counts[static_cast<std::size_t>(x)];
            continue;
        }
        int y;
        if (m_variant == Variant::UnnormalizedResidual) {
            y = m_replacement.at(rng.uniform(), false); // a plain u against the unnormalised mass
            if (y < 0)
                y = x;
        } else {
            y = m_replacement.at(rng.uniform());
        }
        ++m_replaced[static_cast<std::size_t>(y)];
        ++m_counts[static_cast<std::size_t>(y)];
    }
    m_samples += samples;
}

ChiSquareResult LosslessLab::test() const
{
    return chiSquareTest(m_counts, std::vector<double>(m_p.data(), m_p.data() + m_p.size()));
}

double LosslessLab::totalVariation() const
{
    return empiricalTotalVariation(m_counts, std::vector<double>(m_p.data(), m_p.data() + m_p.size()));
}

} // namespace specdec
