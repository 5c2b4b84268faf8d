// SPDX-License-Identifier: GPL-3.0-or-later
#include "DistributionView.h"

#include "FixedLabel.h"
#include "NumberText.h"
#include "PlotStyle.h"
#include "TokenText.h"
#include "TopTokens.h"

#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <numeric>

namespace specdec::gui {

namespace {

constexpr int kTopTokens = 10;
constexpr int kAxisPieceCharacters = 8; ///< longer pieces are cut with "…" under their bars

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
    m_plot->setMinimumHeight(160);
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
    m_frame = {};
    m_treeFrame = {};
    m_treeNode = -1;
    m_card = -1;
    rebuild();
}

void DistributionView::showTreeNode(std::shared_ptr<const RoundRecord> record, int node, Phase phase)
{
    m_record = std::move(record);
    m_card = -1;
    m_phase = phase;
    m_frame = {};
    m_treeNode = m_record && m_record->tree ? node : -1;
    m_treeFrame = m_treeNode != -1 ? treeFrameAt(*m_record->tree, phase) : TreeFrame{};
    rebuild();
}

DistributionFrame DistributionView::shownFrame() const
{
    if (!m_record || !m_vocabulary)
        return {};
    return m_treeNode != -1 ? m_treeFrame.distributions(m_treeNode) : m_frame.distributions(m_card);
}

void DistributionView::showCard(std::shared_ptr<const RoundRecord> record, int card, Phase phase,
                                const RevealOptions &options)
{
    m_record = std::move(record);
    m_card = card;
    m_treeNode = -1;
    m_treeFrame = {};
    m_phase = phase;
    m_frame = m_record ? frameOf(traceOf(m_record), m_record->trace.index, phase, RoundFrame::kAllSteps, options)
                       : RoundFrame{};
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
    const DistributionFrame shown = shownFrame();
    const bool tree = m_treeNode != -1;
    const bool valid = shown.valid;
    const Eigen::VectorXd *p = shown.p;
    const Eigen::VectorXd *q = shown.q;
    const Eigen::VectorXd *residual = shown.residual;
    const TokenId marked = shown.marked;
    if (valid && !p && !q && !residual && !m_frame.sweeping && !m_treeFrame.sweeping)
        note = tr("Full distributions are kept for recent rounds only; the numbers above come from the trace.");
    m_note->setText(note);

    QVector<double> keys;
    QVector<double> overlap;
    const auto ticker = m_plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    ticker->clear();
    if (p || q || residual) {
        const TopTokens projection = topTokens({p, q, residual}, kTopTokens, marked);
        for (std::size_t i = 0; i < projection.tokens.size(); ++i) {
            keys << static_cast<double>(i + 1);
            m_tokens << projection.tokens[i];
            // A long piece is cut on the axis (the caption and the table below hold it whole).
            m_labels << elidedPiece(tokenGlyph(*m_vocabulary, projection.tokens[i]), kAxisPieceCharacters);
        }
        // "others" is wider than a token: its bar stands apart so its label never runs into the last one.
        m_labels << tr("others");
        const QFontMetricsF metrics(m_plot->xAxis->tickLabelFont());
        const double width = std::max(100.0, m_plot->width() - 60.0); // the axis rect: the plot less the y axis
        const double gap = metrics.horizontalAdvance(m_labels.back()) / 2
            + metrics.horizontalAdvance(m_labels.size() > 1 ? m_labels[m_labels.size() - 2] : QString()) / 2 + 8;
        const double n = static_cast<double>(projection.tokens.size());
        const double step = width > gap ? std::max(1.0, gap * (n + 0.2) / (width - gap)) : 1.0;
        keys << n + std::min(step, 4.0);
        m_p = QVector<double>(projection.values[0].begin(), projection.values[0].end());
        m_q = QVector<double>(projection.values[1].begin(), projection.values[1].end());
        m_residual = QVector<double>(projection.values[2].begin(), projection.values[2].end());
        for (int i = 0; i < keys.size(); ++i) {
            ticker->addTick(keys[i], m_labels[i]);
            overlap << ((p && q) ? std::min(m_p[i], m_q[i]) : 0.0);
        }
        // Subword pieces ("␣which") are wider than a bar: their labels are turned so that none runs into the next.
        double widest = 0.0;
        for (int i = 0; i + 1 < m_labels.size(); ++i)
            widest = std::max(widest, metrics.horizontalAdvance(m_labels[i]));
        const double spacing = width / std::max(1.0, keys.back() + 0.5);
        m_plot->xAxis->setTickLabelRotation(widest + 4 > spacing ? -60.0 : 0.0);
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
    m_residualBars->setName(tree && m_treeNode == TreeFrame::kOutcome ? tr("last p′: the correction is drawn from it")
                                : tree                                ? tr("p′: what the child was tested against")
                                                                      : tr("residual norm(max(0, p − q))"));
    m_overlapBars->setName(tr("min(p, q): overlap"));
    for (QCPBars *bars : {m_qBars, m_pBars, m_residualBars, m_overlapBars})
        if (!bars->visible())
            bars->removeFromLegend();
        else
            bars->addToLegend();
    m_plot->xAxis->setRange(0.4, std::max<double>(2.0, (keys.isEmpty() ? 0.0 : keys.back()) + 0.6));
    double top = 0.0;
    for (const QVector<double> *v : {&m_p, &m_q, &m_residual})
        for (double x : *v)
            top = std::max(top, x);
    m_plot->yAxis->setRange(0.0, std::max(0.1, top * 1.2));
    if (QCPTextElement *title = plotTitle(m_plot)) {
        QString text = tr("Click a card to see its distributions");
        if (tree && valid && m_treeNode == TreeFrame::kOutcome)
            text = m_record->tree->stoppedAtDepth >= 0
                ? tr("Correction “%1” from the last p′").arg(tokenGlyph(*m_vocabulary, marked))
                : tr("Bonus “%1” from p after the accepted leaf").arg(tokenGlyph(*m_vocabulary, marked));
        else if (tree && valid) {
            const TreeNode &n = m_record->tree->nodes[static_cast<std::size_t>(m_treeNode)];
            text = tr("Node “%1”: depth %2, child %3").arg(tokenGlyph(*m_vocabulary, marked)).arg(n.depth).arg(n.sibling + 1);
        } else if (tree)
            text = tr("Click a node of the tree to see its distributions");
        else if (valid && m_card < m_record->trace.draftLength)
            text = tr("Card #%1 “%2”").arg(m_card + 1).arg(tokenGlyph(*m_vocabulary, marked));
        else if (valid && m_frame.cards.back().state == CardFrame::State::Residual)
            text = tr("Correction “%1” from the residual").arg(tokenGlyph(*m_vocabulary, marked));
        else if (valid && m_frame.cards.back().state == CardFrame::State::Bonus)
            text = tr("Bonus “%1” from p at position K+1").arg(tokenGlyph(*m_vocabulary, marked));
        else if (valid)
            text = tr("p at position K+1 (scored in the same pass)");
        // The round it belongs to: at full speed the cards run ahead of this panel, which follows in turns.
        if (valid && !tree)
            text = tr("Round %1 · %2").arg(m_record->trace.index + 1).arg(text);
        title->setText(text);
    }
    fillNumbers();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void DistributionView::fillTreeNumbers()
{
    const TreeTrace &t = *m_record->tree;
    auto row = [](const QString &name, const QString &value, const QColor &color) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;<b>%3</b>&nbsp;&nbsp;&nbsp;&nbsp;")
            .arg(color.name(), name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    const auto num = [](double v) { return probabilityText(v); };
    QString html;
    if (m_treeNode == TreeFrame::kOutcome) {
        const bool correction = t.stoppedAtDepth >= 0;
        html += row(correction ? tr("corrected token") : tr("bonus token"),
                    QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, correction ? t.correction : t.bonus)),
                    correction ? m_colors.residual : m_colors.bonus);
        if (correction)
            html += row(tr("all children rejected at depth"), QString::number(t.stoppedAtDepth), m_colors.muted);
        m_numbers->setText(html);
        return;
    }
    const TreeNode &n = t.nodes[static_cast<std::size_t>(m_treeNode)];
    const TreeNodeFrame &f = m_treeFrame.nodes[static_cast<std::size_t>(m_treeNode)];
    html += row(tr("token x"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, n.token)), m_colors.muted);
    if (f.q)
        html += row(QStringLiteral("q(x)"), num(*f.q), m_colors.draft);
    if (f.p)
        html += row(QStringLiteral("p(x)"), num(*f.p), m_colors.target);
    if (f.pUsed) {
        html += QStringLiteral("<br>");
        html += row(QStringLiteral("p′(x)"), num(*f.pUsed), m_colors.residual);
        const DieTexts die = f.u ? dieTexts(*f.u, *f.threshold) : DieTexts{num(*f.threshold), {}};
        html += row(QStringLiteral("min(1, p′/q)"), die.threshold, m_colors.muted);
        if (f.u)
            html += row(QStringLiteral("u"), die.u, m_colors.muted);
    }
    m_numbers->setText(html);
}

void DistributionView::fillNumbers()
{
    if (m_treeNode != -1) {
        if (m_record && m_vocabulary && shownFrame().valid)
            fillTreeNumbers();
        else
            m_numbers->clear();
        return;
    }
    if (!m_record || m_card < 0 || !m_vocabulary || !m_frame.distributions(m_card).valid) {
        m_numbers->clear();
        return;
    }
    const RoundTrace &t = m_record->trace;
    const CardFrame &c = m_frame.cards[static_cast<std::size_t>(m_card)];
    auto row = [](const QString &name, const QString &value, const QColor &color) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;<b>%3</b>&nbsp;&nbsp;&nbsp;&nbsp;")
            .arg(color.name(), name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    const auto num = [](double v) { return probabilityText(v); };
    // Plain lines, not an HTML table: a table costs a full text layout on every update.
    QString html;
    if (m_card < t.draftLength) {
        const DraftPosition &pos = t.positions[static_cast<std::size_t>(m_card)];
        html += row(tr("token x"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, pos.token)), m_colors.muted);
        html += row(QStringLiteral("q(x)"), num(pos.q), m_colors.draft);
        if (c.p) {
            html += row(QStringLiteral("p(x)"), num(pos.p), m_colors.target);
            html += QStringLiteral("<br>");
            html += row(QStringLiteral("p/q"), num(pos.ratio), m_colors.muted);
            const bool rolled = c.u && c.passed;
            const DieTexts die = rolled ? dieTexts(*c.u, pos.threshold) : DieTexts{num(pos.threshold), {}};
            html += row(QStringLiteral("min(1, p/q)"), die.threshold, m_colors.muted);
            if (rolled)
                html += row(QStringLiteral("u"), die.u, m_colors.muted);
            html += QStringLiteral("<br>");
            html += row(QStringLiteral("β = Σ min(p, q)"), num(pos.overlap), m_colors.overlap);
            html += row(QStringLiteral("TV(p, q)"), num(pos.totalVariation), m_colors.muted);
        }
    } else if (c.state == CardFrame::State::Residual) {
        html += row(tr("corrected token"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, t.correction)),
                    m_colors.residual);
        if (c.r)
            html += row(tr("residual r(x)"), num(*c.r), m_colors.residual);
        html += row(tr("replaces card"), QStringLiteral("#%1").arg(t.rejectedAt + 1), m_colors.muted);
    } else if (c.state == CardFrame::State::Bonus) {
        html += row(tr("bonus token"), QStringLiteral("“%1”").arg(tokenGlyph(*m_vocabulary, t.bonus)), m_colors.bonus);
        if (c.p)
            html += row(QStringLiteral("p(x)"), num(*c.p), m_colors.target);
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

void DistributionView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (!m_labels.isEmpty())
        rebuild(); // the gap before "others" depends on the width
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
