// SPDX-License-Identifier: GPL-3.0-or-later
#include "Metrics.h"

#include "Theory.h"

#include <cmath>
#include <limits>

namespace specdec {

RunMetrics computeMetrics(const std::vector<RoundTrace> &rounds, double seconds, std::optional<double> baselineSeconds)
{
    RunMetrics m;
    m.rounds = static_cast<int>(rounds.size());
    m.seconds = seconds;
    std::vector<int> acceptedAt;
    double overlapSum = 0.0;
    double tvSum = 0.0;
    double draftLengthSum = 0.0;
    for (const RoundTrace &r : rounds) {
        m.generatedTokens += static_cast<int>(r.committed.size());
        m.drafted += r.draftLength;
        m.accepted += r.acceptedCount();
        m.tested += r.testedCount();
        m.maxDraftLength = std::max(m.maxDraftLength, r.draftLength);
        draftLengthSum += r.draftLength;
        m.targetCalls += r.targetCalls;
        m.draftCalls += r.draftCalls;
        m.targetSeconds += r.targetSeconds;
        m.draftSeconds += r.draftSeconds;
        if (static_cast<int>(m.perPositionTested.size()) < r.draftLength) {
            m.perPositionTested.resize(static_cast<std::size_t>(r.draftLength), 0);
            acceptedAt.resize(static_cast<std::size_t>(r.draftLength), 0);
        }
        for (int i = 0; i < r.testedCount(); ++i) {
            const auto &pos = r.positions[static_cast<std::size_t>(i)];
            ++m.perPositionTested[static_cast<std::size_t>(i)];
            if (pos.verdict == Verdict::Accepted)
                ++acceptedAt[static_cast<std::size_t>(i)];
            overlapSum += pos.overlap;
            tvSum += pos.totalVariation;
        }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i = 0; i < m.perPositionTested.size(); ++i)
        m.perPositionAcceptance.push_back(m.perPositionTested[i] > 0
                                              ? static_cast<double>(acceptedAt[i]) / m.perPositionTested[i]
                                              : nan);
    if (m.tested > 0) {
        m.acceptanceRate = static_cast<double>(m.accepted) / m.tested;
        m.meanOverlap = overlapSum / m.tested;
        m.meanTotalVariation = tvSum / m.tested;
    }
    if (m.drafted > 0)
        m.draftAcceptance = static_cast<double>(m.accepted) / m.drafted;
    if (m.rounds > 0)
        m.tokensPerRound = static_cast<double>(m.generatedTokens) / m.rounds;
    if (m.targetCalls > 0)
        m.speedupForwardPasses = static_cast<double>(m.generatedTokens) / static_cast<double>(m.targetCalls);
    if (m.draftCalls > 0 && m.targetCalls > 0 && m.targetSeconds > 0.0)
        m.costRatio = (m.draftSeconds / static_cast<double>(m.draftCalls))
                      / (m.targetSeconds / static_cast<double>(m.targetCalls));
    if (m.rounds > 0) {
        const int k = static_cast<int>(std::lround(draftLengthSum / m.rounds));
        m.expectedTokensPerRound = theory::expectedTokensPerRound(m.acceptanceRate, k);
        m.speedupCostModel = theory::costModelSpeedup(m.acceptanceRate, k, m.costRatio);
    }
    if (baselineSeconds && seconds > 0.0)
        m.speedupWallClock = *baselineSeconds / seconds;
    return m;
}

} // namespace specdec
