// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Token-tree speculative decoding, one round at a time (SpecInfer, Miao et al. 2024).
//
// Each model keeps one DecodingState for the committed sequence (its key/value cache where it has one).
// Draft: depth by depth, the draft scores every node of the frontier in one batched call of its state (one
// row per frontier node, each row continuing its parent's row of the depth before, all after the committed
// prefix's cache) and each node gets b_d children drawn i.i.d. from its q (after the draft sampler): D draft
// calls per round. Verify: one batched call of the target's state scores every root-to-leaf path (one row
// per path after the committed prefix's cache, D + 1 distributions each), which gives p at the root and after
// every node. Test: from the root down, the children of the current node are tested one by one with
// testChildren() (TreeAcceptance.h); the first accepted child is descended into; when all are rejected the
// correction comes from the final p'; an accepted leaf earns a bonus from p after it. Then both states keep
// the committed prefix + the accepted path (the entries of a row that holds it) and discard the other rows.
// Past the context a row is scored in the window autoregressive decoding uses (refills counted as calls, as
// for chains). The tree 1,1,...,1 with the same seed gives exactly the round of SpeculativeDecoder with K = D.

#include "DecodingState.h"
#include "LanguageModel.h"
#include "Random.h"
#include "RoundDecoder.h"
#include "SpeculativeDecoder.h"
#include "TreeTrace.h"

#include <vector>

namespace specdec {

class TreeDecoder final : public RoundDecoder
{
public:
    /// Throws Error when the vocabularies differ, the settings are invalid or settings.tree is empty.
    TreeDecoder(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings);

    /// Plays one round on `sequence` (prompt + text so far) and appends the committed tokens to it. The
    /// tree is cut to `budget` depths when fewer tokens are still wanted. `sequence` may grow or be cut at its
    /// end between rounds, as SpeculativeDecoder::round's.
    TreeTrace round(std::vector<TokenId> &sequence, int budget);

    /// RoundDecoder: round() with its accepted path as a chain (pathTrace; the time it takes counts as teaching).
    Round playRound(std::vector<TokenId> &sequence, int budget) override;
    int roundLength() const override { return m_settings.tree.depth(); }
    const DecodingSettings &settings() const override { return m_settings; }
    const DecodingState &targetState() const override { return *m_targetState; }
    const DecodingState &draftState() const override { return *m_draftState; }

private:
    /// The tokens from the root to `node` (empty for the root, node -1).
    void pathTo(const std::vector<TreeNode> &nodes, int node, std::vector<TokenId> &path) const;

    LanguageModel &m_target;
    LanguageModel &m_draft;
    DecodingSettings m_settings;
    std::unique_ptr<DecodingState> m_targetState;
    std::unique_ptr<DecodingState> m_draftState;
    Rng m_rng;
    int m_rounds = 0;
};

} // namespace specdec
