// SPDX-License-Identifier: GPL-3.0-or-later
#include "CardStrip.h"

#include "TokenText.h"

#include <QCoreApplication>
#include <QEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QVariantAnimation>

#include <cmath>

namespace specdec::gui {

namespace {
constexpr double kGap = 12.0;
constexpr double kExtraGap = 36.0;
constexpr double kMargin = 16.0;
constexpr double kMinCardWidth = 44.0; ///< narrower cards would be pills without legible text: the strip scrolls
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

void CardStrip::setVocabulary(std::shared_ptr<const Tokenizer> vocabulary)
{
    m_vocabulary = std::move(vocabulary);
}

void CardStrip::setRound(std::shared_ptr<const RoundRecord> record, Phase phase, bool animate, int step)
{
    const int cardsBefore = cardCount();
    m_record = std::move(record);
    if (cardCount() != cardsBefore)
        updateGeometry(); // the minimum width follows K
    m_phase = phase;
    m_step = step;
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

void CardStrip::setRevealOptions(const RevealOptions &options)
{
    m_options = options;
    update();
}

int CardStrip::step() const
{
    if (!m_record)
        return 1;
    if (m_step != RoundFrame::kAllSteps)
        return m_step;
    const int count = stepsOf(m_record->trace, m_phase, m_options);
    return m_progress >= 1.0 ? RoundFrame::kAllSteps : static_cast<int>(std::ceil(m_progress * count - 1e-9));
}

int CardStrip::rollingCard() const
{
    // Predicting, step 2i reveals test i's verdict: while it animates, u travels along the bar first.
    if (!m_record || !m_options.predictBeforeReveal || m_phase != Phase::Dice || m_step == RoundFrame::kAllSteps
        || m_step % 2 != 0 || m_progress >= 1.0 || m_record->trace.greedy)
        return -1;
    return m_step / 2 - 1;
}

RoundFrame CardStrip::frame() const
{
    if (!m_record)
        return {};
    const RoundTrace &t = m_record->trace;
    const int rolling = rollingCard();
    if (rolling < 0 || rolling >= t.draftLength)
        return frameOf(traceOf(m_record), t.index, m_phase, step(), m_options);
    // The test as the room saw it, with the die on its way to u (eased out); the verdict comes when it stops.
    RoundFrame f = frameOf(traceOf(m_record), t.index, m_phase, m_step - 1, m_options);
    const double u = t.positions[static_cast<std::size_t>(rolling)].u;
    if (u >= 0.0)
        f.cards[static_cast<std::size_t>(rolling)].u = u * (1.0 - std::pow(1.0 - m_progress, 3.0));
    return f;
}

RoundFrame CardStrip::targetFrame() const
{
    if (!m_record)
        return {};
    return frameOf(traceOf(m_record), m_record->trace.index, m_phase, m_step, m_options);
}

CardStrip::CardState CardStrip::cardState(int card) const
{
    CardState s;
    if (!m_record || card < 0 || card >= cardCount())
        return s;
    const RoundFrame f = frame();
    // At the very start of the draft animation no card is out yet.
    const bool started = !(m_phase == Phase::Draft && m_progress <= 0.0);
    const CardFrame &c = f.cards[static_cast<std::size_t>(card)];
    s.visible = c.visible && started;
    s.showsQ = s.visible && c.q.has_value();
    s.showsP = s.visible && c.p.has_value();
    s.showsTest = s.visible && c.testShown;
    s.state = c.state;
    return s;
}

int CardStrip::currentCard() const
{
    return m_record ? targetFrame().currentCard : -1;
}

CardContent CardStrip::contentOf(int card) const
{
    CardContent c;
    if (!m_record || card < 0 || card >= cardCount())
        return c;
    const RoundTrace &t = m_record->trace;
    const RoundFrame f = frame();
    c.frame = f.cards[static_cast<std::size_t>(card)];
    c.selected = card == m_selected;
    c.greedy = t.greedy;
    auto glyph = [&](TokenId id) {
        return id < 0 ? QStringLiteral("?") : m_vocabulary ? tokenGlyph(*m_vocabulary, id) : QString::number(id);
    };
    c.glyph = glyph(c.frame.token);
    if (m_vocabulary && c.frame.token >= 0)
        c.look = tokenLook(*m_vocabulary, c.frame.token).kind;
    if (card < t.draftLength)
        c.caption = QStringLiteral("#%1").arg(card + 1);
    else if (c.frame.state == CardContent::State::Residual)
        c.caption = QCoreApplication::translate("CardStrip", "residual");
    else if (c.frame.state == CardContent::State::Bonus)
        c.caption = QCoreApplication::translate("CardStrip", "bonus");
    else
        c.caption = QStringLiteral("K+1");
    return c;
}

QRectF CardStrip::cardRect(int card) const
{
    const int n = cardCount();
    const double available = width() - 2 * kMargin - kExtraGap - (n - 2) * kGap;
    // At most kCardBaseWidth wide, or up to kMaxCardTextScale times that where the strip is tall enough for the
    // taller card (its texts grow with it, CardPainter.h): a projector's stage, a short transcript.
    const double room = (height() - 2 * kMargin) / 1.5;
    const double widest = std::clamp(room, kCardBaseWidth, kCardBaseWidth * kMaxCardTextScale);
    const double w = std::clamp(available / std::max(1, n), kMinCardWidth, widest);
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
    // Every card at least kMinCardWidth wide: a long draft (K = 30) is wider than the window, and the round
    // view's scroll area scrolls it instead of squeezing cards off the strip.
    const int n = std::max(cardCount(), 2);
    const double cards = 2 * kMargin + kExtraGap + (n - 2) * kGap + n * kMinCardWidth;
    return {std::max(320, static_cast<int>(std::ceil(cards))), 170};
}

void CardStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!m_record)
        return;
    const RoundTrace &t = m_record->trace;
    const int k = t.draftLength;
    const RoundFrame f = frame();
    for (int card = 0; card <= k; ++card) {
        if (!cardState(card).visible)
            continue;
        paintCard(painter, cardRect(card), contentOf(card), m_colors, font());
    }
    // The verify sweep: one band over all K + 1 positions, i.e. one forward pass of the target.
    if (f.sweeping || (m_phase == Phase::Verify && m_progress < 1.0)) {
        const QRectF first = cardRect(0);
        const QRectF last = cardRect(k);
        QRectF band(first.left() - 6, first.top() - 6,
                    (last.right() - first.left() + 12) * std::min(1.0, m_progress * 2), first.height() + 12);
        QColor fill = m_colors.target;
        fill.setAlphaF(static_cast<float>(0.18 * (1.0 - std::max(0.0, m_progress - 0.5) * 2)));
        painter.setPen(Qt::NoPen);
        painter.setBrush(fill);
        painter.drawRoundedRect(band, 12, 12);
    }
    // The arrow from the rejected card to its replacement.
    if (f.cards.back().state == CardContent::State::Residual) {
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

QString CardStrip::toolTipOf(int card) const
{
    if (!m_vocabulary || card < 0 || card >= cardCount() || !cardState(card).visible)
        return {};
    const TokenId token = frame().cards[static_cast<std::size_t>(card)].token;
    return token < 0 ? QString() : tokenLook(*m_vocabulary, token).toolTip;
}

bool CardStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        for (int card = 0; card < cardCount(); ++card) {
            if (cardRect(card).contains(help->pos())) {
                if (const QString tip = toolTipOf(card); !tip.isEmpty()) {
                    QToolTip::showText(help->globalPos(), tip, this, cardRect(card).toAlignedRect());
                    return true;
                }
            }
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
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
