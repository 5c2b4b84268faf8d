// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestSupport.h"

#include "Random.h"

#include <algorithm>
#include <numeric>

namespace specdec::test {

Eigen::VectorXd randomDistribution(Rng &rng, int n, int zeros)
{
    Eigen::VectorXd p(n);
    for (int i = 0; i < n; ++i)
        p[i] = -std::log(1.0 - rng.uniform()); // Exp(1): normalised, a uniform draw from the simplex
    for (int z = 0; z < zeros && z < n - 1; ++z)
        p[static_cast<int>(rng.next() % static_cast<std::uint64_t>(n))] = 0.0;
    if (p.sum() <= 0.0)
        p[0] = 1.0;
    return p / p.sum();
}

} // namespace specdec::test
