// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The draft arena's engine side, as jobs of the engine host (EngineHost.h): one target and 2–6 lanes — a
// draft spec under a draft-length policy each — with the same prompt, seed and sampler settings. Each lane
// is a session (a SessionRun on the shared target, capped at the setup's tokens) with its own RoundHistory.
// stop() cancels the step in flight within one round.

#include "EngineJobs.h"
#include "RoundHistory.h"

#include "Experiment.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

namespace specdec::gui {

class EngineHost;

/// One lane: a draft spec ("ngram:2", "lookup:3", "onnx:…"), a policy ("constant", "heuristic", …) and
/// optionally a token-tree shape ("tree:3,2,1"), so chains and trees run side by side.
struct ArenaLaneSpec
{
    QString draft;
    QString policy = QStringLiteral("constant");
    QString tree; ///< "3,2,1"; empty: a chain of K
    /// "ngram:2", "ngram:2 heuristic" or "ngram:2 tree:3,2,1": spec, then an optional policy or tree.
    static ArenaLaneSpec parse(const QString &line);
    QString title() const;
};

struct ArenaInfo
{
    SessionInfo session;
    QStringList lanes;             ///< the drafts' own descriptions, with the policy
    std::vector<TokenId> baseline; ///< the target's own text (autoregressive, same seed)
    int tokens = 0;                ///< tokens each lane writes
};

class ArenaRunner : public QObject
{
    Q_OBJECT
public:
    /// `host`: the window's engine host (one is made, owned by the runner, when none is given).
    explicit ArenaRunner(CorpusCatalog catalog, QObject *parent = nullptr, EngineHost *host = nullptr);
    ~ArenaRunner() override;

    void start(const Setup &setup, const QStringList &lanes);
    void step(bool aligned, int count = 1);
    /// Cancels the step in flight (and those queued); the lanes stay loaded.
    void stop();
    const ArenaInfo &info() const { return m_info; }
    int laneCount() const { return static_cast<int>(m_histories.size()); }
    /// Lane `lane`'s history (0 <= lane < laneCount()).
    const RoundHistory &history(int lane) const { return *m_histories[static_cast<std::size_t>(lane)]; }
    bool isReady() const { return m_ready; }
    int pending() const { return m_pending; }

signals:
    /// How far the lanes have loaded, in [0, 1], rising: the target (0.3), its autoregressive baseline (0.3 to
    /// 0.7, by tokens), then each lane's draft.
    void loadProgressed(double fraction);
    void ready(const specdec::gui::ArenaInfo &info);
    void roundsAdded(int lane);
    void stepFinished();
    void failed(const QString &message);

private:
    struct State;
    void onLaneRounds(const std::shared_ptr<State> &state, ArenaLaneRounds rounds);

    CorpusCatalog m_catalog;
    EngineHost *m_host;
    std::unique_ptr<EngineHost> m_ownHost;
    std::shared_ptr<State> m_state;
    ArenaInfo m_info;
    std::vector<std::unique_ptr<RoundHistory>> m_histories;
    int m_pending = 0;
    bool m_ready = false;
};

} // namespace specdec::gui

Q_DECLARE_METATYPE(specdec::gui::ArenaInfo)
