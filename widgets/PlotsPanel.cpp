// SPDX-License-Identifier: GPL-3.0-or-later
#include "PlotsPanel.h"

#include "PlotStyle.h"

#include <QEvent>
#include <QGridLayout>

#include <qcustomplot.h>

#include <cmath>

namespace specdec::gui {

namespace {
constexpr int kSeriesGraphs = static_cast<int>(PlotsPanel::Series::PositionAcceptance);
// Which plot each graph series lives on.
constexpr int kPlotOf[kSeriesGraphs] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 1};
} // namespace

PlotsPanel::PlotsPanel(QWidget *parent)
    : QWidget(parent)
    , m_colors(LabColors::from(palette()))
{
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(6);
    for (int i = 0; i < 4; ++i) {
        auto *plot = new QCustomPlot(this);
        plot->setMinimumSize(160, 140);
        plotTitle(plot);
        legendBelow(plot);
        plot->setNoAntialiasingOnDrag(true);
        plot->setNotAntialiasedElements(QCP::aeAxes | QCP::aeGrid | QCP::aeSubGrid | QCP::aeZeroLine);
        m_plots[static_cast<std::size_t>(i)] = plot;
        layout->addWidget(plot, i / m_columns, i % m_columns);
        if (i < 3) {
            auto *cursor = new QCPItemStraightLine(plot);
            cursor->setVisible(false);
            m_cursors[static_cast<std::size_t>(i)] = cursor;
        }
    }
    for (int s = 0; s < kSeriesGraphs; ++s) {
        QCustomPlot *plot = m_plots[static_cast<std::size_t>(kPlotOf[s])];
        m_graphs.push_back(plot->addGraph());
        // Per-round values are dots (a bucket keeps its extremes); the rest are lines through exact values.
        const auto series = static_cast<Series>(s);
        const bool dots = series == Series::AcceptancePerRound || series == Series::TokensPerRound
            || series == Series::DraftLength;
        m_series.emplace_back(dots ? DecimatedSeries::Mode::MinMax : DecimatedSeries::Mode::Last);
    }
    graph(Series::DraftLength)->setVisible(false); // until a policy makes K vary
    graph(Series::DraftLength)->removeFromLegend();
    m_positionBars = new QCPBars(m_plots[3]->xAxis, m_plots[3]->yAxis);
    m_positionBars->setWidth(0.6);
    m_positionAlpha = m_plots[3]->addGraph();
    m_plots[0]->yAxis->setRange(0, 1.05);
    m_plots[3]->yAxis->setRange(0, 1.05);
    // Rounds and draft positions are whole numbers: ticks at 1, 2, 3 … or multiples of them (never round 2.5).
    auto wholeNumbers = QSharedPointer<QCPAxisTickerFixed>::create();
    wholeNumbers->setTickStep(1.0);
    wholeNumbers->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    for (QCustomPlot *plot : m_plots)
        plot->xAxis->setTicker(wholeNumbers);
    applyStyle();
    retranslate();
    clear();
}

QCPGraph *PlotsPanel::graph(Series series) const
{
    return m_graphs[static_cast<std::size_t>(series)];
}

void PlotsPanel::clear()
{
    for (QCPGraph *g : m_graphs)
        g->data()->clear();
    for (DecimatedSeries &series : m_series)
        series.clear();
    m_positionBars->data()->clear();
    m_positionAlpha->data()->clear();
    for (QCPItemStraightLine *c : m_cursors)
        c->setVisible(false);
    graph(Series::DraftLength)->setVisible(false);
    graph(Series::DraftLength)->removeFromLegend();
    m_rounds = 0;
    m_many = true; // appendRounds switches back to the smooth style
    m_maxK = 1;
    m_firstK = -1;
    m_kVaries = false;
    m_maxTokens = 1.0;
    m_maxSpeedup = 1.0;
    rescale();
    replotAll();
}

void PlotsPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // A 2×2 grid in the bottom dock of a 1600×1000 window left each plot ~45 px of axis: there, one row of four.
    const double aspect = static_cast<double>(width()) / std::max(1, height());
    arrange(aspect >= 2.6 ? 4 : aspect <= 0.55 ? 1 : 2);
}

