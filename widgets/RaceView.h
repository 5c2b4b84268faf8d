// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RaceView: the race (engine/RaceRun.h) drawn as two lanes — the target alone and speculative decoding — whose
// texts grow token by token at the pace the engine measured. A step appears when the view's clock passes the
// lane time at which the engine finished it; the clock runs at wall time / slow motion (the same factor for
// both lanes) and never passes the time both lanes have been played to, so neither lane is shown ahead of the
// other. Each lane shows its text, tokens per second over its own decoding time, target calls and a progress
// bar; the speculative lane colours each round as the round view's transcript does (accepted run, then the
// correction or the bonus). When both are shown to the end, a line says whether the texts are identical.

#include "LabColors.h"

#include "RaceRun.h"
#include "Tokenizer.h"

#include <QElapsedTimer>
#include <QWidget>

#include <array>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTextEdit;
class QTimer;

namespace specdec::gui {

/// What a race is run on: the models' titles, the decoding shape ("K = 4", "tree 3,2,1") and its length.
struct RaceSetup
{
    std::shared_ptr<const Tokenizer> vocabulary;
    QString target;
    QString draft;
    QString shape;
    int tokens = 0;
    bool kvCache = true;
};

class RaceView : public QWidget
{
    Q_OBJECT
public:
    explicit RaceView(QWidget *parent = nullptr);

    /// Clears both lanes for a new race.
    void setRace(const RaceSetup &setup);
    /// Steps as the engine played them, in order (each lane's steps in its own order).
    void addSteps(const std::vector<RaceStep> &steps);
    /// The engine has finished (or was stopped): no more steps come.
    void setEngineFinished(bool stopped);
    /// Shows every step received at once (the clock jumps to the end of what was played).
    void showAll();
    /// A message in place of the verdict (loading, an error).
    void setStatus(const QString &text);

    /// The slow motion factor: the clock runs at wall time / factor (1 = the engine's own pace).
    double slowMotion() const;
    int tokens() const;
    void setTokens(int tokens);
    void setRunning(bool running);

    /// What a lane shows now: its text, tokens, target calls and the steps (tokens or rounds) shown.
    QString laneText(RaceLane lane) const;
    int laneTokens(RaceLane lane) const { return lane_(lane).shownTokens; }
    std::int64_t laneTargetCalls(RaceLane lane) const { return lane_(lane).shownCalls; }
    int laneSteps(RaceLane lane) const { return lane_(lane).shown; }
    /// The line under the lanes (the verdict once both finished).
    QString verdict() const;
    bool isFinished() const { return m_verdictShown; }

signals:
    void startRequested(int tokens);
    void stopRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Lane
    {
        QLabel *title = nullptr;
        QLabel *numbers = nullptr;
        QProgressBar *progress = nullptr;
        QTextEdit *text = nullptr;
        std::vector<RaceStep> steps; ///< received
        int shown = 0;               ///< steps shown
        int shownTokens = 0;
        std::int64_t shownCalls = 0;
        double shownSeconds = 0.0; ///< the lane time of the last step shown
        /// The lane's text decoded as it grows (a character split into byte tokens appears once whole).
        std::shared_ptr<TextStream> stream;
    };
    Lane &lane_(RaceLane lane) { return m_lanes[static_cast<std::size_t>(lane)]; }
    const Lane &lane_(RaceLane lane) const { return m_lanes[static_cast<std::size_t>(lane)]; }
    /// The lane time up to which both lanes have been played (a lane that has finished does not hold it back).
    double playedTo() const;
    bool laneComplete(RaceLane lane) const;
    void tick();
    void reveal();
    void appendStep(Lane &lane, RaceLane which, const RaceStep &step);
    void updateNumbers(RaceLane which);
    void updateVerdict();
    void retranslate();
    void applyFonts();

    LabColors m_colors;
    RaceSetup m_setup;
    std::array<Lane, 2> m_lanes;
    QSpinBox *m_tokens;
    QComboBox *m_slow;
    QPushButton *m_start;
    QPushButton *m_stop;
    QLabel *m_setupLine;
    QLabel *m_verdict;
    QLabel *m_tokensLabel;
    QLabel *m_slowLabel;
    QTimer *m_timer;
    QElapsedTimer m_wall;
    double m_clock = 0.0; ///< lane seconds shown so far
    bool m_engineFinished = false;
    bool m_stopped = false;
    bool m_verdictShown = false;
};

} // namespace specdec::gui
