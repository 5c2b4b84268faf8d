// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RaceRun: the target alone (autoregressive, AutoregressiveRun) and speculative decoding (SpeculativeRun: chains,
// or token trees with a tree shape) writing the same continuation of the same prompt with the same seed and
// sampler, played on one thread so that each lane advances at its own engine pace: advance() always moves the
// lane that has used less decoding time, by one step (a token, or a round), so at any moment both lanes have
// been given the same time and a front end can show each lane's text at its own clock. A lane's speed is
// tokens / its own decoding seconds; ratio = speculative tokens per second / autoregressive tokens per second.
// At temperature 0 both texts are greedy decoding of the target, identical token for token.

#include "AutoregressiveRun.h"
#include "SpeculativeRun.h"

#include <optional>
#include <vector>

namespace specdec {

enum class RaceLane : std::uint8_t { Autoregressive, Speculative };

/// One step of one lane: a token of the autoregressive lane or a round of the speculative lane.
struct RaceStep
{
    RaceLane lane = RaceLane::Autoregressive;
    std::vector<TokenId> tokens; ///< the tokens the step wrote (a round's: accepted run, then correction or bonus)
    int accepted = 0;            ///< speculative: drafted tokens accepted (the first `accepted` of `tokens`)
    bool corrected = false;      ///< speculative: the last token is a correction from the residual (else a bonus)
    int targetCalls = 0;         ///< target calls of the step
    double seconds = 0.0;        ///< decoding seconds of the step
    double laneSeconds = 0.0;    ///< the lane's decoding seconds after the step (its clock)
};

/// What a lane has done so far.
struct RaceLaneState
{
    std::vector<TokenId> tokens; ///< the text so far (at most the race's tokens)
    std::int64_t targetCalls = 0;
    std::int64_t steps = 0; ///< tokens (autoregressive) or rounds (speculative)
    double seconds = 0.0;   ///< decoding seconds
    /// tokens / seconds; 0 before the first step.
    double tokensPerSecond() const { return seconds > 0.0 ? static_cast<double>(tokens.size()) / seconds : 0.0; }
};

class RaceRun
{
public:
    /// `tokens` (>= 1): the length both lanes write. The autoregressive lane decodes with settings.target,
    /// settings.seed and settings.kvCache. Throws Error as the decoders do.
    RaceRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings, std::vector<TokenId> prompt,
            int tokens);

    /// Advances the lane that has used less time (the other one when it has finished); nullopt when both have.
    std::optional<RaceStep> advance();

    bool finished() const { return finished(RaceLane::Autoregressive) && finished(RaceLane::Speculative); }
    /// A lane has written `tokens`, or its end-of-text token (the target's LanguageModel::endOfText).
    bool finished(RaceLane lane) const;
    const RaceLaneState &state(RaceLane lane) const
    {
        return lane == RaceLane::Autoregressive ? m_autoregressive : m_speculative;
    }
    int tokens() const { return m_tokens; }
    /// Speculative tokens per second / autoregressive tokens per second; 0 until both have stepped.
    double ratio() const;
    /// Both texts so far agree on their common length.
    bool textsAgree() const;

private:
    RaceStep stepAutoregressive();
    RaceStep stepSpeculative();

    LanguageModel &m_target;
    int m_tokens;
    AutoregressiveRun m_baseline;
    SpeculativeRun m_run; ///< the speculative lane (no baseline of its own: the other lane is one)
    RaceLaneState m_autoregressive;
    RaceLaneState m_speculative;
};

} // namespace specdec
