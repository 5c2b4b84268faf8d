// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CardStrip: the current round as a row of token cards, K drafts and one more card for the corrected or
// bonus token, drawn from the round's frame (RoundFrame.h). Within a phase it animates by stepping the frame
// (cards appear one by one, the verify sweep, dice in order); the last step is the phase's frame. Given one
// step (predict before reveal), it shows that step's frame; a step that reveals a verdict rolls u along the
// bar first.

#include "CardPainter.h"
#include "Phase.h"
#include "RoundFrame.h"
#include "RoundRecord.h"

#include <QWidget>

#include <memory>

class QVariantAnimation;

namespace specdec::gui {

class CardStrip : public QWidget
{
    Q_OBJECT
public:
    /// What one card shows at the current phase and animation progress (for tests and accessibility).
    struct CardState
    {
        bool visible = false;
        bool showsQ = false;
        bool showsP = false;
        bool showsTest = false;
        CardContent::State state = CardContent::State::Pending;
    };

    explicit CardStrip(QWidget *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Tokenizer> vocabulary);
    /// Shows `record` at `phase` after `step` of its steps (RoundFrame.h); with `animate` the phase plays over
    /// the animation duration (kAllSteps: all of its steps; one step: that step).
    void setRound(std::shared_ptr<const RoundRecord> record, Phase phase, bool animate, int step = RoundFrame::kAllSteps);
    /// The reveal options of every frame drawn (predict before reveal).
    void setRevealOptions(const RevealOptions &options);
    /// The frame drawn now (at the animation's step).
    RoundFrame frame() const;
    /// The frame once the animation has played (what the position reveals).
    RoundFrame targetFrame() const;
    /// The rectangle of card `card` (0..K) in widget coordinates, and what it shows, for layout tests.
    QRectF cardRect(int card) const;
    CardContent contentOf(int card) const;
    void clear();
    void setAnimationDuration(int milliseconds);
    void setSelectedCard(int card);
    void finishAnimation();

    int cardCount() const; ///< K + 1 (the last is the correction / bonus card), 0 when empty
    CardState cardState(int card) const;
    /// The card the phase is about once it has played (the last drafted, the last die, the correction or bonus).
    int currentCard() const;
    /// The token of a card as its tooltip says it: the whole piece, its id and what a byte token is ("" while the
    /// card shows no token).
    QString toolTipOf(int card) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cardClicked(int card);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    int step() const;        ///< the step of the phase the animation has reached
    int rollingCard() const; ///< the card whose die is being rolled now, or -1

    std::shared_ptr<const Tokenizer> m_vocabulary;
    std::shared_ptr<const RoundRecord> m_record;
    Phase m_phase = Phase::Draft;
    int m_step = RoundFrame::kAllSteps;
    double m_progress = 1.0;
    int m_duration = 600;
    int m_selected = -1;
    RevealOptions m_options;
    LabColors m_colors;
    QVariantAnimation *m_animation = nullptr;
};

} // namespace specdec::gui
