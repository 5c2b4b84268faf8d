// SPDX-License-Identifier: GPL-3.0-or-later
#include "CacheStrip.h"

#include "LabColors.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace specdec::gui {

namespace {

constexpr int kCell = 9;   // cell width and height, px
constexpr int kGap = 2;    // between cells
constexpr int kRowGap = 6; // between the two rows

} // namespace

CacheStrip::CacheStrip(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void CacheStrip::setFrame(const RoundFrame &frame)
{
    m_target = frame.targetCache;
    m_draft = frame.draftCache;
    setToolTip(m_target.valid ? rowText(Model::Target) + QLatin1Char('\n') + rowText(Model::Draft) : QString());
    update();
}

void CacheStrip::clear()
{
    setFrame(RoundFrame{});
}

QString CacheStrip::rowText(Model model) const
{
    const CacheFrame &c = shown(model);
    const QString who = model == Model::Target ? tr("target cache") : tr("draft cache");
    if (!c.valid)
        return who;
    QString text = c.peak > c.before ? tr("%1: %2 → %3").arg(who).arg(c.before).arg(c.peak)
                                     : tr("%1: %2").arg(who).arg(c.before);
    if (c.rolledBack)
        text += tr(" → %1 (%2 discarded)").arg(c.length).arg(c.discarded);
    if (c.refills > 0)
        text += tr(", %n window refill(s)", nullptr, c.refills);
    return text;
}

QSize CacheStrip::sizeHint() const
{
    const int line = std::max(kCell, fontMetrics().height());
    return {600, 2 * line + kRowGap + 4};
}

QSize CacheStrip::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

void CacheStrip::paintEvent(QPaintEvent *)
{
    if (!m_target.valid)
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, false);
    const LabColors colors = LabColors::from(palette());
    const QFontMetrics fm = fontMetrics();
    const int line = std::max(kCell, fm.height());
    // The texts take the right part; the cells fill what is left, newest on the right (older positions scroll
    // out to the left: the strip shows the end of the cache, where a round changes it).
    int textWidth = 0;
    for (Model m : {Model::Target, Model::Draft})
        textWidth = std::max(textWidth, fm.horizontalAdvance(rowText(m)));
    textWidth = std::min(textWidth + 12, width() / 2);
    const int cellsWidth = width() - textWidth - 8;
    const int fit = std::max(1, cellsWidth / (kCell + kGap));
    int y = 2;
    for (Model m : {Model::Target, Model::Draft}) {
        const CacheFrame &c = shown(m);
        const QColor fresh = m == Model::Target ? colors.target : colors.draft;
        const int end = std::max(c.length, c.peak); // cells drawn: kept, new, and the discarded ones
        const int first = std::max(0, end - fit);
        const int top = y + (line - kCell) / 2;
        for (int i = first; i < end; ++i) {
            const QRect cell(4 + (i - first) * (kCell + kGap), top, kCell, kCell);
            if (i >= c.length) { // discarded by the rollback: outlined and crossed out
                painter.setPen(QPen(colors.rejected, 1));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(cell.adjusted(0, 0, -1, -1));
                painter.drawLine(cell.topLeft(), cell.bottomRight());
                painter.drawLine(cell.topRight(), cell.bottomLeft());
                continue;
            }
            painter.setPen(Qt::NoPen);
            painter.setBrush(i < c.before ? colors.tint(colors.muted, 0.55) : fresh);
            painter.drawRect(cell);
        }
        painter.setPen(colors.text);
        painter.drawText(QRect(width() - textWidth, y, textWidth, line), Qt::AlignLeft | Qt::AlignVCenter,
                         fm.elidedText(rowText(m), Qt::ElideRight, textWidth));
        y += line + kRowGap;
    }
}

void CacheStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange
        || event->type() == QEvent::FontChange) {
        setToolTip(m_target.valid ? rowText(Model::Target) + QLatin1Char('\n') + rowText(Model::Draft) : QString());
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
