// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaView.h"

#include "PlotStyle.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

namespace {

/// A distinct colour per lane, from the lab's palette.
QColor laneColor(const LabColors &c, int lane)
{
    const QColor colors[] = {c.draft, c.target, c.residual, c.bonus, c.text, c.rejected};
    return colors[lane % 6];
}

/// A lane's line with a dot at each round, so that a lane of one round shows (a line needs two points).
void styleGraph(QCPGraph *graph, const QColor &color)
{
    graph->setPen(QPen(color, 2));
    graph->setScatterStyle(QCPScatterStyle(discPixmap(color, 5)));
}

/// A lane's name in the table, in its colour with a swatch: the plots' legend.
void colorLaneItem(QTableWidgetItem *item, const QColor &color)
{
    QPixmap swatch(12, 12);
    swatch.fill(color);
    item->setIcon(QIcon(swatch));
    item->setForeground(color);
    QFont bold = item->font();
    bold.setBold(true);
    item->setFont(bold);
}

/// The axes of a plot without data: from 0 to 1, not QCustomPlot's 0..5 nor the last arena's range.
void resetRanges(QCustomPlot *plot)
{
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(0, 1);
}

} // namespace

ArenaView::ArenaView(QWidget *parent)
    : QWidget(parent)
    , m_editor(new QPlainTextEdit(this))
    , m_editorLabel(new QLabel(this))
    , m_load(new QPushButton(this))
    , m_step(new QPushButton(this))
    , m_playAll(new QPushButton(this))
    , m_pace(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    // Three lines of lane specs (more scroll), the buttons in a 2×2 grid beside them, the syntax and the status
    // to the right: the controls take one short band, so that a 1280×720 screen keeps a whole lane, the table
    // and the plots in view.
    m_editor->setPlainText(QStringLiteral("ngram:2\nngram:3\nlookup:3\nuniform\nsame"));
    m_pace->addItem(QString(), false);
    m_pace->addItem(QString(), true);
    m_step->setEnabled(false);
    m_playAll->setEnabled(false);
    m_status->setWordWrap(true);

    auto *controls = new QGridLayout;
    controls->addWidget(m_editor, 0, 0, 2, 1);
    controls->addWidget(m_load, 0, 1);
    controls->addWidget(m_pace, 0, 2);
    controls->addWidget(m_step, 1, 1);
    controls->addWidget(m_playAll, 1, 2);
    controls->addWidget(m_editorLabel, 0, 3);
    controls->addWidget(m_status, 1, 3);
    controls->setRowStretch(1, 1);
    controls->setColumnStretch(0, 2);
    controls->setColumnStretch(3, 3);
    m_editorLabel->setWordWrap(true);

    auto *lanes = new QWidget;
    m_lanesLayout = new QVBoxLayout(lanes);
    m_lanesLayout->setContentsMargins(0, 0, 0, 0);
    m_lanesLayout->addStretch();
    auto *scroll = new QScrollArea;
    scroll->setWidget(lanes);
    scroll->setWidgetResizable(true);

    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *plots = new QWidget;
    auto *plotsLayout = new QHBoxLayout(plots);
    plotsLayout->setContentsMargins(0, 0, 0, 0);
    for (auto &plot : m_plots) {
        plot = new QCustomPlot(plots);
        plotTitle(plot);
        plot->legend->setVisible(false); // the table's Draft column is the legend: each lane in its colour
        resetRanges(plot);
        plotsLayout->addWidget(plot);
    }
    // Lanes on top (at least two in view, scrolling), then the table at the height of its rows, then the plots.
    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_table);
    bottomLayout->addWidget(plots, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(scroll);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    m_scroll = scroll;

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(m_load, &QPushButton::clicked, this, [this] { emit loadRequested(laneLines()); });
    connect(m_step, &QPushButton::clicked, this, [this] { emit stepRequested(aligned(), 1); });
    connect(m_playAll, &QPushButton::clicked, this, [this] { emit stepRequested(false, std::max(1, m_tokens)); });
    applyStyle();
    retranslate();
    fitToFont();
}

