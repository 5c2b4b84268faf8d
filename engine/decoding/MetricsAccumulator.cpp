// SPDX-License-Identifier: GPL-3.0-or-later
#include "MetricsAccumulator.h"

#include "Error.h"
#include "Metrics.h"
#include "Theory.h"

#include <cmath>
#include <limits>
#include <string>

namespace specdec {

void checkConsistent(const RoundTrace &r)
{
    const auto where = [&] { return "round " + std::to_string(r.index + 1) + ": "; };
    if (r.draftLength < 0)
        throw Error(where() + "negative draft length K = " + std::to_string(r.draftLength));
    if (static_cast<std::size_t>(r.draftLength) != r.positions.size())
        throw Error(where() + "K = " + std::to_string(r.draftLength) + " but " + std::to_string(r.positions.size())
                    + " draft positions recorded");
    if (r.rejectedAt < -1 || r.rejectedAt >= r.draftLength)
        throw Error(where() + "rejected at position " + std::to_string(r.rejectedAt) + " outside 0.."
                    + std::to_string(r.draftLength - 1));
    if (r.committed.size() > static_cast<std::size_t>(r.draftLength) + 1)
        throw Error(where() + std::to_string(r.committed.size())
                    + " tokens committed, more than K + 1 = " + std::to_string(r.draftLength + 1));
}

void MetricsAccumulator::add(const RoundTrace &r)
{
    checkConsistent(r); // before any sum changes: a rejected trace leaves the accumulator as it was
    ++m_rounds;
    m_generated += static_cast<std::int64_t>(r.committed.size());
    m_drafted += r.draftLength;
    m_accepted += r.acceptedCount();
    m_tested += r.testedCount();
    m_maxDraftLength = std::max(m_maxDraftLength, r.draftLength);
    m_draftLengthSum += r.draftLength;
    m_targetCalls += r.targetCalls;
    m_draftCalls += r.draftCalls;
    m_targetSeconds += r.targetSeconds;
    m_draftSeconds += r.draftSeconds;
    m_targetFed += r.targetCache.fed;
    m_targetDiscarded += r.targetCache.discarded;
    m_draftDiscarded += r.draftCache.discarded;
    m_refills += r.targetCache.refills + r.draftCache.refills;
    if (static_cast<int>(m_testedAt.size()) < r.draftLength) {
        m_testedAt.resize(static_cast<std::size_t>(r.draftLength), 0);
        m_acceptedAt.resize(static_cast<std::size_t>(r.draftLength), 0);
    }
    for (int i = 0; i < r.testedCount(); ++i) {
        const auto &pos = r.positions[static_cast<std::size_t>(i)];
        ++m_testedAt[static_cast<std::size_t>(i)];
        if (pos.verdict == Verdict::Accepted)
            ++m_acceptedAt[static_cast<std::size_t>(i)];
        m_overlapSum += pos.overlap;
        m_tvSum += pos.totalVariation;
    }
}

RunMetrics MetricsAccumulator::metrics(double seconds, std::optional<double> baselineSeconds) const
{
    RunMetrics m;
    m.rounds = m_rounds;
    m.seconds = seconds;
    m.generatedTokens = static_cast<int>(m_generated);
    m.drafted = m_drafted;
    m.tested = m_tested;
    m.accepted = m_accepted;
    m.maxDraftLength = m_maxDraftLength;
    m.targetCalls = m_targetCalls;
    m.draftCalls = m_draftCalls;
    m.targetSeconds = m_targetSeconds;
    m.draftSeconds = m_draftSeconds;
    m.perPositionTested = m_testedAt;
    m.targetFed = m_targetFed;
    m.targetDiscarded = m_targetDiscarded;
    m.draftDiscarded = m_draftDiscarded;
    m.cacheDiscarded = m_targetDiscarded + m_draftDiscarded;
    m.cacheRefills = m_refills;
    if (m_targetFed > 0)
        m.rejectedComputeShare = static_cast<double>(m_targetDiscarded) / static_cast<double>(m_targetFed);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    m.perPositionAcceptance.reserve(m_testedAt.size());
    for (std::size_t i = 0; i < m_testedAt.size(); ++i)
        m.perPositionAcceptance.push_back(m_testedAt[i] > 0 ? static_cast<double>(m_acceptedAt[i]) / m_testedAt[i] : nan);
    if (m.tested > 0) {
        m.acceptanceRate = static_cast<double>(m.accepted) / m.tested;
        m.meanOverlap = m_overlapSum / m.tested;
        m.meanTotalVariation = m_tvSum / m.tested;
    }
    if (m.drafted > 0)
        m.draftAcceptance = static_cast<double>(m.accepted) / m.drafted;
    if (m.rounds > 0)
        m.tokensPerRound = static_cast<double>(m_generated) / m.rounds;
    if (m.targetCalls > 0)
        m.speedupForwardPasses = static_cast<double>(m_generated) / static_cast<double>(m.targetCalls);
    // c = T_draft(1) / T_target(1) (Leviathan et al.): one draft call over one step of the target alone — the
    // baseline's mean step, its seconds per token (the run's tokens; a cut surplus shifts the last round by one).
    // A target call of the run verifies K + 1 positions, so it is no step: without a baseline c is not measured.
    m.costRatio = nan;
    m.verificationRatio = nan;
    if (baselineSeconds && *baselineSeconds > 0.0 && m_generated > 0) {
        const double step = *baselineSeconds / static_cast<double>(m_generated);
        if (m.draftCalls > 0)
            m.costRatio = (m.draftSeconds / static_cast<double>(m.draftCalls)) / step;
        if (m.targetCalls > 0)
            m.verificationRatio = (m.targetSeconds / static_cast<double>(m.targetCalls)) / step;
    }
    if (m.rounds > 0) {
        const int k = static_cast<int>(std::lround(m_draftLengthSum / m.rounds));
        m.expectedTokensPerRound = theory::expectedTokensPerRound(m.acceptanceRate, k);
        m.speedupCostModel = theory::costModelSpeedup(m.acceptanceRate, k, m.costRatio);
    }
    if (baselineSeconds && seconds > 0.0)
        m.speedupWallClock = *baselineSeconds / seconds;
    return m;
}

} // namespace specdec
