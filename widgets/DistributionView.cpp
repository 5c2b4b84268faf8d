// SPDX-License-Identifier: GPL-3.0-or-later
#include "DistributionView.h"

#include "FixedLabel.h"
#include "PlotStyle.h"
#include "TokenText.h"

#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <numeric>

namespace specdec::gui {

namespace {

constexpr int kTopTokens = 10;

QString num(double v)
{
    return QString::number(v, 'f', 3);
}

/// The tokens worth drawing: the most probable under any of the shown distributions, plus the marked one.
QVector<TokenId> topTokens(const std::vector<const Eigen::VectorXd *> &dists, TokenId marked)
{
    const Eigen::Index n = dists.front()->size();
    std::vector<TokenId> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    auto weight = [&](TokenId t) {
        double w = 0.0;
        for (const Eigen::VectorXd *d : dists)
            w = std::max(w, (*d)[t]);
        return w;
    };
    const auto keep = std::min<std::size_t>(kTopTokens, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                      [&](TokenId a, TokenId b) { return weight(a) > weight(b) || (weight(a) == weight(b) && a < b); });
    QVector<TokenId> top(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep));
    if (marked >= 0 && !top.contains(marked))
        top.back() = marked;
    return top;
}

QCPBars *makeBars(QCustomPlot *plot, const QString &name, double width)
{
    auto *bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(name);
    bars->setWidth(width);
    bars->setAntialiased(false);
    return bars;
}

} // namespace

