// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionRun.h"

#include <algorithm>

namespace specdec::gui {

SessionRun::SessionRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                       std::vector<TokenId> prompt, int capTokens)
    : m_run(target, draft, settings, std::move(prompt), std::max(1, capTokens), true)
{
}

std::shared_ptr<const RoundRecord> SessionRun::playRound()
{
    std::optional<RunStep> step = m_run.step();
    if (!step)
        return nullptr;
    auto record = std::make_shared<RoundRecord>();
    record->trace = std::move(step->round.path);
    record->tree = std::move(step->round.tree);
    record->seconds = step->seconds;
    record->baselineSeconds = step->baselineSeconds;
    record->kept = step->kept;
    MetricsAccumulator one;
    one.add(record->trace);
    record->round = one.metrics(record->seconds, record->baselineSeconds);
    const RunReport report = m_run.report();
    record->nodesDrafted = report.nodesDrafted;
    record->cumulative = report.metrics;
    return record;
}

} // namespace specdec::gui
