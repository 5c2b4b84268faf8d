// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The phases a round is shown in, in order: Draft, Verify, Dice, then Residual (after a rejection) or Bonus
// (when all K passed), then Commit.

#include "RoundTrace.h"

#include <QString>

#include <optional>
#include <vector>

namespace specdec::gui {

enum class Phase { Draft, Verify, Dice, Residual, Bonus, Commit };

/// The phases `trace` is shown in: Residual or Bonus, never both.
std::vector<Phase> phasesOf(const RoundTrace &trace);
/// The translated name ("Draft", "起草").
QString phaseName(Phase phase);
/// One sentence saying what the phase shows, translated.
QString phaseExplanation(Phase phase, bool greedy);
/// The untranslated command-line key ("draft", "verify", "dice", "residual", "bonus", "commit").
QString phaseKey(Phase phase);
std::optional<Phase> phaseFromKey(const QString &key);

} // namespace specdec::gui