void ArenaView::fitToFont()
{
    // Every height that follows the text: the editor's three lines, the table's rows, one whole lane in view
    // (presenter mode scales the font; these are measured again then). With large text the editor keeps two
    // lines and the plots 110 px, so that the arena fits a 720p projector.
    const bool large = ArenaLane::largeText(this);
    m_editor->setFixedHeight(static_cast<int>(QFontMetricsF(m_editor->font()).lineSpacing() * (large ? 2 : 3)
                                              + m_editor->document()->documentMargin() + 2 * m_editor->frameWidth())
                             + 1);
    // The syntax of a lane line stays in the editor's tooltip; with large text the controls keep one short band.
    m_editorLabel->setVisible(!large);
    m_table->verticalHeader()->setDefaultSectionSize(QFontMetrics(m_table->font()).height() + 6);
    for (auto *plot : m_plots) {
        plot->setMinimumHeight(large ? 110 : 150);
        plot->yAxis->ticker()->setTickCount(large ? 2 : 5); // short plots: a few ticks that do not overlap
    }
    for (ArenaLane *lane : m_lanes)
        lane->fitToFont();
    fitTable(m_table->rowCount());
    fitLanes();
}

void ArenaView::fitLanes()
{
    // One lane always in full view (the rest scroll), so the arena fits a 720p screen; with large text exactly
    // one, and the table and the plots take the rest of the height.
    const int one = m_lanes.empty() ? 0 : m_lanes.front()->minimumSizeHint().height() + 2 * m_scroll->frameWidth();
    m_scroll->setMinimumHeight(one);
    m_scroll->setMaximumHeight(ArenaLane::largeText(this) && one > 0 ? one : QWIDGETSIZE_MAX);
}

void ArenaView::setLaneLines(const QStringList &lines)
{
    m_editor->setPlainText(lines.join(QLatin1Char('\n')));
}

