// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The models `specdec run` and the window start from. On the kjv corpus: the chef, kjv target-large (22 M
// parameters, 90 MB of float32 weights, context 512: each cached step streams every weight from memory, so
// verifying K + 1 positions costs about one step and speculative decoding pays), with draft-small. On any other
// corpus, or with another target, the defaults stay Setup's n-grams (the small target and the n-gram setups are
// the contrast, one choice away).

#include "Experiment.h"

#include <string>

namespace specdec {

inline constexpr const char *kChefTarget = "onnx:corpora/kjv/models/target-large.onnx";
inline constexpr const char *kChefDraft = "onnx:corpora/kjv/models/draft-small.onnx";
/// K: the measured cost model's best, E[N](K) / (V(K+1) + K c), on a 300-token run at K 8, one thread (this
/// branch's kernels; corpora/README.md): 6 at T = 0, 5 at T = 1 (the window's default temperature).
inline constexpr int kChefDraftLength = 5;
/// The chef's prompt when none is given: an ONNX model needs at least one token to continue (the window's too).
inline constexpr const char *kChefPrompt = "And God said, ";

/// The default target of a corpus: kChefTarget for "kjv", else Setup's.
inline std::string defaultTarget(const std::string &corpus)
{
    return corpus == "kjv" ? std::string(kChefTarget) : Setup{}.target;
}

/// The default draft for a target: kChefDraft for kChefTarget, else Setup's.
inline std::string defaultDraft(const std::string &target)
{
    return target == kChefTarget ? std::string(kChefDraft) : Setup{}.draft;
}

} // namespace specdec
