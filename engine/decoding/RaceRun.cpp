// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaceRun.h"

#include <algorithm>

namespace specdec {

RaceRun::RaceRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                 std::vector<TokenId> prompt, int tokens)
    : m_target(target)
    , m_tokens(tokens)
    , m_baseline(target, settings.target, settings.seed, prompt, settings.kvCache)
    , m_run(target, draft, settings, prompt, tokens)
{
    // One untimed call of each model on the prompt, in throwaway states: what the first call in a process pays
    // once (memory touched for the first time, buffers sized) is then paid by neither lane.
    DistributionMatrix row;
    for (LanguageModel *model : {&target, &draft})
        model->newState(settings.kvCache)->extend(prompt, 1, row);
}

bool RaceRun::finished(RaceLane lane) const
{
    if (lane == RaceLane::Speculative)
        return m_run.finished();
    const std::vector<TokenId> &tokens = m_autoregressive.tokens;
    return static_cast<int>(tokens.size()) >= m_tokens || (!tokens.empty() && m_target.endsText(tokens.back()));
}

std::optional<RaceStep> RaceRun::advance()
{
    const bool arDone = finished(RaceLane::Autoregressive);
    const bool specDone = finished(RaceLane::Speculative);
    if (arDone && specDone)
        return std::nullopt;
    // The lane that has used less decoding time moves (ties: the autoregressive lane, which starts).
    if (specDone || (!arDone && m_autoregressive.seconds <= m_speculative.seconds))
        return stepAutoregressive();
    return stepSpeculative();
}

RaceStep RaceRun::stepAutoregressive()
{
    // Both lanes share the target, so a step's calls are the difference of its counters around the step.
    const std::int64_t callsBefore = m_target.stats().calls;
    RaceStep step;
    step.lane = RaceLane::Autoregressive;
    step.seconds = m_baseline.generate(1);
    step.tokens.push_back(m_baseline.sequence().back());
    step.targetCalls = static_cast<int>(m_target.stats().calls - callsBefore);
    m_autoregressive.tokens.push_back(step.tokens.back());
    m_autoregressive.targetCalls += step.targetCalls;
    m_autoregressive.seconds += step.seconds;
    ++m_autoregressive.steps;
    step.laneSeconds = m_autoregressive.seconds;
    return step;
}

RaceStep RaceRun::stepSpeculative()
{
    const std::optional<RunStep> played = m_run.step();
    RaceStep step;
    step.lane = RaceLane::Speculative;
    step.seconds = played->seconds;
    step.targetCalls = played->round.path.targetCalls;
    step.accepted = played->round.path.acceptedCount();
    step.corrected = played->round.path.rejectedAt >= 0;
    const std::span<const TokenId> kept = played->keptTokens();
    step.tokens.assign(kept.begin(), kept.end());
    if (played->kept <= step.accepted) { // the correction or bonus was cut off
        step.accepted = played->kept;
        step.corrected = false;
    }
    m_speculative.tokens.insert(m_speculative.tokens.end(), step.tokens.begin(), step.tokens.end());
    m_speculative.targetCalls += step.targetCalls;
    m_speculative.seconds += step.seconds;
    ++m_speculative.steps;
    step.laneSeconds = m_speculative.seconds;
    return step;
}

double RaceRun::ratio() const
{
    const double ar = m_autoregressive.tokensPerSecond();
    return ar > 0.0 ? m_speculative.tokensPerSecond() / ar : 0.0;
}

bool RaceRun::textsAgree() const
{
    const std::size_t n = std::min(m_autoregressive.tokens.size(), m_speculative.tokens.size());
    return std::equal(m_autoregressive.tokens.begin(), m_autoregressive.tokens.begin() + static_cast<std::ptrdiff_t>(n),
                      m_speculative.tokens.begin());
}

} // namespace specdec
