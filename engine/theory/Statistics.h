// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Goodness-of-fit statistics for the lossless claim: Pearson's chi-square test of observed counts against
// exact probabilities, and the distance between an empirical histogram and a distribution.

#include <cstdint>
#include <vector>

namespace specdec {

struct ChiSquareResult
{
    double statistic = 0.0;   ///< \f$\chi^2 = \sum_i (O_i - E_i)^2 / E_i\f$ over the pooled cells
    int degreesOfFreedom = 0; ///< pooled cells - 1
    double pValue = 1.0;      ///< \f$P(\chi^2_{dof} \ge \chi^2) = Q(dof/2, \chi^2/2)\f$
    int cells = 0;            ///< cells after pooling
    /// Observations in cells of probability zero: any such count makes the fit impossible (p = 0).
    std::int64_t impossible = 0;
};

/// Pearson's test of `observed` counts against `probabilities` (same length, summing to 1). Cells whose
/// expected count is below `minExpected` are pooled into one cell (and that cell into the smallest other
/// cell if it is still below), so the chi-square approximation holds.
ChiSquareResult chiSquareTest(const std::vector<std::int64_t> &observed, const std::vector<double> &probabilities,
                              double minExpected = 5.0);

/// The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a) (series below a + 1, Lentz's
/// continued fraction above; Numerical Recipes 6.2).
double regularizedGammaQ(double a, double x);

/// Survival function of the chi-square distribution: P(X >= x) for X ~ χ²(dof).
double chiSquareSurvival(double x, int dof);

/// TV between the empirical distribution of `observed` and `probabilities`: ½ Σ |O_i/n − p_i|.
double empiricalTotalVariation(const std::vector<std::int64_t> &observed, const std::vector<double> &probabilities);

} // namespace specdec
