// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ArenaTool: the draft arena as a classroom tool — its view wired to its runner: Load lanes and Play, the
// view busy while they run, and the rounds a demonstration plays once the lanes it asked for are loaded.

#include <QObject>
#include <QStringList>

namespace specdec::gui {

class ArenaRunner;
class ArenaView;
class SessionController;

class ArenaTool : public QObject
{
    Q_OBJECT
public:
    /// The lanes load on the session's setup (target, prompt, seed, settings).
    ArenaTool(ArenaView *view, ArenaRunner *runner, const SessionController *session, QObject *parent = nullptr);

    /// Puts `lanes` into the editor and loads them; once loaded, each plays `rounds` rounds (none: 0).
    void load(const QStringList &lanes, int rounds);
    /// Plays `rounds` rounds in every lane: now when the lanes are loaded, once they are when they are
    /// loading, and after loading the editor's lanes (as Load lanes does) when none are.
    void play(int rounds);
    /// The lanes are being loaded (a Load, a lesson or a demonstration started them).
    bool isLoading() const { return m_loading; }
    /// Whether the lanes count among the theory explorer's "your runs": only when the arena belongs to what
    /// is shown (a Load, a lesson's arena), so no leftover lanes of an earlier lesson appear there.
    bool isMeasured() const { return m_measured; }
    void setMeasured(bool on) { m_measured = on; }

signals:
    /// A step of every lane finished (the view shows it, no longer busy).
    void stepFinished();

private:
    void start(const QStringList &lanes);

    ArenaView *m_view;
    ArenaRunner *m_runner;
    const SessionController *m_session;
    bool m_measured = false;
    bool m_loading = false;
    int m_loadingLanes = 0; ///< the lanes being loaded (their count in the busy line)
    int m_autoRounds = 0;   ///< rounds per lane played once the lanes are loaded
};

} // namespace specdec::gui
