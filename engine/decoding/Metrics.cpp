// SPDX-License-Identifier: GPL-3.0-or-later
#include "Metrics.h"

#include "MetricsAccumulator.h"

namespace specdec {

RunMetrics computeMetrics(const std::vector<RoundTrace> &rounds, double seconds, std::optional<double> baselineSeconds)
{
    MetricsAccumulator accumulator;
    for (const RoundTrace &r : rounds)
        accumulator.add(r);
    return accumulator.metrics(seconds, baselineSeconds);
}

} // namespace specdec
