// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The copyable values a session hands to the views: one played round (its trace and metrics) and the facts
// of a loaded setup. Registered as metatypes so they cross threads in queued signals.

#include "Experiment.h"
#include "Metrics.h"
#include "RoundTrace.h"
#include "Tokenizer.h"
#include "TreeTrace.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace specdec::gui {

/// One round as the views see it; every number was computed by the engine on the worker thread. A token-tree
/// round keeps its TreeTrace in `tree` and its accepted path as a chain in `trace` (pathTrace, TreePath.h),
/// which the chain views (transcript, timeline, plots, metrics) read.
struct RoundRecord
{
    RoundTrace trace;
    std::shared_ptr<const TreeTrace> tree; ///< the tree of a token-tree round; null for a chain round
    std::int64_t nodesDrafted = 0;         ///< drafted tokens (tree: nodes) of rounds 0..trace.index
    RunMetrics round;                      ///< computeMetrics of this round alone
    RunMetrics cumulative;                 ///< computeMetrics of rounds 0..trace.index
    double seconds = 0.0;                  ///< wall time of the round on the worker
    double baselineSeconds = 0.0; ///< wall time of the autoregressive baseline for the same tokens (when measured)
    /// The tokens of trace.committed the run kept (RunStep::kept), -1 for all: fewer in a last round cut at the cap
    /// or after the target's end-of-text token. The round is drawn as played; its text ends where the run's does.
    int kept = -1;
};

/// The trace of a shared record, sharing the record's ownership (the aliasing constructor): what a RoundFrame
/// keeps, so the trace lives as long as the frame however the history caches records. Null for null.
std::shared_ptr<const RoundTrace> traceOf(std::shared_ptr<const RoundRecord> record);

/// What a loaded setup is: its vocabulary, prompt and model names.
/// What the setup's tooltip says of a loaded model: read from disk or measured, never estimated.
struct ModelFacts
{
    QStringList weightFiles; ///< a neural model's graph and weight files (ModelFiles.h); empty for other models
    quint64 weightBytes = 0; ///< their bytes on disk
    qint64 parameters = 0;   ///< the loaded model's parameters (LanguageModel::parameterCount); 0: not neural
    double stepSeconds = 0.0; ///< one decoding step (one token), timed at load where a run's calls are (CostProbe); 0: none
    int probedTokens = 0;     ///< the length of that run
};

struct SessionInfo
{
    std::shared_ptr<const Tokenizer> vocabulary;
    std::vector<TokenId> prompt;
    QString corpus;
    QString target;
    QString draft;
    int draftLength = 4;
    bool greedy = false;
    QStringList warnings;
    bool kvCache = true; ///< the session decodes with the models' key/value caches
    /// V(m) = T_target(m new positions) / T_target(1), m = 1..size, and c = T_draft(1) / T_target(1), measured
    /// through the session's states when it loaded, where a run's calls are (VerificationCost.h); empty without a prompt.
    std::vector<double> verificationCost;
    double draftCost = 0.0;
    int probedTokens = 0; ///< the length of the run whose calls were timed (CostProbe)
    ModelFacts targetFacts, draftFacts;
};

/// Where a committed token came from; the transcript colours text by it.
enum class Origin { Prompt, Draft, Residual, Bonus };

/// The origin of committed token `i` of `trace` (accepted drafts first, then the correction or bonus).
Origin originOf(const RoundTrace &trace, int i);

void registerMetaTypes();

} // namespace specdec::gui

Q_DECLARE_METATYPE(specdec::gui::RoundRecord)
Q_DECLARE_METATYPE(specdec::gui::SessionInfo)
Q_DECLARE_METATYPE(specdec::Setup)
