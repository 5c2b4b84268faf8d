// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TransportBar: play/pause, step a phase back or forward, next round, reset, and the speed from classroom
// pace to as fast as the engine runs. The window declares its actions' keyboard shortcuts (Space, ←, →,
// Shift+→, Home) in its action registry.

#include <QWidget>

class QAction;
class QLabel;
class QSlider;

namespace specdec::gui {

class FixedLabel;

class TransportBar : public QWidget
{
    Q_OBJECT
public:
    explicit TransportBar(QWidget *parent = nullptr);

    QAction *playAction() const { return m_play; }
    QAction *previousPhaseAction() const { return m_previous; }
    QAction *nextPhaseAction() const { return m_next; }
    QAction *nextRoundAction() const { return m_nextRound; }
    QAction *resetAction() const { return m_reset; }
    QList<QAction *> actions() const;

    /// 0 (slowest) .. 100 (as fast as the engine runs).
    int speed() const;
    void setSpeed(int speed);
    void setPlaying(bool playing);
    void setStatus(const QString &text);
    QString status() const;

    /// Milliseconds one phase is shown at `speed`; 0 at full speed (rounds are shown as they arrive).
    static int phaseMilliseconds(int speed);

signals:
    void playToggled();
    void previousPhase();
    void nextPhase();
    void nextRound();
    void reset();
    void speedChanged(int speed);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QAction *m_play;
    QAction *m_previous;
    QAction *m_next;
    QAction *m_nextRound;
    QAction *m_reset;
    QSlider *m_speed;
    QLabel *m_speedLabel;
    FixedLabel *m_status;
    bool m_playing = false;
};

} // namespace specdec::gui
