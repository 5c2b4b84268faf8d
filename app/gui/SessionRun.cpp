// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionRun.h"

#include "TreePath.h"

#include <algorithm>
#include <chrono>

namespace specdec::gui {

SessionRun::SessionRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                       std::vector<TokenId> prompt, int capTokens)
    : m_decoder(target, draft, settings)
    , m_sequence(prompt)
    , m_baseline(target, settings.target, settings.seed, std::move(prompt), settings.kvCache)
    , m_cap(std::max(1, capTokens))
{
    if (!settings.tree.empty())
        m_tree.emplace(target, draft, settings);
}

std::shared_ptr<const RoundRecord> SessionRun::playRound()
{
    const int length = m_tree ? m_tree->settings().tree.depth() : m_decoder.settings().draftLength;
    const int budget = std::min(length, m_cap - m_generated);
    if (budget <= 0)
        return nullptr;
    auto record = std::make_shared<RoundRecord>();
    // The round's wall time is the decoding work only: what only the window needs (the recorded
    // distributions, β, the tree's path trace) is left out, as the CLI leaves it out.
    const auto start = std::chrono::steady_clock::now();
    std::shared_ptr<TreeTrace> tree;
    if (m_tree)
        tree = std::make_shared<TreeTrace>(m_tree->round(m_sequence, budget));
    else
        record->trace = m_decoder.round(m_sequence, budget);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (tree) {
        record->trace = pathTrace(*tree);
        m_nodesDrafted += tree->draftedCount();
        record->tree = std::move(tree);
    } else {
        m_nodesDrafted += record->trace.draftLength;
    }
    record->nodesDrafted = m_nodesDrafted;
    record->seconds = std::max(0.0, elapsed - record->trace.teachingSeconds);
    const int committed = static_cast<int>(record->trace.committed.size());
    m_generated += committed;
    m_seconds += record->seconds;
    // The baseline writes as many tokens as this round committed, continuing its own text.
    record->baselineSeconds = m_baseline.generate(committed);
    m_baselineSeconds += record->baselineSeconds;
    MetricsAccumulator one;
    one.add(record->trace);
    record->round = one.metrics(record->seconds, record->baselineSeconds);
    m_metrics.add(record->trace);
    record->cumulative = m_metrics.metrics(m_seconds, m_baselineSeconds);
    return record;
}

} // namespace specdec::gui
