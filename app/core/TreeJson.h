// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JSON renderings of token-tree runs for `specdec ... --tree ... --json`: the metrics, and each round's tree
// with every node (parent, token, q, p, u, p' used, verdict), the accepted path and the correction or bonus.

#include "Generation.h"
#include "TreeMetrics.h"
#include "TreeTrace.h"
#include "Vocabulary.h"

#include <QJsonObject>

namespace specdec::app {

/// The metrics of a tree run: calls, tokens per target call, acceptance per depth, nodes per accepted
/// token, the exact one-node acceptance beside the measured one.
QJsonObject treeMetricsJson(const TreeMetrics &metrics);

/// A whole tree run: text, counts, timing and the fields of treeMetricsJson.
QJsonObject treeRunJson(const Generation &generation, const TreeMetrics &metrics, const Vocabulary &vocabulary);

/// One TreeTrace; recorded distributions appear as their top `topEntries` entries.
QJsonObject treeTraceJson(const TreeTrace &trace, const Vocabulary &vocabulary, int topEntries = 5);

} // namespace specdec::app