void PlotsPanel::arrange(int columns)
{
    if (columns == m_columns)
        return;
    m_columns = columns;
    auto *grid = static_cast<QGridLayout *>(layout());
    for (QCustomPlot *plot : m_plots)
        grid->removeWidget(plot);
    for (int i = 0; i < 4; ++i)
        grid->addWidget(m_plots[static_cast<std::size_t>(i)], i / columns, i % columns);
    for (int i = 0; i < 4; ++i) { // stretch only where plots are (a row or column left empty takes nothing)
        grid->setRowStretch(i, i < (4 + columns - 1) / columns ? 1 : 0);
        grid->setColumnStretch(i, i < columns ? 1 : 0);
    }
}

void PlotsPanel::appendRounds(const RoundHistory &history, int count)
{
    const int end = count < 0 ? history.size() : std::min(count, history.size());
    if (end < m_rounds) {
        clear();
    }
    if (end == m_rounds)
        return;
    auto add = [this](Series s, double x, double value) { m_series[static_cast<std::size_t>(s)].add(x, value); };
    for (int i = std::max(m_rounds, history.first()); i < end; ++i) { // (rounds no longer kept: not replotted)
        const RoundRecord &r = history.at(i);
        const RunMetrics &c = r.cumulative;
        const double x = i + 1;
        add(Series::AcceptancePerRound, x, r.round.acceptanceRate);
        add(Series::AcceptanceCumulative, x, c.acceptanceRate);
        add(Series::MeanOverlap, x, c.meanOverlap);
        add(Series::TokensPerRound, x, r.round.tokensPerRound);
        add(Series::TokensPerRoundCumulative, x, c.tokensPerRound);
        add(Series::ExpectedTokens, x, c.expectedTokensPerRound);
        add(Series::SpeedupPasses, x, c.speedupForwardPasses);
        add(Series::SpeedupCostModel, x, c.speedupCostModel);
        if (c.speedupWallClock)
            add(Series::SpeedupWallClock, x, *c.speedupWallClock);
        add(Series::DraftLength, x, r.trace.draftLength);
        if (m_firstK < 0)
            m_firstK = r.trace.draftLength;
        m_kVaries = m_kVaries || r.trace.draftLength != m_firstK;
        m_maxK = std::max(m_maxK, r.trace.draftLength);
        m_maxTokens = std::max({m_maxTokens, r.round.tokensPerRound, c.expectedTokensPerRound});
        m_maxSpeedup = std::max({m_maxSpeedup, c.speedupForwardPasses,
                                 std::isfinite(c.speedupCostModel) ? c.speedupCostModel : 0.0, // NaN: c not measured
                                 c.speedupWallClock.value_or(0.0)});
    }
    m_rounds = std::max(m_rounds, end);
    showSeries();
    // K over rounds only says something when a policy makes it vary.
    const bool varies = m_kVaries;
    graph(Series::DraftLength)->setVisible(varies);
    if (plot(1)->legend->hasItemWithPlottable(graph(Series::DraftLength)) != varies) {
        if (varies)
            graph(Series::DraftLength)->addToLegend();
        else
            graph(Series::DraftLength)->removeFromLegend();
    }
    // Many points: no antialiasing, and dots instead of discs, so a frame stays cheap.
    const bool many = m_rounds >= 200;
    if (many != m_many) {
        m_many = many;
        for (QCPGraph *g : m_graphs) {
            g->setAntialiased(!many);
            g->setAntialiasedScatters(!many);
            // Thin cosmetic pens take the rasterizer's fast path for long polylines.
            QPen pen = g->pen();
            if (pen.style() == Qt::SolidLine) {
                pen.setWidthF(many ? 1.0 : 2.2);
                pen.setCosmetic(many);
                g->setPen(pen);
            }
        }
        for (Series s : {Series::AcceptancePerRound, Series::TokensPerRound}) {
            QCPScatterStyle style = graph(s)->scatterStyle();
            style.setShape(many ? QCPScatterStyle::ssDot : QCPScatterStyle::ssPixmap);
            graph(s)->setScatterStyle(style);
        }
    }
    rescale();
    replotAll();
}

