// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionRun: one session's decoding, used on an engine worker thread only — the speculative decoder on the
// sequence so far, the running metrics (MetricsAccumulator), the wall time of each round and, alongside, the
// autoregressive baseline for the same tokens (AutoregressiveRun: the CLI's `run --baseline`, played in the
// same steps on the same thread, so the window's wall-clock speedup is the CLI's). A run stops at its cap of
// tokens. An arena lane is a SessionRun on the arena's shared target. With a tree shape in the settings the
// rounds are token-tree rounds (TreeDecoder): the record keeps the tree and its accepted path as a chain.

#include "RoundRecord.h"

#include "AutoregressiveRun.h"
#include "MetricsAccumulator.h"
#include "SpeculativeDecoder.h"
#include "TreeDecoder.h"

#include <memory>
#include <optional>
#include <vector>

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

    bool atCap() const { return m_generated >= m_cap; }
    int generated() const { return m_generated; }
    int cap() const { return m_cap; }
    const DecodingSettings &settings() const { return m_decoder.settings(); }

private:
    SpeculativeDecoder m_decoder;
    std::optional<TreeDecoder> m_tree; ///< set when the settings have a tree shape
    std::vector<TokenId> m_sequence;
    AutoregressiveRun m_baseline;
    MetricsAccumulator m_metrics;
    double m_seconds = 0.0;
    double m_baselineSeconds = 0.0;
    int m_generated = 0;
    std::int64_t m_nodesDrafted = 0;
    int m_cap;
};

} // namespace specdec::gui
