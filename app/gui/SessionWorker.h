// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionWorker: lives on the worker thread and does the engine work — loads an Experiment, plays rounds
// of SpeculativeDecoder, times the autoregressive baseline for the same tokens, and computes the metrics.
// Results leave it only as copyable values in queued signals.

#include "RoundRecord.h"

#include "Experiment.h"
#include "MetricsAccumulator.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace specdec::gui {

class SessionWorker : public QObject
{
    Q_OBJECT
public:
    /// `latest` is the controller's newest session generation: work for older ones stops early.
    SessionWorker(CorpusCatalog catalog, const std::atomic<int> *latest, QObject *parent = nullptr);
    ~SessionWorker() override;

public slots:
    /// Lowers the calling thread's scheduling priority (Linux: nice +10) so that the engine yields the CPU
    /// to the window whenever both want it. Threads the engine starts later (the ONNX executor's pool)
    /// inherit it. Called once on the worker thread when it starts.
    void yieldToWindow();
    /// Loads `setup` (training n-grams, reading ONNX files); session `generation` replaces any earlier one.
    void load(const specdec::Setup &setup, int generation);
    /// Plays `count` rounds, emitting them in batches of at most ~10 ms of work.
    void play(int count, int generation);

signals:
    void loaded(const specdec::gui::SessionInfo &info, int generation);
    void failed(const QString &message, int generation);
    void played(const QList<specdec::gui::PlayedRound> &rounds, int generation);

private:
    double timeBaseline(const std::vector<TokenId> &context, const std::vector<TokenId> &committed);

    CorpusCatalog m_catalog;
    std::unique_ptr<Experiment> m_experiment;
    std::unique_ptr<SpeculativeDecoder> m_decoder;
    std::vector<TokenId> m_sequence;
    MetricsAccumulator m_metrics; ///< the cumulative metrics, one round at a time
    double m_seconds = 0.0;
    double m_baselineSeconds = 0.0;
    int m_generation = -1;
    const std::atomic<int> *m_latest;
};

} // namespace specdec::gui
