// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JSON renderings of engine results for `specdec ... --json`.

#include "RoundTrace.h"
#include "RunReport.h"
#include "Tokenizer.h"
#include "VerificationCost.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <span>

namespace specdec::app {

/// The decoded text of `ids` (after `context`, where a SentencePiece leading space depends on it).
QString tokensToString(const Tokenizer &vocabulary, std::span<const TokenId> ids, std::span<const TokenId> context = {});
/// One token as traces show it: a character, or a piece ("␣the", "▁of", "<E5>").
QString tokenToString(const Tokenizer &vocabulary, TokenId id);
/// Tokens as traces show them: characters as running text, pieces separated by "|" ("␣the|␣earth").
QString piecesToString(const Tokenizer &vocabulary, std::span<const TokenId> ids);

/// Token ids as a JSON array of numbers (`token_ids`: the generated tokens, the prompt excluded).
QJsonArray tokenIdsJson(std::span<const TokenId> tokens);

/// A speculative run in `specdec run --json` and each result of `compare --json`: one schema for chains and
/// trees (docs/cli.md): the decoder ("chain" or "tree", k = K or the depth, the tree's shape or null), the text,
/// counts, rates (per position = per depth for trees), timing, theory, the three speedups, the cache and the
/// baseline (null unless one was played; same_text compares `text` with `baselineText`).
QJsonObject reportJson(const RunReport &report, const Tokenizer &vocabulary, std::span<const TokenId> text,
                       std::span<const TokenId> baselineText = {}, std::span<const TokenId> prompt = {});

/// The measured cost of verification for a run's `theory` object: verification_cost (V(1..K+1)), c_step
/// (T_draft(1) / T_target(1)), the generalised prediction E[N] / (V(K+1) + K c) beside Leviathan's (V = 1) at
/// the same c, and the best K under each.
QJsonObject verificationJson(const VerificationCost &cost, const RunMetrics &metrics, int draftLength);

/// The keys verificationJson writes: a run without a prompt to measure on writes them as null.
QStringList verificationKeys();

/// One RoundTrace, with the top `topEntries` entries of p and q at each position.
QJsonObject traceJson(const RoundTrace &trace, const Tokenizer &vocabulary, int topEntries = 5);

/// The `count` most probable entries of a distribution as [{"token", "prob"}, ...].
QJsonArray topEntries(const Eigen::VectorXd &distribution, const Tokenizer &vocabulary, int count);

/// A distribution as {"tokens": [...], "probs": [...]} over the whole vocabulary.
QJsonObject distributionJson(const Eigen::VectorXd &distribution, const Tokenizer &vocabulary);

} // namespace specdec::app