QStringList ArenaView::laneLines() const
{
    QStringList lines;
    for (const QString &line : m_editor->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            lines << line.trimmed();
    return lines;
}

bool ArenaView::aligned() const
{
    return m_pace->currentData().toBool();
}

void ArenaView::setBusy(bool busy, const QString &message)
{
    m_load->setEnabled(!busy);
    m_step->setEnabled(!busy && !m_lanes.empty());
    m_playAll->setEnabled(!busy && !m_lanes.empty());
    if (!message.isNull())
        m_status->setText(message);
}

void ArenaView::setLanes(const QStringList &titles, const SessionInfo &session, const std::vector<TokenId> &baseline)
{
    for (ArenaLane *lane : m_lanes)
        delete lane;
    m_lanes.clear();
    // Tokens against target passes and alpha so far: lines through exact values; K of each round: its band.
    const std::array<DecimatedSeries, 3> empty{DecimatedSeries(DecimatedSeries::Mode::Last),
                                               DecimatedSeries(DecimatedSeries::Mode::Last),
                                               DecimatedSeries(DecimatedSeries::Mode::MinMax)};
    m_series.assign(static_cast<std::size_t>(titles.size()), empty);
    m_plotted.assign(static_cast<std::size_t>(titles.size()), 0);
    m_tokens = static_cast<int>(baseline.size());
    m_table->setRowCount(static_cast<int>(titles.size()));
    fitTable(static_cast<int>(titles.size()));
    for (auto *plot : m_plots) {
        plot->clearGraphs();
        resetRanges(plot); // no range left over from the lanes before
    }
    const LabColors c = LabColors::from(palette());
    for (int i = 0; i < titles.size(); ++i) {
        auto *lane = new ArenaLane;
        lane->setLane(titles[i], session, baseline);
        m_lanesLayout->insertWidget(i, lane);
        m_lanes.push_back(lane);
        m_table->setItem(i, Draft, new QTableWidgetItem(titles[i]));
        colorLaneItem(m_table->item(i, Draft), laneColor(c, i));
        for (int col = 1; col < ColumnCount; ++col)
            m_table->setItem(i, col, new QTableWidgetItem(QStringLiteral("—")));
        for (auto *plot : m_plots) {
            QCPGraph *g = plot->addGraph();
            g->setName(titles[i]);
            styleGraph(g, laneColor(c, i));
        }
    }
    fitLanes();
    m_status->setText(tr("Target %1 on %2; %3 tokens per lane; same prompt, seed and sampler settings.")
                          .arg(session.target, session.corpus)
                          .arg(baseline.size()));
    m_step->setEnabled(true);
    m_playAll->setEnabled(true);
    for (auto *plot : m_plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
}

void ArenaView::fitTable(int rows)
{
    // The table at the height of its rows (two at least, so an empty arena shows what it will compare).
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height()
                            + std::max(rows, 2) * m_table->verticalHeader()->defaultSectionSize()
                            + 2 * m_table->frameWidth());
}

void ArenaView::fillRow(int lane, const RoundRecord &last)
{
    const RunMetrics &m = last.cumulative;
    auto set = [&](int col, const QString &text) { m_table->item(lane, col)->setText(text); };
    // Drafted tokens (a tree: nodes) per accepted token: the draft work a lane spends for what it keeps.
    set(DraftedPerAccepted,
        m.accepted > 0 ? QString::number(static_cast<double>(last.nodesDrafted) / m.accepted, 'f', 2)
                       : QStringLiteral("—"));
    set(Alpha, QString::number(m.acceptanceRate, 'f', 3));
    set(TokensPerRound, QString::number(m.tokensPerRound, 'f', 2));
    const bool measuredC = std::isfinite(m.costRatio); // c needs the baseline's steps (Metrics.h)
    set(CostRatio, measuredC ? QString::number(m.costRatio, 'f', 3) : QStringLiteral("—"));
    set(SpeedupPasses, QString::number(m.speedupForwardPasses, 'f', 2) + QStringLiteral("×"));
    // Thm 3.8's cost model is for chains; a tree lane's speedup is read in passes and on the wall clock.
    set(SpeedupCostModel,
        last.tree || !measuredC ? QStringLiteral("—")
                                : QString::number(m.speedupCostModel, 'f', 2) + QStringLiteral("×"));
    set(SpeedupWallClock,
        m.speedupWallClock ? QString::number(*m.speedupWallClock, 'f', 2) + QStringLiteral("×") : QStringLiteral("—"));
    set(DraftMs,
        m.draftCalls > 0 ? QString::number(1000.0 * m.draftSeconds / static_cast<double>(m.draftCalls), 'f', 4)
                         : QStringLiteral("—"));
    set(TargetPasses, QString::number(m.targetCalls));
}

void ArenaView::showLane(int index, const RoundHistory &history)
{
    if (index < 0 || index >= laneCount())
        return;
    m_lanes[static_cast<std::size_t>(index)]->showHistory(history);
    if (history.empty())
        return;
    fillRow(index, history.back());
    // Plot 0: tokens so far against target passes; plot 1: cumulative α̂ per round; plot 2: K per round. Only
    // the new rounds are added (older ones are not rebuilt from the history each time), into series that stay
    // bounded (DecimatedSeries: at most 1,000 buckets a lane, so a frame costs the same at any length).
    auto &series = m_series[static_cast<std::size_t>(index)];
    int &plotted = m_plotted[static_cast<std::size_t>(index)];
    if (plotted > history.size()) {
        for (DecimatedSeries &s : series)
            s.clear();
        plotted = 0;
    }
    for (int i = std::max(plotted, history.first()); i < history.size(); ++i) {
        const RoundRecord &r = history.at(i);
        series[0].add(static_cast<double>(r.cumulative.targetCalls), r.cumulative.generatedTokens);
        series[1].add(r.trace.index + 1, r.cumulative.acceptanceRate);
        series[2].add(r.trace.index + 1, r.trace.draftLength);
    }
    plotted = history.size();
    for (std::size_t p = 0; p < m_plots.size(); ++p) {
        QVector<QCPGraphData> shown;
        for (const DecimatedSeries::Point &point : series[p].points())
            shown.append(QCPGraphData(point.key, point.value));
        m_plots[p]->graph(index)->data()->set(shown, true);
    }
    for (auto *plot : m_plots) {
        plot->rescaleAxes();
        plot->yAxis->setRangeLower(0);
        plot->xAxis->setRange(0, plot->xAxis->range().upper * 1.03); // the last point drawn whole
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_plots[1]->yAxis->setRange(0, 1.05);
    m_plots[2]->yAxis->setRangeUpper(m_plots[2]->yAxis->range().upper + 1);
}

void ArenaView::applyStyle()
{
    const LabColors c = LabColors::from(palette());
    for (auto *plot : m_plots) {
        stylePlot(plot, c);
        for (int i = 0; i < plot->graphCount(); ++i)
            styleGraph(plot->graph(i), laneColor(c, i));
    }
    for (int i = 0; i < m_table->rowCount(); ++i) {
        if (QTableWidgetItem *item = m_table->item(i, Draft))
            colorLaneItem(item, laneColor(c, i));
    }
    for (auto *plot : m_plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
}

void ArenaView::retranslate()
{
    m_editorLabel->setText(
        tr("Lanes, one per line: a draft (ngram:N, onnx:PATH, uniform, same, lookup:N) and "
           "optionally a policy (heuristic, confidence:0.4, threshold:0.6) or a token tree (tree:3,2,1)"));
    m_editor->setToolTip(m_editorLabel->text());
    m_load->setText(tr("Load lanes"));
    m_step->setText(tr("Step"));
    m_playAll->setText(tr("Play to the end"));
    m_pace->setItemText(0, tr("One round per lane"));
    m_pace->setItemText(1, tr("Aligned by tokens so far"));
    // Two lines each, so that every column fits a 1280-px projector in presenter mode.
    m_table->setHorizontalHeaderLabels({tr("Draft"), tr("α\u200D\u0302"), tr("Tokens\n/ round"), tr("c"),
                                        tr("Speedup\n(passes)"), tr("Speedup\n(V = 1)"), tr("Speedup\n(wall clock)"),
                                        tr("Draft ms\n/ call"), tr("Target\npasses"), tr("Drafted /\naccepted")});
    // Each speedup with its reason (the header says which, the tooltip why they differ).
    const QString reasons[] = {
        tr("Tokens per target pass: each pass commits a round's accepted drafts and one token of its own."),
        tr("Theorem 3.8: E[N] / (1 + K·c), a verification of K + 1 positions costing one step (the accelerator "
           "case)."),
        tr("Baseline time / speculative time, measured: below the passes when a verification costs more than a "
           "step or the draft is not cheap.")};
    for (int i = 0; i < 3; ++i)
        if (QTableWidgetItem *item = m_table->horizontalHeaderItem(4 + i))
            item->setToolTip(reasons[i]);
    fitTable(m_table->rowCount());
    plotTitle(m_plots[0])->setText(tr("Tokens written against target passes"));
    m_plots[0]->xAxis->setLabel(tr("target passes"));
    m_plots[0]->yAxis->setLabel(tr("tokens"));
    plotTitle(m_plots[1])->setText(tr("Acceptance α\u200D\u0302 (cumulative)"));
    m_plots[1]->xAxis->setLabel(tr("round"));
    plotTitle(m_plots[2])->setText(tr("Draft length K per round"));
    m_plots[2]->xAxis->setLabel(tr("round"));
    for (auto *plot : m_plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
}

void ArenaView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        applyStyle();
    else if (event->type() == QEvent::FontChange)
        fitToFont();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