void PlotsPanel::showSeries()
{
    for (std::size_t s = 0; s < m_series.size(); ++s) {
        const std::vector<DecimatedSeries::Point> points = m_series[s].points();
        QVector<QCPGraphData> shown;
        shown.reserve(static_cast<qsizetype>(points.size()));
        for (const DecimatedSeries::Point &p : points)
            shown.append(QCPGraphData(p.key, p.value));
        m_graphs[s]->data()->set(shown, true);
    }
}

int PlotsPanel::pointsHeld() const
{
    int n = m_positionBars->data()->size() + m_positionAlpha->data()->size();
    for (const QCPGraph *g : m_graphs)
        n += g->data()->size();
    return n;
}

void PlotsPanel::setCurrentRound(const RoundHistory &history, int round, int revealed)
{
    const bool valid = round >= 0 && round < history.size();
    for (QCPItemStraightLine *c : m_cursors) {
        c->point1->setCoords(round + 1, 0);
        c->point2->setCoords(round + 1, 1);
        c->setVisible(valid);
    }
    if (revealed < 0)
        revealed = valid ? round + 1 : 0;
    revealed = std::min(revealed, history.size());
    const RunMetrics m = history.contains(revealed - 1) ? history.at(revealed - 1).cumulative : RunMetrics{};
    QVector<double> keys, values;
    for (std::size_t i = 0; i < m.perPositionAcceptance.size(); ++i) {
        if (std::isnan(m.perPositionAcceptance[i]))
            continue;
        keys << static_cast<double>(i + 1);
        values << m.perPositionAcceptance[i];
    }
    m_positionBars->setData(keys, values, true);
    const double k = static_cast<double>(m.perPositionAcceptance.size());
    m_positionAlpha->setData({0.5, k + 0.5}, {m.acceptanceRate, m.acceptanceRate}, true);
    m_plots[3]->xAxis->setRange(0.4, std::max(1.0, k) + 0.6);
    replotAll();
}

int PlotsPanel::cursorRound() const
{
    const QCPItemStraightLine *c = m_cursors[0];
    return c->visible() ? static_cast<int>(std::lround(c->point1->coords().x())) - 1 : -1;
}

QVector<double> PlotsPanel::values(Series series) const
{
    QVector<double> out;
    if (series == Series::PositionAcceptance) {
        for (auto it = m_positionBars->data()->constBegin(); it != m_positionBars->data()->constEnd(); ++it)
            out << it->value;
        return out;
    }
    const auto points = graph(series)->data();
    for (auto it = points->constBegin(); it != points->constEnd(); ++it)
        out << it->value;
    return out;
}

void PlotsPanel::rescale()
{
    const double right = std::max(10, m_rounds) + 0.5;
    for (int i = 0; i < 3; ++i)
        m_plots[static_cast<std::size_t>(i)]->xAxis->setRange(0.5, right);
    m_plots[1]->yAxis->setRange(0, std::max(m_maxK + 1.0, m_maxTokens) + 0.3);
    m_plots[2]->yAxis->setRange(0, std::ceil(m_maxSpeedup * 1.15 + 0.1));
}

