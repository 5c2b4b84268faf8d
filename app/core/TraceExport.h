// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exporting round traces for analysis elsewhere: CSV (one row per drafted token) and JSON.

#include "RoundTrace.h"
#include "Tokenizer.h"

#include <QString>

#include <vector>

namespace specdec::app {

/// CSV with a header row; one row per drafted position: round, position, token, q, p, ratio, threshold, u,
/// verdict, beta, tv, and per round the correction, bonus and committed text.
QByteArray tracesToCsv(const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary);
/// A JSON array of rounds (as `specdec run --trace --json`).
QByteArray tracesToJson(const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary);

/// Writes CSV or JSON by the file's suffix (.csv / .json), atomically; throws specdec::Error.
void exportTraces(const QString &path, const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary);

} // namespace specdec::app
