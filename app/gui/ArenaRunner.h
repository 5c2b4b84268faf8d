// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The draft arena's engine side: ArenaWorker (worker thread) loads one target and 2–6 lanes — a draft spec
// under a draft-length policy each — and plays rounds for them with the same prompt, seed and sampler
// settings; ArenaRunner (GUI thread) owns it and keeps each lane's history.

#include "RoundHistory.h"

#include "Experiment.h"

#include <QObject>
#include <QStringList>
#include <QThread>

#include <memory>
#include <vector>

namespace specdec::gui {

/// One lane: a draft spec ("ngram:2", "lookup:3", "onnx:…") and a policy ("constant", "heuristic", …).
struct ArenaLaneSpec
{
    QString draft;
    QString policy = QStringLiteral("constant");
    /// "ngram:2" or "ngram:2 heuristic": spec, then an optional policy.
    static ArenaLaneSpec parse(const QString &line);
    QString title() const;
};

struct ArenaInfo
{
    SessionInfo session;
    QStringList lanes;             ///< the drafts' own descriptions, with the policy
    std::vector<TokenId> baseline; ///< the target's own text (autoregressive, same seed)
    double baselineSecondsPerToken = 0.0;
    int tokens = 0;                ///< tokens each lane writes
};

class ArenaWorker : public QObject
{
    Q_OBJECT
public:
    explicit ArenaWorker(CorpusCatalog catalog, QObject *parent = nullptr);
    ~ArenaWorker() override;

public slots:
    void load(const specdec::Setup &setup, const QStringList &lanes, int generation);
    /// aligned = false: one round per lane; true: each lane plays until it has as many tokens as the lane
    /// furthest ahead (+1). count repeats the step.
    void step(bool aligned, int count, int generation);

signals:
    void loaded(const specdec::gui::ArenaInfo &info, int generation);
    void played(int lane, const QList<specdec::gui::RoundRecord> &rounds, int generation);
    void failed(const QString &message, int generation);
    void stepDone(int generation);

private:
    struct Lane;
    bool playRound(int lane, QList<RoundRecord> &out);

    CorpusCatalog m_catalog;
    std::unique_ptr<Experiment> m_experiment;
    std::vector<std::unique_ptr<Lane>> m_lanes;
    double m_baselinePerToken = 0.0;
    int m_tokens = 0;
    int m_generation = -1;
};

class ArenaRunner : public QObject
{
    Q_OBJECT
public:
    explicit ArenaRunner(CorpusCatalog catalog, QObject *parent = nullptr);
    ~ArenaRunner() override;

    void start(const Setup &setup, const QStringList &lanes);
    void step(bool aligned, int count = 1);
    const ArenaInfo &info() const { return m_info; }
    int laneCount() const { return static_cast<int>(m_histories.size()); }
    /// Lane `lane`'s history (0 <= lane < laneCount()).
    const RoundHistory &history(int lane) const { return *m_histories[static_cast<std::size_t>(lane)]; }
    bool isReady() const { return m_ready; }
    int pending() const { return m_pending; }

signals:
    void ready(const specdec::gui::ArenaInfo &info);
    void roundsAdded(int lane);
    void stepFinished();
    void failed(const QString &message);

private:
    QThread m_thread;
    ArenaWorker *m_worker;
    ArenaInfo m_info;
    std::vector<std::unique_ptr<RoundHistory>> m_histories;
    int m_generation = 0;
    int m_pending = 0;
    bool m_ready = false;
};

} // namespace specdec::gui

Q_DECLARE_METATYPE(specdec::gui::ArenaInfo)