DistributionView::DistributionView(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_numbers(new FixedLabel(3, this))
    , m_note(new QLabel(this))
    , m_colors(LabColors::from(palette()))
{
    m_overlapBars = makeBars(m_plot, QString(), 0.82);
    m_qBars = makeBars(m_plot, QString(), 0.26);
    m_pBars = makeBars(m_plot, QString(), 0.26);
    m_residualBars = makeBars(m_plot, QString(), 0.26);
    m_marker = new QCPItemText(m_plot);
    m_marker->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_marker->position->setType(QCPItemPosition::ptPlotCoords);
    m_marker->setVisible(false);
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_plot->setMinimumHeight(200);
    // Bars are axis-aligned: only text needs antialiasing, and a replot stays cheap.
    m_plot->setNotAntialiasedElements(QCP::aeAxes | QCP::aeGrid | QCP::aeSubGrid | QCP::aePlottables | QCP::aeFills
                                      | QCP::aeZeroLine | QCP::aeLegendItems);
    m_numbers->setRichText(true);
    m_note->setWordWrap(true);
    // Fixed heights: the plot keeps its size from card to card, so a replot never reallocates its buffers.
    m_note->setFixedHeight(QFontMetrics(font()).height() * 2 + 4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_numbers);
    layout->addWidget(m_note);
    applyStyle();
    clear();
}

void DistributionView::setSession(const SessionInfo &session)
{
    m_vocabulary = session.vocabulary;
    clear();
}

void DistributionView::clear()
{
    m_record.reset();
    m_card = -1;
    rebuild();
}

void DistributionView::showCard(std::shared_ptr<const RoundRecord> record, int card, Phase phase)
{
    m_record = std::move(record);
    m_card = card;
    m_phase = phase;
    rebuild();
}

void DistributionView::rebuild()
{
    m_labels.clear();
    m_tokens.clear();
    m_p.clear();
    m_q.clear();
    m_residual.clear();
    m_marker->setVisible(false);
    QString note; // QLabel::clear() relayouts even when already empty; setText() of the same text does not
    const bool valid = m_record && m_vocabulary && m_card >= 0 && m_card <= m_record->trace.draftLength;
    const Eigen::VectorXd *p = nullptr;
    const Eigen::VectorXd *q = nullptr;
    const Eigen::VectorXd *residual = nullptr;
    TokenId marked = -1;
    if (valid) {
        const RoundTrace &t = m_record->trace;
        const bool verified = m_phase != Phase::Draft;
        const bool decided = m_phase == Phase::Residual || m_phase == Phase::Bonus || m_phase == Phase::Commit;
        const int k = t.draftLength;
        if (m_card < k) {
            const DraftPosition &pos = t.positions[static_cast<std::size_t>(m_card)];
            q = &pos.qDist;
            p = verified ? &pos.pDist : nullptr;
            marked = pos.token;
            if (decided && m_card == t.rejectedAt)
                residual = &t.residual;
        } else if (t.rejectedAt >= 0 && decided) {
            const DraftPosition &pos = t.positions[static_cast<std::size_t>(t.rejectedAt)];
            q = &pos.qDist;
            p = &pos.pDist;
            residual = &t.residual;
            marked = t.correction;
        } else if (verified) {
            p = &t.bonusDist;
            marked = decided ? t.bonus : -1;
        }
    }
    std::vector<const Eigen::VectorXd *> shown;
    for (const Eigen::VectorXd *d : {p, q, residual})
        if (d && d->size() > 0)
            shown.push_back(d);
    if (valid && shown.empty())
        note = tr("Full distributions are kept for recent rounds only; the numbers above come from the trace.");
    m_note->setText(note);

    QVector<double> keys;
    QVector<double> overlap;
    const auto ticker = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    if (!shown.empty()) {
        m_tokens = topTokens(shown, marked);
        auto value = [](const Eigen::VectorXd *d, TokenId t) { return d && d->size() > 0 ? (*d)[t] : 0.0; };
        double pSum = 0, qSum = 0, rSum = 0;
        for (int i = 0; i < m_tokens.size(); ++i) {
            const TokenId tok = m_tokens[i];
            keys << i + 1;
            m_labels << tokenGlyph(*m_vocabulary, tok);
            m_p << value(p, tok);
            m_q << value(q, tok);
            m_residual << value(residual, tok);
            pSum += m_p.back();
            qSum += m_q.back();
            rSum += m_residual.back();
        }
        keys << m_tokens.size() + 1;
        m_labels << tr("others");
        m_p << (p ? std::max(0.0, 1.0 - pSum) : 0.0);
        m_q << (q ? std::max(0.0, 1.0 - qSum) : 0.0);
        m_residual << (residual ? std::max(0.0, 1.0 - rSum) : 0.0);
        for (int i = 0; i < keys.size(); ++i) {
            ticker->addTick(keys[i], m_labels[i]);
            overlap << ((p && q) ? std::min(m_p[i], m_q[i]) : 0.0);
        }
        const int markedIndex = static_cast<int>(m_tokens.indexOf(marked));
        if (markedIndex >= 0) {
            const double top = std::max({m_p[markedIndex], m_q[markedIndex], m_residual[markedIndex]});
            m_marker->position->setCoords(keys[markedIndex], top);
            m_marker->setText(QStringLiteral("x"));
            m_marker->setVisible(true);
        }
    }
    const bool withResidual = residual && residual->size() > 0;
    auto offset = [&](double d) {
        QVector<double> k = keys;
        for (double &x : k)
            x += d;
        return k;
    };
    const double spread = withResidual ? 0.27 : 0.15;
    auto setBars = [](QCPBars *bars, const QVector<double> &k, const QVector<double> &v, bool visible) {
        bars->setData(visible ? k : QVector<double>(), visible ? v : QVector<double>(), true);
    };
    setBars(m_qBars, offset(-spread), m_q, q != nullptr);
    setBars(m_pBars, withResidual ? keys : offset(spread), m_p, p != nullptr);
    setBars(m_residualBars, offset(spread), m_residual, withResidual);
    m_overlapBars->setData(keys, overlap, true);
    for (QCPBars *bars : {m_qBars, m_pBars, m_residualBars, m_overlapBars})
        bars->setVisible(!bars->data()->isEmpty());
    m_qBars->setName(tr("q: apprentice (draft)"));
    m_pBars->setName(tr("p: head chef (target)"));
    m_residualBars->setName(tr("residual norm(max(0, p − q))"));
    m_overlapBars->setName(tr("min(p, q): overlap"));
    for (QCPBars *bars : {m_qBars, m_pBars, m_residualBars, m_overlapBars})
        if (!bars->visible())
            bars->removeFromLegend();
        else
            bars->addToLegend();
    m_plot->xAxis->setRange(0.4, std::max<double>(2.0, keys.size() + 0.6));
    double top = 0.0;
    for (const QVector<double> *v : {&m_p, &m_q, &m_residual})
        for (double x : *v)
            top = std::max(top, x);
    m_plot->yAxis->setRange(0.0, std::max(0.1, top * 1.2));
    if (QCPTextElement *title = plotTitle(m_plot))
        title->setText(!valid ? tr("Click a card to see its distributions")
                       : m_card < m_record->trace.draftLength
                           ? tr("Card #%1 “%2”").arg(m_card + 1).arg(tokenGlyph(*m_vocabulary, marked))
                           : tr("Card K+1"));
    fillNumbers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void DistributionView::fillNumbers()
{
    if (!m_record || m_card < 0 || !m_vocabulary) {
        m_numbers->clear();
        return;
    }
    const RoundTrace &t = m_record->trace;
    const bool verified = m_phase != Phase::Draft;
    const bool tested = static_cast<int>(m_phase) > static_cast<int>(Phase::Dice) || m_phase == Phase::Dice;
    auto row = [](const QString &name, const QString &value, const QColor &color) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;<b>%3</b>&nbsp;&nbsp;&nbsp;&nbsp;")
            .arg(color.name(), name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    // Plain lines, not an HTML table: a table costs a full text layout on every update.
    QString html;
    if (m_card < t.draftLength) {
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(m_card)];
        html += row(tr("token x"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, pos.token)), m_colors.muted);
        html += row(QStringLiteral("q(x)"), num(pos.q), m_colors.draft);
        if (verified) {
            html += row(QStringLiteral("p(x)"), num(pos.p), m_colors.target);
            html += QStringLiteral("<br>");
            html += row(QStringLiteral("p/q"), num(pos.ratio), m_colors.muted);
            html += row(QStringLiteral("min(1, p/q)"), num(pos.threshold), m_colors.muted);
            if (tested && pos.u >= 0.0)
                html += row(QStringLiteral("u"), num(pos.u), m_colors.muted);
            html += QStringLiteral("<br>");
            html += row(QStringLiteral("β = Σ min(p, q)"), num(pos.overlap), m_colors.overlap);
            html += row(QStringLiteral("TV(p, q)"), num(pos.totalVariation), m_colors.muted);
        }
    } else if (t.rejectedAt >= 0 && static_cast<int>(m_phase) >= static_cast<int>(Phase::Residual)) {
        const double r = t.residual.size() > 0 ? t.residual[t.correction] : 0.0;
        html += row(tr("corrected token"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, t.correction)),
                    m_colors.residual);
        if (t.residual.size() > 0)
            html += row(tr("residual r(x)"), num(r), m_colors.residual);
        html += row(tr("replaces card"), QStringLiteral("#%1").arg(t.rejectedAt + 1), m_colors.muted);
    } else if (static_cast<int>(m_phase) >= static_cast<int>(Phase::Residual) && t.bonus >= 0) {
        html += row(tr("bonus token"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, t.bonus)), m_colors.bonus);
        if (t.bonusDist.size() > 0)
            html += row(QStringLiteral("p(x)"), num(t.bonusDist[t.bonus]), m_colors.target);
    } else {
        html += row(tr("position K+1"), tr("scored in the same target pass"), m_colors.muted);
    }
    m_numbers->setText(html);
}

QString DistributionView::numbersText() const
{
    return m_numbers->text();
}

void DistributionView::applyStyle()
{
    m_colors = LabColors::from(palette());
    stylePlot(m_plot, m_colors);
    auto fill = [&](QCPBars *bars, const QColor &color, double alpha) {
        QColor c = color;
        c.setAlphaF(static_cast<float>(alpha));
        bars->setBrush(c);
        bars->setPen(Qt::NoPen);
    };
    fill(m_qBars, m_colors.draft, 0.9);
    fill(m_pBars, m_colors.target, 0.9);
    fill(m_residualBars, m_colors.residual, 0.9);
    fill(m_overlapBars, m_colors.overlap, 0.22);
    QFont tickFont = m_plot->font();
    tickFont.setPointSizeF(tickFont.pointSizeF() * 1.3);
    m_plot->xAxis->setTickLabelFont(tickFont);
    m_plot->xAxis->setTickLabelColor(m_colors.text);
    m_marker->setColor(m_colors.text);
    QFont markerFont = m_plot->font();
    markerFont.setBold(true);
    markerFont.setItalic(true);
    m_marker->setFont(markerFont);
}

void DistributionView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
        rebuild();
    } else if (event->type() == QEvent::LanguageChange) {
        rebuild();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
