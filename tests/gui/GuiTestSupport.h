// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rounds played by the real engine on the tiny test corpus, packed as the views receive them.

#include "Experiment.h"
#include "RoundRecord.h"
#include "TranscriptView.h"

#include <string>

namespace specdec::test {

struct PlayedRounds
{
    gui::SessionInfo info;
    gui::History history;
};

/// Plays `rounds` rounds of speculative decoding on tiny-en.txt with full distributions recorded, and packs
/// each as a RoundRecord with its own and cumulative metrics (as the session worker does).
PlayedRounds playRounds(const std::string &target, const std::string &draft, double temperature, int rounds,
                        std::uint64_t seed = 1, const std::string &prompt = "the ");

/// The setup the window suites play: tiny-en.txt, target ngram:4, draft ngram:2, prompt "the " (the rest at
/// its defaults; each suite sets its own seed and sampler).
Setup tinySetup();

/// The first round of `played` that was rejected (or, with `rejected` false, fully accepted); -1 if none.
int findRound(const PlayedRounds &played, bool rejected);

} // namespace specdec::test
