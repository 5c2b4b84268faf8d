// SPDX-License-Identifier: GPL-3.0-or-later
#include "CardStrip.h"

#include "TokenText.h"

#include <QCoreApplication>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QVariantAnimation>

#include <cmath>

namespace specdec::gui {

namespace {
constexpr double kGap = 12.0;
constexpr double kExtraGap = 36.0;
constexpr double kMargin = 16.0;
} // namespace

CardStrip::CardStrip(QWidget *parent)
    : QWidget(parent)
    , m_colors(LabColors::from(palette()))
    , m_animation(new QVariantAnimation(this))
{
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        m_progress = v.toDouble();
        update();
    });
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(false);
}

void CardStrip::setVocabulary(std::shared_ptr<const Vocabulary> vocabulary)
{
    m_vocabulary = std::move(vocabulary);
}

void CardStrip::setRound(std::shared_ptr<const RoundRecord> record, Phase phase, bool animate)
{
    m_record = std::move(record);
    m_phase = phase;
    m_selected = -1;
    m_animation->stop();
    if (animate && m_duration > 0) {
        m_progress = 0.0;
        m_animation->setDuration(m_duration);
        m_animation->start();
    } else {
        m_progress = 1.0;
    }
    update();
}

void CardStrip::clear()
{
    m_animation->stop();
    m_record.reset();
    update();
}

void CardStrip::setAnimationDuration(int milliseconds)
{
    m_duration = milliseconds;
}

void CardStrip::setSelectedCard(int card)
{
    m_selected = card;
    update();
}

void CardStrip::finishAnimation()
{
    m_animation->stop();
    m_progress = 1.0;
    update();
}

int CardStrip::cardCount() const
{
    return m_record ? m_record->trace.draftLength + 1 : 0;
}

int CardStrip::revealed(int count) const
{
    return static_cast<int>(std::ceil(m_progress * count - 1e-9));
}

CardStrip::CardState CardStrip::cardState(int card) const
{
    CardState s;
    if (!m_record || card < 0 || card >= cardCount())
        return s;
    const CardContent c = contentOf(card);
    const RoundTrace &t = m_record->trace;
    const bool extra = card == t.draftLength;
    // The K+1-th card appears with the verify pass (the target's extra row) and stays.
    s.visible = extra ? m_phase != Phase::Draft : (m_phase != Phase::Draft || card < revealed(t.draftLength));
    s.showsQ = s.visible && c.q.has_value();
    s.showsP = s.visible && c.p.has_value();
    s.showsTest = s.visible && c.showTest;
    s.state = c.state;
    return s;
}

int CardStrip::currentCard() const
{
    if (!m_record)
        return -1;
    const RoundTrace &t = m_record->trace;
    switch (m_phase) {
    case Phase::Draft: return t.draftLength - 1;
    case Phase::Verify: return 0;
    case Phase::Dice: return t.testedCount() - 1;
    case Phase::Residual:
    case Phase::Bonus: return t.draftLength;
    case Phase::Commit: return t.rejectedAt >= 0 ? t.rejectedAt : t.draftLength;
    }
    return 0;
}

