// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Speculative decoding, one round at a time (Leviathan, Kalman & Matias 2023, Algorithm 1).

#include "DecodingSettings.h"
#include "DecodingState.h"
#include "DraftPolicy.h"
#include "LanguageModel.h"
#include "Random.h"
#include "RoundDecoder.h"
#include "RoundTrace.h"

#include <cstdint>
#include <vector>

namespace specdec {

/// One round: the draft proposes K tokens x_i ~ q_i one call at a time; the target scores all K + 1
/// positions in one call; position i passes when u_i < min(1, p_i(x_i)/q_i(x_i)); the first failure is
/// replaced by a draw from norm(max(0, p_i - q_i)); if all pass, a bonus token is drawn from p_{K+1}.
/// With target temperature 0 the test is x_i = argmax p_i and the replacement is that argmax, so the text
/// equals greedy autoregressive decoding exactly.
///
/// Each model has one DecodingState for the sequence: the draft's grows by one token per call, the
/// target's by the K + 1 verified positions in one call; after the test both are truncated to the committed
/// prefix (the rejected and discarded drafts' cache entries are removed), and the next round extends from
/// there. RoundTrace::targetCache and draftCache record the lengths.
class SpeculativeDecoder final : public RoundDecoder
{
public:
    /// Throws Error when the vocabularies differ or the settings are invalid.
    SpeculativeDecoder(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings);

    /// Plays one round on `sequence` (prompt + text so far) and appends the committed tokens to it.
    /// At most `budget` tokens are drafted (K is cut to the tokens still wanted); the draft policy may stop
    /// drafting earlier. The states follow `sequence` (DecodingState::followTo, O(1) per round at any
    /// length): between rounds it may grow or be cut at its end; a caller that edits an earlier token (more
    /// than 64 back) uses a new decoder.
    RoundTrace round(std::vector<TokenId> &sequence, int budget);

    /// RoundDecoder: round() as a Round (its path is the trace).
    Round playRound(std::vector<TokenId> &sequence, int budget) override;
    int roundLength() const override { return m_settings.draftLength; }
    const DecodingSettings &settings() const override { return m_settings; }
    const DecodingState &targetState() const override { return *m_targetState; }
    const DecodingState &draftState() const override { return *m_draftState; }
    int roundsPlayed() const { return m_rounds; }

private:
    LanguageModel &m_target;
    LanguageModel &m_draft;
    DecodingSettings m_settings;
    SamplerSettings m_testSampler; ///< what the acceptance test believes q was
    DraftLengthController m_length;
    std::unique_ptr<DecodingState> m_targetState;
    std::unique_ptr<DecodingState> m_draftState;
    Rng m_rng;
    int m_rounds = 0;
    DistributionMatrix m_draftRow;
    DistributionMatrix m_q;
    DistributionMatrix m_qTest;
    DistributionMatrix m_p;
};

} // namespace specdec
