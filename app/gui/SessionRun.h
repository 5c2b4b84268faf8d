// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionRun: one session's decoding, used on an engine worker thread only — the run loop (SpeculativeRun: chains
// or token trees, the autoregressive baseline played alongside for the same tokens, the cap) turned into the
// RoundRecords the views read: each round with its own metrics and the run's so far. An arena lane is a
// SessionRun on the arena's shared target.

#include "RoundRecord.h"

#include "SpeculativeRun.h"

#include <memory>

namespace specdec::gui {

class SessionRun
{
public:
    /// Default cap of tokens a run writes: the window and the CLI stop there and say so.
    static constexpr int kDefaultCap = 200000;

    /// `capTokens`: the most tokens the run writes. The baseline is run alongside, round by round.
    SessionRun(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
               std::vector<TokenId> prompt, int capTokens);

    /// Plays one round (K cut to the tokens left under the cap); nullptr once the cap is reached.
    std::shared_ptr<const RoundRecord> playRound();

    /// No more rounds come: the cap is reached, or the target wrote its end-of-text token (endedAtEndOfText).
    bool atCap() const { return m_run.finished(); }
    bool endedAtEndOfText() const { return m_run.endedAtEndOfText(); }
    int generated() const { return m_run.generated(); }
    int cap() const { return m_run.tokens(); }
    const DecodingSettings &settings() const { return m_run.settings(); }
    /// The run's report so far (the numbers `specdec run --json` prints for the same setup).
    RunReport report() const { return m_run.report(); }

private:
    SpeculativeRun m_run;
};

} // namespace specdec::gui