CardContent CardStrip::contentOf(int card) const
{
    CardContent c;
    const RoundTrace &t = m_record->trace;
    const int k = t.draftLength;
    const int phaseIndex = static_cast<int>(m_phase);
    const bool verified = phaseIndex >= static_cast<int>(Phase::Verify) && (m_phase != Phase::Verify || m_progress >= 0.5);
    const int diceShown = m_phase == Phase::Dice ? revealed(t.testedCount())
                                                 : (phaseIndex > static_cast<int>(Phase::Dice) ? t.testedCount() : 0);
    c.selected = card == m_selected;
    c.greedy = t.greedy;
    if (card < k) {
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(card)];
        c.glyph = m_vocabulary ? tokenGlyph(*m_vocabulary, pos.token) : QString::number(pos.token);
        c.caption = QStringLiteral("#%1").arg(card + 1);
        c.q = pos.q;
        if (verified)
            c.p = pos.p;
        c.u = pos.u;
        c.threshold = pos.threshold;
        c.passed = pos.verdict == Verdict::Accepted;
        c.showTest = card < diceShown;
        if (c.showTest)
            c.state = c.passed ? CardContent::State::Accepted : CardContent::State::Rejected;
        else if (t.rejectedAt >= 0 && card > t.rejectedAt && t.rejectedAt < diceShown)
            c.state = CardContent::State::Discarded;
        return c;
    }
    // The (K+1)-th card: a placeholder for the extra target row, then the correction or the bonus.
    const bool decided = phaseIndex >= static_cast<int>(Phase::Residual);
    if (decided && t.rejectedAt >= 0) {
        c.glyph = m_vocabulary ? tokenGlyph(*m_vocabulary, t.correction) : QString::number(t.correction);
        c.caption = QCoreApplication::translate("CardStrip", "residual");
        c.state = CardContent::State::Residual;
        if (t.residual.size() > t.correction)
            c.r = t.residual[t.correction];
    } else if (decided) {
        c.glyph = m_vocabulary ? tokenGlyph(*m_vocabulary, t.bonus) : QString::number(t.bonus);
        c.caption = QCoreApplication::translate("CardStrip", "bonus");
        c.state = CardContent::State::Bonus;
        if (t.bonusDist.size() > t.bonus)
            c.p = t.bonusDist[t.bonus];
    } else {
        c.glyph = QStringLiteral("?");
        c.caption = QStringLiteral("K+1");
        c.state = CardContent::State::Placeholder;
    }
    return c;
}

QRectF CardStrip::cardRect(int card) const
{
    const int n = cardCount();
    const double available = width() - 2 * kMargin - kExtraGap - (n - 2) * kGap;
    const double w = std::clamp(available / std::max(1, n), 24.0, 150.0);
    const double total = n * w + (n - 2) * kGap + kExtraGap;
    const double left = std::max(kMargin, (width() - total) / 2);
    const int k = n - 1;
    const double x = card < k ? left + card * (w + kGap) : left + (k - 1) * (w + kGap) + w + kExtraGap;
    const double h = std::min(height() - 2 * kMargin, std::max(120.0, w * 1.5));
    return {x, (height() - h) / 2, w, h};
}

QSize CardStrip::sizeHint() const
{
    return {900, 250};
}

QSize CardStrip::minimumSizeHint() const
{
    return {320, 170};
}

void CardStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!m_record)
        return;
    const RoundTrace &t = m_record->trace;
    const int k = t.draftLength;
    for (int card = 0; card <= k; ++card) {
        if (!cardState(card).visible)
            continue;
        paintCard(painter, cardRect(card), contentOf(card), m_colors, font());
    }
    // The verify sweep: one band over all K + 1 positions, i.e. one forward pass of the target.
    if (m_phase == Phase::Verify && m_progress < 1.0) {
        const QRectF first = cardRect(0);
        const QRectF last = cardRect(k);
        QRectF band(first.left() - 6, first.top() - 6, (last.right() - first.left() + 12) * std::min(1.0, m_progress * 2),
                    first.height() + 12);
        QColor fill = m_colors.target;
        fill.setAlphaF(static_cast<float>(0.18 * (1.0 - std::max(0.0, m_progress - 0.5) * 2)));
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRoundedRect(band, 12, 12);
    }
    // The arrow from the rejected card to its replacement.
    if (t.rejectedAt >= 0 && static_cast<int>(m_phase) >= static_cast<int>(Phase::Residual)) {
        const QRectF from = cardRect(t.rejectedAt);
        const QRectF to = cardRect(k);
        const double y = from.bottom() + 8;
        QPen pen(m_colors.residual, 1.5, Qt::DashLine);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        QPainterPath path(QPointF(from.center().x(), from.bottom() + 2));
        path.cubicTo(QPointF(from.center().x(), y + 10), QPointF(to.center().x(), y + 10),
                     QPointF(to.center().x(), to.bottom() + 2));
        painter.drawPath(path);
    }
}

void CardStrip::mousePressEvent(QMouseEvent *event)
{
    for (int card = 0; card < cardCount(); ++card) {
        if (cardState(card).visible && cardRect(card).contains(event->position())) {
            setSelectedCard(card);
            emit cardClicked(card);
            return;
        }
    }
    QWidget::mousePressEvent(event);
}

void CardStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        m_colors = LabColors::from(palette());
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
