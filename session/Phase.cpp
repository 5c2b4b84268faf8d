// SPDX-License-Identifier: GPL-3.0-or-later
#include "Phase.h"

#include <QCoreApplication>

namespace specdec::gui {

std::vector<Phase> phasesOf(const RoundTrace &trace)
{
    return {Phase::Draft, Phase::Verify, Phase::Dice, trace.rejectedAt >= 0 ? Phase::Residual : Phase::Bonus,
            Phase::Commit};
}

QString phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Draft: return QCoreApplication::translate("Phase", "Draft");
    case Phase::Verify: return QCoreApplication::translate("Phase", "Verify");
    case Phase::Dice: return QCoreApplication::translate("Phase", "Dice");
    case Phase::Residual: return QCoreApplication::translate("Phase", "Residual");
    case Phase::Bonus: return QCoreApplication::translate("Phase", "Bonus");
    case Phase::Commit: return QCoreApplication::translate("Phase", "Commit");
    }
    return {};
}

QString phaseExplanation(Phase phase, bool greedy)
{
    switch (phase) {
    case Phase::Draft:
        return QCoreApplication::translate("Phase",
                                           "The apprentice (draft model) writes K tokens, one call each; "
                                           "each card shows q(x).");
    case Phase::Verify:
        return QCoreApplication::translate("Phase",
                                           "The head chef (target model) scores all K + 1 positions in "
                                           "one forward pass; each card gets p(x).");
    case Phase::Dice:
        return greedy ? QCoreApplication::translate("Phase",
                                                    "Greedy: each card is kept when it equals the "
                                                    "target's most probable token.")
                      : QCoreApplication::translate("Phase",
                                                    "Each card rolls u ~ U[0, 1) and is kept when "
                                                    "u < min(1, p/q); the first failure stops the test.");
    case Phase::Residual:
        return greedy ? QCoreApplication::translate("Phase",
                                                    "The rejected card is replaced by the target's most "
                                                    "probable token.")
                      : QCoreApplication::translate("Phase",
                                                    "The rejected card is replaced by a draw from the "
                                                    "residual norm(max(0, p − q)).");
    case Phase::Bonus:
        return QCoreApplication::translate("Phase",
                                           "All K passed: the (K + 1)-th target distribution gives one "
                                           "more token for free.");
    case Phase::Commit:
        return QCoreApplication::translate("Phase",
                                           "Accepted tokens and the corrected or bonus token join the "
                                           "text.");
    }
    return {};
}

QString phaseKey(Phase phase)
{
    switch (phase) {
    case Phase::Draft: return QStringLiteral("draft");
    case Phase::Verify: return QStringLiteral("verify");
    case Phase::Dice: return QStringLiteral("dice");
    case Phase::Residual: return QStringLiteral("residual");
    case Phase::Bonus: return QStringLiteral("bonus");
    case Phase::Commit: return QStringLiteral("commit");
    }
    return {};
}

std::optional<Phase> phaseFromKey(const QString &key)
{
    for (Phase p : {Phase::Draft, Phase::Verify, Phase::Dice, Phase::Residual, Phase::Bonus, Phase::Commit})
        if (phaseKey(p) == key.toLower())
            return p;
    return std::nullopt;
}

} // namespace specdec::gui
