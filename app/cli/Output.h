// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// stdout/stderr helpers of the CLI (UTF-8 text streams, JSON documents, the texts every printer shares).

#include "Generation.h"
#include "LoadProgress.h"

#include <QJsonObject>
#include <QString>
#include <QTextStream>

namespace specdec {
struct Setup;
}

namespace specdec::cli {

QTextStream &out();
QTextStream &err();
void printJson(const QJsonObject &object);
/// "specdec: KIND: MESSAGE" on stderr, on one line (app/core/ErrorLine.h): every error and warning of the CLI.
void printError(const QString &kind, const QString &message);

/// The CLI's translation context ("specdec").
QString tr(const char *text);
/// Newlines and tabs made visible (⏎, ⇥), so a token or a round fits on one line.
QString visible(QString text);
/// Rates with two decimals, separated by spaces ("0.82 0.75 0.61"): per-position or per-depth acceptance.
QString rates(const std::vector<double> &values);
/// A setup's load for a person at a terminal: "specdec: loading target-large + draft-small … 42 %" rewritten in
/// place on stderr and erased at the end (the draft named when `withDraft`; a model file or folder by its name,
/// any other spec as written). Tells no one when stderr is not a terminal (a pipe, a file, a test), so scripts
/// and --json readers see what they saw before.
LoadProgress loadingLine(const Setup &setup, bool withDraft);
/// `value` with `decimals` decimals, or "–" when it was not measured (NaN).
QString fixed(double value, int decimals);
} // namespace specdec::cli
