// SPDX-License-Identifier: GPL-3.0-or-later
#include "SpeculativeRun.h"

#include "Error.h"

#include <algorithm>
#include <chrono>

namespace specdec {

SpeculativeRun::SpeculativeRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> prompt, int tokens, bool baseline)
    : m_target(target)
    , m_draft(draft)
    , m_promptLength(prompt.size())
    , m_tokens(tokens)
{
    if (tokens < 1)
        throw Error("the number of tokens to generate must be at least 1, got " + std::to_string(tokens));
    m_decoder = makeRoundDecoder(target, draft, settings);
    if (baseline) {
        m_baseline.emplace(target, settings.target, settings.seed, prompt, settings.kvCache);
        m_report.baseline = BaselineReport{};
    }
    m_sequence = std::move(prompt);
    m_sequence.reserve(m_promptLength + static_cast<std::size_t>(std::min(tokens, 1 << 20)) + 1); // grows past that
    m_report.draftLength = m_decoder->roundLength();
    m_report.tree = settings.tree;
}

std::optional<RunStep> SpeculativeRun::step()
{
    if (finished())
        return std::nullopt;
    const int wanted = m_tokens - m_generated;
    RunStep step;
    const CallStats targetBefore = m_target.stats();
    const CallStats draftBefore = m_draft.stats();
    const auto start = std::chrono::steady_clock::now();
    step.round = m_decoder->playRound(m_sequence, std::min(wanted, m_decoder->roundLength()));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    step.seconds = std::max(0.0, elapsed - step.round.path.teachingSeconds);
    m_report.target += m_target.stats() - targetBefore;
    m_report.draft += m_draft.stats() - draftBefore;
    m_metrics.add(step.round.path);
    step.kept = std::min(static_cast<int>(step.round.path.committed.size()), wanted);
    const auto kept = step.keptTokens();
    if (const auto end = std::find_if(kept.begin(), kept.end(), [&](TokenId t) { return m_target.endsText(t); });
        end != kept.end()) {
        step.kept = static_cast<int>(end - kept.begin()) + 1; // the end-of-text token is written, then the run ends
        m_report.endOfText = true;
    }
    m_generated += step.kept;
    m_report.tokens = m_generated;
    m_report.seconds += step.seconds;
    m_report.nodesDrafted += step.round.drafted();
    m_report.verifiedPositions += step.round.verifiedPositions();
    if (m_baseline) {
        // the baseline writes as many tokens as the round kept, continuing its own text
        const CallStats before = m_target.stats();
        step.baselineSeconds = m_baseline->generate(step.kept);
        m_report.baseline->target += m_target.stats() - before;
        m_report.baseline->tokens = m_baseline->generated();
        m_report.baseline->seconds += step.baselineSeconds;
    }
    return step;
}

std::span<const TokenId> SpeculativeRun::text() const
{
    return std::span<const TokenId>(m_sequence).subspan(m_promptLength, static_cast<std::size_t>(m_generated));
}

std::span<const TokenId> SpeculativeRun::baselineText() const
{
    if (!m_baseline)
        return {};
    return std::span<const TokenId>(m_baseline->sequence()).subspan(m_promptLength);
}

RunReport SpeculativeRun::report() const
{
    RunReport report = m_report;
    report.metrics = m_metrics.metrics(m_report.seconds,
                                       m_report.baseline ? std::optional(m_report.baseline->seconds) : std::nullopt);
    return report;
}

} // namespace specdec
