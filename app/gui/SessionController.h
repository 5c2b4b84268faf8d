// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SessionController: the window's session, run as jobs of the engine host (EngineHost.h). It loads a Setup
// (an Experiment and a SessionRun on the session worker), asks for rounds, and owns the one history of
// played rounds (RoundHistory) that every view reads. A run stops at its cap of tokens (Setup::cap) and says
// so; stop() cancels the rounds in flight at once. Errors arrive as readable messages; it stays usable.

#include "EngineJobs.h"
#include "RoundHistory.h"

#include "Experiment.h"

#include <QObject>

#include <memory>

namespace specdec::gui {

class EngineHost;
class FrameGate;

class SessionController : public QObject
{
    Q_OBJECT
public:
    /// `host`: the window's engine host (one is made, owned by the controller, when none is given).
    explicit SessionController(CorpusCatalog catalog, QObject *parent = nullptr, EngineHost *host = nullptr);
    ~SessionController() override;

    /// How start() treats the session already loaded.
    enum class Start {
        Replace,         ///< dropped at once (the views clear while the new setup loads)
        KeepUntilLoaded, ///< kept, and played on, until the new setup has loaded; if it fails, it stays
    };
    /// Loads `setup` on the session worker; earlier rounds and pending requests are dropped (with
    /// KeepUntilLoaded, once the new setup has loaded: a setup that fails leaves the session as it was).
    void start(const Setup &setup, Start how = Start::Replace);
    /// Asks for `count` more rounds (ignored while loading, after a failure or at the cap).
    void requestRounds(int count);
    /// Plays until the history holds `rounds` rounds or the run reaches its cap (a session file's position);
    /// goal() says how far it is going until then, so the window can show the progress.
    void playTo(int rounds);
    int goal() const { return m_goal; }
    /// Cancels the rounds being played and those asked for (the session stays loaded).
    void stop();

    const Setup &setup() const { return m_setup; }
    const SessionInfo &info() const { return m_info; }
    /// The one history of played rounds; views read it (and pin the round on screen).
    const RoundHistory &history() const { return m_history; }
    RoundHistory &history() { return m_history; }
    bool isReady() const { return m_ready; }
    bool isLoading() const { return m_loading; }
    /// The setup loading behind the session (Start::KeepUntilLoaded) until it is adopted or fails; else null.
    const Setup *loadingBehind() const { return m_next ? &m_nextSetup : nullptr; }
    /// How far the setup loading (isLoading() or loadingBehind()) has come, in [0, 1] (SessionLoadProgress).
    double loadFraction() const { return m_loadFraction; }
    int pendingRounds() const { return m_pending; }
    /// Whether the run has written its cap of tokens (setup().cap): no more rounds come.
    /// No more rounds come: the cap of tokens is reached, or the target wrote its end-of-text token (then
    /// endedAtEndOfText()).
    bool isAtCap() const { return m_atCap; }
    bool endedAtEndOfText() const { return m_endOfText; }
    /// Tokens written by the rounds in the history.
    int generatedTokens() const { return m_history.empty() ? 0 : m_history.back().cumulative.generatedTokens; }
    EngineHost *host() const { return m_host; }
    /// Rounds whose numbers the history keeps (RoundHistory::setKept); takes effect from the next start().
    /// The window keeps the default (20,480); tests make it small to play past it quickly.
    void setRoundsKept(int rounds) { m_roundsKept = rounds; }
    /// Rounds whose full distributions are kept; older rounds keep their numbers only (memory stays bounded).
    static constexpr int kRoundsWithDistributions = RoundHistory::kDefaultWindow;

signals:
    void loading(const specdec::Setup &setup);
    void ready(const specdec::gui::SessionInfo &info);
    /// The setup loading (in front or behind) has come `fraction` of its way (loadFraction()).
    void loadProgressed(double fraction);
    void roundsAdded(int first, int count);
    /// The run stopped at its cap of `tokens` tokens.
    void capReached(int tokens);
    void failed(const QString &message);

private:
    struct State;
    void onBatch(const std::shared_ptr<State> &state, RoundsBatch batch);
    void onLoadProgress(const std::shared_ptr<State> &state, const SessionLoadProgress &progress);
    void onFinished(const std::shared_ptr<State> &state, const RoundsFinished &finished);
    /// Makes `state`, loaded from `setup`, the session: the history cleared, loading and ready emitted.
    void adopt(const std::shared_ptr<State> &state, const Setup &setup, const SessionInfo &info);

    CorpusCatalog m_catalog;
    EngineHost *m_host;
    std::unique_ptr<EngineHost> m_ownHost;
    FrameGate *m_gate;              ///< rounds are not timed while the window shows the batch before (FrameGate.h)
    std::shared_ptr<State> m_state; ///< the current session's engine side (shared with its jobs)
    std::shared_ptr<State> m_next;  ///< a setup loading behind the current session (Start::KeepUntilLoaded)
    Setup m_setup;
    Setup m_nextSetup; ///< the setup of m_next
    SessionInfo m_info;
    RoundHistory m_history;
    int m_pending = 0;
    bool m_ready = false;
    bool m_loading = false;
    bool m_atCap = false;
    bool m_endOfText = false;
    int m_goal = 0;
    double m_loadFraction = 0.0;
    int m_roundsKept = CompactRounds::kDefaultKept;
};

} // namespace specdec::gui
