// SPDX-License-Identifier: GPL-3.0-or-later
#include "TransportBar.h"

#include "FixedLabel.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <cmath>

namespace specdec::gui {

TransportBar::TransportBar(QWidget *parent)
    : QWidget(parent)
    , m_play(new QAction(this))
    , m_previous(new QAction(this))
    , m_next(new QAction(this))
    , m_nextRound(new QAction(this))
    , m_reset(new QAction(this))
    , m_speed(new QSlider(Qt::Horizontal, this))
    , m_speedLabel(new QLabel(this))
    , m_status(new FixedLabel(1, this))
{
    // The shortcuts are the window's to declare (its action registry); the tool tips follow them.
    for (QAction *a : {m_play, m_previous, m_next, m_nextRound, m_reset})
        connect(a, &QAction::changed, this, [this, a] {
            const QString tip = a->shortcut().isEmpty()
                ? a->text()
                : QStringLiteral("%1 (%2)").arg(a->text(), a->shortcut().toString(QKeySequence::NativeText));
            if (a->toolTip() != tip)
                a->setToolTip(tip);
        });
    connect(m_play, &QAction::triggered, this, &TransportBar::playToggled);
    connect(m_previous, &QAction::triggered, this, &TransportBar::previousPhase);
    connect(m_next, &QAction::triggered, this, &TransportBar::nextPhase);
    connect(m_nextRound, &QAction::triggered, this, &TransportBar::nextRound);
    connect(m_reset, &QAction::triggered, this, &TransportBar::reset);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->setSpacing(4);
    for (QAction *a : {m_reset, m_previous, m_play, m_next, m_nextRound}) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(a);
        button->setToolButtonStyle(Qt::ToolButtonIconOnly);
        button->setAutoRaise(true);
        button->setIconSize(QSize(26, 26));
        layout->addWidget(button);
    }
    layout->addSpacing(16);
    layout->addWidget(m_speedLabel);
    m_speed->setRange(0, 100);
    m_speed->setValue(40);
    m_speed->setMaximumWidth(220);
    m_speed->setMinimumWidth(120);
    layout->addWidget(m_speed);
    layout->addSpacing(16);
    layout->addWidget(m_status, 1);
    connect(m_speed, &QSlider::valueChanged, this, [this](int v) {
        retranslate();
        emit speedChanged(v);
    });
    retranslate();
}

QList<QAction *> TransportBar::actions() const
{
    return {m_play, m_previous, m_next, m_nextRound, m_reset};
}

int TransportBar::speed() const
{
    return m_speed->value();
}

void TransportBar::setSpeed(int speed)
{
    m_speed->setValue(speed);
}

void TransportBar::setPlaying(bool playing)
{
    m_playing = playing;
    retranslate();
}

void TransportBar::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString TransportBar::status() const
{
    return m_status->text();
}

int TransportBar::phaseMilliseconds(int speed)
{
    if (speed >= 100)
        return 0;
    // 3 s per phase at 0, about 30 ms at 99: an exponential scale feels even to the hand.
    return static_cast<int>(std::lround(3000.0 * std::pow(0.01, speed / 99.0)));
}

void TransportBar::retranslate()
{
    auto withShortcut = [](QAction *a, const QString &text) {
        a->setToolTip(a->shortcut().isEmpty()
                          ? text
                          : QStringLiteral("%1 (%2)").arg(text, a->shortcut().toString(QKeySequence::NativeText)));
    };
    m_play->setIcon(style()->standardIcon(m_playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setText(m_playing ? tr("Pause") : tr("Play"));
    withShortcut(m_play, m_play->text());
    m_previous->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    m_previous->setText(tr("Previous phase"));
    withShortcut(m_previous, m_previous->text());
    m_next->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_next->setText(tr("Next phase"));
    withShortcut(m_next, m_next->text());
    m_nextRound->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    m_nextRound->setText(tr("Next round"));
    withShortcut(m_nextRound, m_nextRound->text());
    m_reset->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    m_reset->setText(tr("Reset to the prompt"));
    withShortcut(m_reset, m_reset->text());
    m_speedLabel->setText(tr("Speed"));
    const int ms = phaseMilliseconds(m_speed->value());
    m_speed->setToolTip(ms == 0 ? tr("As fast as the engine runs") : tr("%1 ms per phase").arg(ms));
}

void TransportBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
