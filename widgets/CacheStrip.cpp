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
    setToolTip(m_target.valid ? rowText(Model::Target) + QLatin1Char('\n') + rowText(Model::Draft) + QLatin1Char('\n')
                       + tr("The numbers count tokens of text in each model's state: the prompt, the "
                            "committed tokens and the drafts being checked. A model attends to at most its "
                            "context of them (the last positions); past it, it refills its window.")
                              : QString());
    update();
}

void CacheStrip::clear()
{
    setFrame(RoundFrame{});
}

QString CacheStrip::rowText(Model model, bool compact) const
{
    const CacheFrame &c = shown(model);
    // What is counted: tokens of text held by the state (not positions of the model's context window).
    const QString who = model == Model::Target ? (compact ? tr("target") : tr("target cache, tokens"))
                                               : (compact ? tr("draft") : tr("draft cache, tokens"));
    if (!c.valid)
        return who;
    QString text = c.peak > c.before ? tr("%1: %2 → %3").arg(who).arg(c.before).arg(c.peak)
                                     : tr("%1: %2").arg(who).arg(c.before);
    if (c.rolledBack)
        text += compact ? tr(" → %1 (−%2)").arg(c.length).arg(c.discarded)
                        : tr(" → %1 (%2 discarded)").arg(c.length).arg(c.discarded);
    if (c.refills > 0)
        text += compact ? tr(", %n refill(s)", nullptr, c.refills) : tr(", %n window refill(s)", nullptr, c.refills);
    return text;
}

CacheStrip::RowText CacheStrip::drawnRow(Model model) const
{
    // The texts take the right part, at most all but kMinCells of the width; the long form when both rows fit
    // there, else the short form, else the short form in a smaller font (down to kFloorPt).
    constexpr int kMinCells = 80;
    constexpr qreal kFloorPt = 6.5;
    const int room = std::max(0, width() - kMinCells) - 12;
    QFont font = this->font();
    bool compact = false;
    auto widest = [&](const QFont &f, bool shortForm) {
        const QFontMetrics fm(f);
        int w = 0;
        for (Model m : {Model::Target, Model::Draft})
            w = std::max(w, fm.horizontalAdvance(rowText(m, shortForm)));
        return w;
    };
    int textWidth = widest(font, false);
    if (textWidth > room) {
        compact = true;
        textWidth = widest(font, true);
        while (textWidth > room && font.pointSizeF() - 0.5 >= kFloorPt) {
            font.setPointSizeF(font.pointSizeF() - 0.5);
            textWidth = widest(font, true);
        }
    }
    textWidth += 12;
    const int line = std::max(kCell, fontMetrics().height());
    const int y = 2 + (model == Model::Target ? 0 : line + kRowGap);
    return {rowText(model, compact), font, QRect(width() - textWidth, y, textWidth, line)};
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
    const int textWidth = drawnRow(Model::Target).rect.width();
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
        const RowText row = drawnRow(m);
        painter.setPen(colors.text);
        painter.setFont(row.font);
        painter.drawText(row.rect, Qt::AlignLeft | Qt::AlignVCenter, row.text);
        y += line + kRowGap;
    }
}

void CacheStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange
        || event->type() == QEvent::FontChange) {
        setToolTip(m_target.valid ? rowText(Model::Target) + QLatin1Char('\n') + rowText(Model::Draft) + QLatin1Char('\n')
                           + tr("The numbers count tokens of text in each model's state: the prompt, the "
                                "committed tokens and the drafts being checked. A model attends to at most its "
                                "context of them (the last positions); past it, it refills its window.")
                                  : QString());
        updateGeometry();
        update();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
