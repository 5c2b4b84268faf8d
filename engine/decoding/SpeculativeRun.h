// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SpeculativeRun: the one loop that plays a speculative run, for chains and trees alike. Each step() plays one
// round of its RoundDecoder (makeRoundDecoder: a chain, or a tree when the settings have a shape) with the draft
// cut to the tokens still wanted, keeps the round's tokens up to `tokens` or up to the target's end-of-text token
// (LanguageModel::endOfText; the run ends with it) — the surplus of the last round cut here and only here — times it as
// decoding work only (RoundCore::teachingSeconds left out), folds it into the run's metrics and, when asked, plays the
// autoregressive baseline alongside for the same kept tokens (AutoregressiveRun: the same target, sampler, seed and
// KV-cache setting), timed apart. generate*, `specdec run`/`compare`/`sweep`, the race's speculative lane, the window's
// session and every arena lane use it.

#include "AutoregressiveRun.h"
#include "MetricsAccumulator.h"
#include "RoundDecoder.h"
#include "RunReport.h"

#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace specdec {

/// One round of a run, as played.
struct RunStep
{
    Round round;                  ///< the decoder's round (its committed tokens may pass the run's end)
    int kept = 0;                 ///< how many of round.path.committed the run kept
    double seconds = 0.0;         ///< decoding seconds of the round
    double baselineSeconds = 0.0; ///< the baseline's seconds for the same `kept` tokens (0 without a baseline)

    std::span<const TokenId> keptTokens() const
    {
        return std::span<const TokenId>(round.path.committed).first(static_cast<std::size_t>(kept));
    }
};

class SpeculativeRun
{
public:
    /// Writes `tokens` (>= 1) tokens after `prompt`; `baseline`: play the autoregressive baseline alongside.
    /// Throws Error for fewer than one token, and as the decoders do (vocabularies, settings).
    SpeculativeRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                   std::vector<TokenId> prompt, int tokens, bool baseline = false);

    /// Plays one round; nullopt once the run has its tokens.
    std::optional<RunStep> step();

    /// The run has its tokens, or its target wrote an end-of-text token (LanguageModel::endOfText).
    bool finished() const { return m_generated >= m_tokens || m_report.endOfText; }
    bool endedAtEndOfText() const { return m_report.endOfText; }
    int generated() const { return m_generated; }
    int tokens() const { return m_tokens; }
    /// The tokens written so far (the prompt excluded).
    std::span<const TokenId> text() const;
    /// The baseline's tokens so far (empty without a baseline); at T = 0 equal to text().
    std::span<const TokenId> baselineText() const;
    /// The report of the rounds played so far.
    RunReport report() const;
    const MetricsAccumulator &accumulator() const { return m_metrics; }
    const RoundDecoder &decoder() const { return *m_decoder; }
    const DecodingSettings &settings() const { return m_decoder->settings(); }

private:
    LanguageModel &m_target;
    LanguageModel &m_draft;
    std::unique_ptr<RoundDecoder> m_decoder;
    std::optional<AutoregressiveRun> m_baseline;
    std::vector<TokenId> m_sequence; ///< prompt + every committed token
    std::size_t m_promptLength;
    int m_tokens;
    int m_generated = 0;
    MetricsAccumulator m_metrics;
    RunReport m_report; ///< everything but the metrics, kept up to date round by round
};

} // namespace specdec
