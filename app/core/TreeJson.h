// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JSON of one token-tree round for `specdec run --tree ... --json --trace`: the round's tree with every node (parent,
// token, q, p, u, p' used, verdict), the accepted path and the correction or bonus.

#include "Tokenizer.h"
#include "TreeTrace.h"

#include <QJsonObject>

namespace specdec::app {

/// One TreeTrace; recorded distributions appear as their top `topEntries` entries.
QJsonObject treeTraceJson(const TreeTrace &trace, const Tokenizer &vocabulary, int topEntries = 5);

} // namespace specdec::app
