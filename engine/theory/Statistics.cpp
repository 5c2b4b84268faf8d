// SPDX-License-Identifier: GPL-3.0-or-later
#include "Statistics.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace specdec {

double regularizedGammaQ(double a, double x)
{
    if (a <= 0.0)
        throw Error("incomplete gamma needs a > 0");
    if (x <= 0.0)
        return 1.0;
    const double logPrefactor = -x + a * std::log(x) - std::lgamma(a);
    if (x < a + 1.0) {
        // P(a, x) by its series; Q = 1 - P.
        double term = 1.0 / a;
        double sum = term;
        for (int n = 1; n < 10000; ++n) {
            term *= x / (a + n);
            sum += term;
            if (std::fabs(term) < std::fabs(sum) * 1e-16)
                break;
        }
        return std::max(0.0, 1.0 - sum * std::exp(logPrefactor));
    }
    // Q(a, x) by its continued fraction, evaluated with the modified Lentz method.
    const double tiny = 1e-300;
    double b = x + 1.0 - a;
    double c = 1.0 / tiny;
    double d = 1.0 / b;
    double h = d;
    for (int i = 1; i < 10000; ++i) {
        const double an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if (std::fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (std::fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < 1e-16)
            break;
    }
    return std::exp(logPrefactor) * h;
}

double chiSquareSurvival(double x, int dof)
{
    if (dof < 1)
        return 1.0;
    return regularizedGammaQ(0.5 * dof, 0.5 * x);
}

ChiSquareResult chiSquareTest(const std::vector<std::int64_t> &observed, const std::vector<double> &probabilities,
                              double minExpected)
{
    if (observed.size() != probabilities.size())
        throw Error("chi-square test: " + std::to_string(observed.size()) + " counts for "
                    + std::to_string(probabilities.size()) + " probabilities");
    const double n = static_cast<double>(std::accumulate(observed.begin(), observed.end(), std::int64_t{0}));
    ChiSquareResult result;
    if (n <= 0.0)
        return result;

    std::vector<std::pair<double, double>> cells; // (expected, observed)
    double pooledExpected = 0.0;
    double pooledObserved = 0.0;
    for (std::size_t i = 0; i < observed.size(); ++i) {
        const double expected = probabilities[i] * n;
        if (probabilities[i] <= 0.0) {
            result.impossible += observed[i];
            continue;
        }
        if (expected < minExpected) {
            pooledExpected += expected;
            pooledObserved += static_cast<double>(observed[i]);
        } else {
            cells.emplace_back(expected, static_cast<double>(observed[i]));
        }
    }
    if (pooledExpected > 0.0) {
        if (pooledExpected >= minExpected || cells.empty()) {
            cells.emplace_back(pooledExpected, pooledObserved);
        } else {
            auto smallest = std::min_element(cells.begin(), cells.end());
            smallest->first += pooledExpected;
            smallest->second += pooledObserved;
        }
    }
    for (const auto &[expected, count] : cells)
        result.statistic += (count - expected) * (count - expected) / expected;
    result.cells = static_cast<int>(cells.size());
    result.degreesOfFreedom = std::max(0, result.cells - 1);
    result.pValue = chiSquareSurvival(result.statistic, result.degreesOfFreedom);
    if (result.impossible > 0) {
        result.statistic = std::numeric_limits<double>::infinity();
        result.pValue = 0.0;
    }
    return result;
}

double empiricalTotalVariation(const std::vector<std::int64_t> &observed, const std::vector<double> &probabilities)
{
    const double n = static_cast<double>(std::accumulate(observed.begin(), observed.end(), std::int64_t{0}));
    if (n <= 0.0 || observed.size() != probabilities.size())
        return 0.0;
    double tv = 0.0;
    for (std::size_t i = 0; i < observed.size(); ++i)
        tv += std::fabs(static_cast<double>(observed[i]) / n - probabilities[i]);
    return 0.5 * tv;
}

} // namespace specdec
