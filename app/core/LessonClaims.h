// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LessonClaims: what a lesson's text says about its run, as comparisons a machine can check:
//   claim   := term OP term          OP: <  <=  >  >=
//   term    := number | metric(lane) | expected_tokens(alpha, k) | cost_speedup(alpha, k, c)
//            | generalised_speedup(alpha, k, c, v)
//   metric  := alpha | tokens_per_round | speedup_passes | speedup_cost | same_text
//   lane    := a draft of the lesson (its setup's draft or an arena lane), by spec ("ngram:3") or, for an
//              ONNX file, by its name without ".onnx" ("draft-small")
// alpha = α̂ (accepted / tested), speedup_passes = tokens / target passes, speedup_cost = Thm 3.8 at α̂, K and
// the measured c, same_text = 1 when the lane's text equals the target's autoregressive text (else 0),
// expected_tokens = (1 − α^{K+1}) / (1 − α), cost_speedup = that / (Kc + 1), generalised_speedup = that / (v + Kc)
// (a verification of K + 1 positions costing v target steps). checkClaims runs the lesson's
// setup through the engine (no window) once per lane named and evaluates each claim.

#include "LessonFile.h"

namespace specdec::app {

struct ClaimTerm
{
    enum class Kind { Number, Metric, ExpectedTokens, CostSpeedup, GeneralisedSpeedup } kind = Kind::Number;
    double value = 0.0;        ///< Number
    QString metric, lane;      ///< Metric
    QVector<double> arguments; ///< theory functions
};

struct Claim
{
    QString text;
    ClaimTerm left, right;
    QString op;

    /// Throws specdec::Error with a one-line reason.
    static Claim parse(const QString &text);
    bool holds(double left, double right) const;
};

struct ClaimResult
{
    QString claim;
    double left = 0.0, right = 0.0;
    bool holds = false;
};

/// The lane of `lanes` that `name` names (its spec, or an ONNX file's stem); empty when none.
QString laneNamed(const QString &name, const QStringList &lanes);
/// The lanes of a demonstration: its setup's draft, then the arena's lanes.
QStringList demonstrationLanes(const Demonstration &demo);

/// The shipped ONNX files a lesson may name as "onnx:corpora/<corpus>/models/<file>": the one of `onnxFiles`
/// ending in /<corpus>/models/<file> (or the spec unchanged).
QString resolveModelSpec(const QString &spec, const QStringList &onnxFiles);
/// The lesson's setup and lanes with resolveModelSpec applied.
Demonstration resolvedDemonstration(Demonstration demo, const QStringList &onnxFiles);

/// Runs the lesson's setup for each lane its claims name and evaluates every claim. Throws specdec::Error
/// naming the lesson file for a claim that names an unknown lane or a lesson without a setup.
QList<ClaimResult> checkClaims(const LessonFile &lesson, const CorpusCatalog &catalog, const QStringList &onnxFiles);

} // namespace specdec::app
