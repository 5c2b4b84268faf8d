// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundDecoder: "play one round" for every way of drafting — a chain of K tokens (SpeculativeDecoder) or a token
// tree (TreeDecoder). A Round is what every consumer reads: `path`, the accepted path as a chain (the chain's own
// trace, or the tree's path by pathTrace), from which every metric is computed; and for a tree round the whole
// tree. makeRoundDecoder picks the decoder from the settings (a tree shape or not), so a run holds exactly one.

#include "DecodingSettings.h"
#include "DecodingState.h"
#include "LanguageModel.h"
#include "RoundTrace.h"
#include "TreeTrace.h"

#include <memory>
#include <vector>

namespace specdec {

struct Round
{
    RoundTrace path;                       ///< the chain, or the tree's accepted path as a chain (TreePath.h)
    std::shared_ptr<const TreeTrace> tree; ///< the whole tree of a tree round; null for a chain round

    /// Tokens drafted in the round: K for a chain, every node of a tree.
    int drafted() const { return tree ? tree->draftedCount() : path.draftLength; }
    /// Positions the target scored in its verification call: K + 1 for a chain, (depth + 1) per root-to-leaf path
    /// of a tree (TreeTrace::targetRows).
    int verifiedPositions() const { return tree ? tree->targetRows : path.draftLength + 1; }
};

class RoundDecoder
{
public:
    virtual ~RoundDecoder() = default;

    /// Plays one round on `sequence` (prompt + text so far) and appends its committed tokens to it; at most
    /// `budget` tokens are drafted in a row (K or the tree's depth cut to the tokens still wanted).
    virtual Round playRound(std::vector<TokenId> &sequence, int budget) = 0;
    /// The most tokens a round drafts in a row: K, or the tree's depth.
    virtual int roundLength() const = 0;
    virtual const DecodingSettings &settings() const = 0;
    virtual const DecodingState &targetState() const = 0;
    virtual const DecodingState &draftState() const = 0;
};

/// A TreeDecoder when settings.tree is set, else a SpeculativeDecoder. Throws Error as their constructors do.
std::unique_ptr<RoundDecoder> makeRoundDecoder(LanguageModel &target, LanguageModel &draft,
                                               const DecodingSettings &settings);

} // namespace specdec
