// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeMetrics.h"

#include <algorithm>

namespace specdec {

TreeMetrics computeTreeMetrics(const std::vector<TreeTrace> &rounds, double seconds,
                               std::optional<double> baselineSeconds)
{
    TreeMetrics m;
    m.rounds = static_cast<int>(rounds.size());
    m.seconds = seconds;
    std::vector<int> acceptedAt;
    double exactSum = 0.0;
    for (const TreeTrace &t : rounds) {
        m.generatedTokens += static_cast<int>(t.committed.size());
        m.drafted += t.draftedCount();
        m.accepted += t.acceptedCount();
        m.maxDepth = std::max(m.maxDepth, t.shape.depth());
        m.targetCalls += t.targetCalls;
        m.draftCalls += t.draftCalls;
        m.targetRows += t.targetRows;
        m.targetSeconds += t.targetSeconds;
        m.draftSeconds += t.draftSeconds;
        const int tested = t.testedDepths();
        if (static_cast<int>(m.perDepthTested.size()) < tested) {
            m.perDepthTested.resize(static_cast<std::size_t>(tested), 0);
            acceptedAt.resize(static_cast<std::size_t>(tested), 0);
        }
        for (int d = 0; d < tested; ++d) {
            ++m.perDepthTested[static_cast<std::size_t>(d)];
            exactSum += t.exactNodeAcceptance[static_cast<std::size_t>(d)];
        }
        for (int d = 0; d < t.acceptedCount(); ++d)
            ++acceptedAt[static_cast<std::size_t>(d)];
    }
    for (std::size_t d = 0; d < m.perDepthTested.size(); ++d)
        m.perDepthAcceptance.push_back(static_cast<double>(acceptedAt[d]) / m.perDepthTested[d]);
    for (int n : m.perDepthTested)
        m.testedNodes += n;
    if (m.testedNodes > 0) {
        m.exactNodeAcceptance = exactSum / m.testedNodes;
        m.measuredNodeAcceptance = static_cast<double>(m.accepted) / m.testedNodes;
    }
    if (m.targetCalls > 0) {
        m.tokensPerTargetCall = static_cast<double>(m.generatedTokens) / static_cast<double>(m.targetCalls);
        m.acceptedPerTargetCall = static_cast<double>(m.accepted) / static_cast<double>(m.targetCalls);
    }
    if (m.accepted > 0)
        m.nodesPerAcceptedToken = static_cast<double>(m.drafted) / m.accepted;
    if (baselineSeconds && seconds > 0.0)
        m.speedupWallClock = *baselineSeconds / seconds;
    return m;
}

} // namespace specdec