void PlotsPanel::replotAll()
{
    m_stale.fill(true);
    if (m_deferred)
        return;
    for (std::size_t i = 0; i < m_plots.size(); ++i) {
        m_stale[i] = false;
        m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PlotsPanel::setDeferredReplot(bool deferred)
{
    if (deferred == m_deferred)
        return;
    m_deferred = deferred;
    if (!deferred)
        while (replotNext()) { }
}

bool PlotsPanel::replotNext()
{
    for (std::size_t n = 0; n < m_plots.size(); ++n) {
        const auto i = static_cast<std::size_t>(m_nextReplot);
        m_nextReplot = (m_nextReplot + 1) % static_cast<int>(m_plots.size());
        if (m_stale[i]) {
            m_stale[i] = false;
            m_plots[i]->replot(QCustomPlot::rpQueuedReplot);
            return true;
        }
    }
    return false;
}

void PlotsPanel::applyStyle()
{
    m_colors = LabColors::from(palette());
    for (QCustomPlot *p : m_plots)
        stylePlot(p, m_colors);
    auto line = [](QCPGraph *g, const QColor &color, Qt::PenStyle style = Qt::SolidLine, double width = 2.2) {
        QPen pen(color, width, style);
        // Dashed (theory and prediction) lines are thin cosmetic pens: the rasterizer strokes those on its fast
        // path, while a wide antialiased dashed stroke cost more than everything else in a frame.
        if (style != Qt::SolidLine) {
            pen.setWidthF(1.0);
            pen.setCosmetic(true);
        }
        g->setPen(pen);
        g->setLineStyle(QCPGraph::lsLine);
        g->setScatterStyle(QCPScatterStyle::ssNone);
    };
    auto dots = [this](QCPGraph *g, const QColor &color) {
        g->setPen(QPen(color));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(QCPScatterStyle(discPixmap(m_colors.tint(color, 0.45), 5)));
    };
    dots(graph(Series::AcceptancePerRound), m_colors.draft);
    line(graph(Series::AcceptanceCumulative), m_colors.draft);
    line(graph(Series::MeanOverlap), m_colors.overlap, Qt::DashLine);
    dots(graph(Series::TokensPerRound), m_colors.accepted);
    line(graph(Series::TokensPerRoundCumulative), m_colors.accepted);
    line(graph(Series::ExpectedTokens), m_colors.target, Qt::DashLine);
    line(graph(Series::SpeedupPasses), m_colors.accepted);
    line(graph(Series::SpeedupCostModel), m_colors.target, Qt::DashLine);
    line(graph(Series::SpeedupWallClock), m_colors.residual);
    line(graph(Series::DraftLength), m_colors.muted, Qt::DotLine);
    graph(Series::DraftLength)->setLineStyle(QCPGraph::lsStepCenter);
    m_positionBars->setBrush(m_colors.tint(m_colors.draft, 0.7));
    m_positionBars->setPen(Qt::NoPen);
    line(m_positionAlpha, m_colors.target, Qt::DashLine);
    for (QCPItemStraightLine *c : m_cursors)
        c->setPen(QPen(m_colors.tint(m_colors.text, 0.35), 1, Qt::DotLine));
}

void PlotsPanel::retranslate()
{
    plotTitle(m_plots[0])->setText(tr("Acceptance rate α"));
    plotTitle(m_plots[1])->setText(tr("Tokens per round"));
    plotTitle(m_plots[2])->setText(tr("Speedup"));
    plotTitle(m_plots[3])->setText(tr("Acceptance by draft position"));
    graph(Series::AcceptancePerRound)->setName(tr("this round"));
    graph(Series::AcceptanceCumulative)->setName(tr("α\u200D\u0302 so far"));
    graph(Series::MeanOverlap)->setName(tr("mean β = Σ min(p, q)"));
    graph(Series::TokensPerRound)->setName(tr("this round"));
    graph(Series::TokensPerRoundCumulative)->setName(tr("mean so far"));
    graph(Series::ExpectedTokens)->setName(tr("theory E[N] at α\u200D\u0302"));
    graph(Series::SpeedupPasses)->setName(tr("target passes saved"));
    graph(Series::SpeedupCostModel)->setName(tr("accelerator case (V = 1)"));
    graph(Series::SpeedupWallClock)->setName(tr("wall clock"));
    m_plots[2]->setToolTip(tr("Three speedups, three reasons. Target passes saved: tokens per target pass (each pass "
                              "commits a round). Accelerator case (V = 1): Theorem 3.8's prediction E[N] / (1 + K·c), "
                              "a verification costing one step (the theory panel also predicts it with V(K+1) "
                              "measured on this machine). Wall clock: baseline time / speculative time, measured."));
    graph(Series::DraftLength)->setName(tr("K this round (policy)"));
    m_positionBars->setName(tr("accepted / tested"));
    m_positionAlpha->setName(tr("α\u200D\u0302"));
    for (int i = 0; i < 3; ++i)
        m_plots[static_cast<std::size_t>(i)]->xAxis->setLabel(tr("round"));
    m_plots[3]->xAxis->setLabel(tr("draft position"));
    replotAll();
}

void PlotsPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyStyle();
        replotAll();
    } else if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
