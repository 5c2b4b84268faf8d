// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DecodingSettings: how a speculative run decodes — K and the draft policy (chains) or a tree shape, both
// samplers, the seed, the acceptance rule (correct or a wrong variant), the KV cache, and whether the traces
// record full distributions.

#include "Acceptance.h"
#include "DraftPolicy.h"
#include "Sampler.h"
#include "TokenTree.h"
#include "TreeAcceptance.h"

#include <cstdint>

namespace specdec {

struct DecodingSettings
{
    int draftLength = 4;    ///< K, 1..64: the most tokens a round drafts
    DraftPolicy policy;     ///< how many of those K a round actually drafts
    SamplerSettings target; ///< turns the target's output into p
    SamplerSettings draft;  ///< turns the draft's output into q (the distribution it samples from)
    std::uint64_t seed = 0;
    bool recordDistributions = false; ///< keep full p, q, residual and bonus vectors in every trace
    Variant variant = Variant::Correct;
    TreeShape tree; ///< non-empty: decode with token trees of this shape (TreeDecoder), not chains
    TreeVariant treeVariant = TreeVariant::Correct; ///< the rule the tree decoder tests children with
    bool kvCache = true; ///< decode with each model's key/value cache (off: recompute the window)

    /// Throws Error for K outside 1..64 or invalid sampler settings.
    void validate() const;
};

} // namespace specdec
