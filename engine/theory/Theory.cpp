// SPDX-License-Identifier: GPL-3.0-or-later
#include "Theory.h"

#include "Acceptance.h"

#include <cmath>

namespace specdec::theory {

double expectedTokensPerRound(double alpha, int k)
{
    if (alpha >= 1.0)
        return k + 1.0;
    return (1.0 - std::pow(alpha, k + 1)) / (1.0 - alpha);
}

double costModelSpeedup(double alpha, int k, double c)
{
    return expectedTokensPerRound(alpha, k) / (k * c + 1.0);
}

int optimalDraftLength(double alpha, double c, int maxK)
{
    int best = 1;
    for (int k = 2; k <= maxK; ++k) {
        if (costModelSpeedup(alpha, k, c) > costModelSpeedup(alpha, best, c))
            best = k;
    }
    return best;
}

double treeNodeAcceptance(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q, int k)
{
    Eigen::VectorXd pj = p;
    double allRejected = 1.0;
    for (int j = 0; j < k; ++j) {
        allRejected *= 1.0 - overlapMass(pj, q);
        if (allRejected <= 0.0)
            break;
        pj = residualDistribution(pj, q);
    }
    return 1.0 - allRejected;
}

double generalisedSpeedup(double alpha, int k, double c, double verification)
{
    return expectedTokensPerRound(alpha, k) / (verification + k * c);
}

int optimalDraftLengthMeasured(double alpha, double c, const std::vector<double> &v)
{
    int best = 1;
    for (int k = 2; k + 1 <= static_cast<int>(v.size()); ++k)
        if (generalisedSpeedup(alpha, k, c, v[static_cast<std::size_t>(k)])
            > generalisedSpeedup(alpha, best, c, v[static_cast<std::size_t>(best)]))
            best = k;
    return best;
}

} // namespace specdec::theory
