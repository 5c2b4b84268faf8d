// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JSON renderings of engine results for `specdec ... --json`.

#include "Generation.h"
#include "Metrics.h"
#include "RoundTrace.h"
#include "VerificationCost.h"
#include "Vocabulary.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace specdec::app {

QString tokensToString(const Vocabulary &vocabulary, std::span<const TokenId> ids);
QString tokenToString(const Vocabulary &vocabulary, TokenId id);

/// The fields of `specdec run --json` for a speculative run: counts, rates, theory and speedups.
QJsonObject speculativeJson(const RunMetrics &metrics, int draftLength);

/// A whole speculative run: text, counts, timing and the fields of speculativeJson.
QJsonObject runJson(const Generation &generation, const RunMetrics &metrics, const Vocabulary &vocabulary,
                    int draftLength);

/// The measured cost of verification for a run's `theory` object: verification_cost (V(1..K+1)), c_step
/// (T_draft(1) / T_target(1)), the generalised prediction E[N] / (V(K+1) + K c) beside Leviathan's (V = 1) at
/// the same c, and the best K under each.
QJsonObject verificationJson(const VerificationCost &cost, const RunMetrics &metrics, int draftLength);

/// One RoundTrace, with the top `topEntries` entries of p and q at each position.
QJsonObject traceJson(const RoundTrace &trace, const Vocabulary &vocabulary, int topEntries = 5);

/// The `count` most probable entries of a distribution as [{"token", "prob"}, ...].
QJsonArray topEntries(const Eigen::VectorXd &distribution, const Vocabulary &vocabulary, int count);

/// A distribution as {"tokens": [...], "probs": [...]} over the whole vocabulary.
QJsonObject distributionJson(const Eigen::VectorXd &distribution, const Vocabulary &vocabulary);

} // namespace specdec::app
