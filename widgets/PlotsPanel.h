// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PlotsPanel: four live QCustomPlot charts of the rounds played, drawn from the engine's metrics —
// acceptance (per round and cumulative, with mean beta); tokens per round against E[N]; speedup in target
// passes, under the cost model and on the wall clock; acceptance per draft position.
//
// Bounded whatever the number of rounds: each series keeps at most DecimatedSeries' capacity of buckets
// (per-round dots as min/max per bucket, cumulative lines at each bucket's last round), and the axis ranges
// follow running maxima, so a frame costs the same at round 100 and at round 100,000.

#include "DecimatedSeries.h"
#include "LabColors.h"
#include "TranscriptView.h"

#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPBars;
class QCPItemStraightLine;

namespace specdec::gui {

class PlotsPanel : public QWidget
{
    Q_OBJECT
public:
    /// Every plotted series, by name, so tests can compare it with the metrics.
    enum class Series {
        AcceptancePerRound,
        AcceptanceCumulative,
        MeanOverlap,
        TokensPerRound,
        TokensPerRoundCumulative,
        ExpectedTokens,
        SpeedupPasses,
        SpeedupCostModel,
        SpeedupWallClock,
        DraftLength, ///< K of each round; shown when a draft-length policy makes it vary
        PositionAcceptance,
    };

    explicit PlotsPanel(QWidget *parent = nullptr);

    void clear();
    /// Plots rounds [0, count) of `history` (count -1: all), appending to those already plotted (or starting
    /// over when fewer are asked for): the window passes the rounds its frame has revealed.
    void appendRounds(const RoundHistory &history, int count = -1);
    /// Marks round `round` (-1: none) and shows per-position acceptance over the first `revealed` rounds
    /// (-1: up to and including `round`).
    void setCurrentRound(const RoundHistory &history, int round, int revealed = -1);
    int roundsPlotted() const { return m_rounds; }
    /// While deferred (full-speed play), new data only marks the charts stale and replotNext() redraws them
    /// one chart a frame, so a frame pays for one chart, not four; switching back replots the stale ones.
    void setDeferredReplot(bool deferred);
    /// Replots the next stale chart (round-robin); false when none is stale.
    bool replotNext();
    /// The round the cursor marks (0-based), -1 when hidden.
    int cursorRound() const;
    /// The points drawn of `series` (every round's value until the series is decimated).
    QVector<double> values(Series series) const;
    /// Points held by all series together: bounded (tests).
    int pointsHeld() const;
    QCustomPlot *plot(int index) const { return m_plots[static_cast<std::size_t>(index)]; }

    /// Plots per row: 4 in a wide, low panel (the bottom dock of a large window), 1 in a tall, narrow one, else 2.
    int columns() const { return m_columns; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QCPGraph *graph(Series series) const;
    /// Lays the four plots out in `columns` columns (each plot as square as the panel allows).
    void arrange(int columns);
    void applyStyle();
    void retranslate();
    void rescale();
    void replotAll();
    void showSeries();

    std::array<QCustomPlot *, 4> m_plots{};
    std::array<bool, 4> m_stale{};
    bool m_deferred = false;
    int m_nextReplot = 0;
    std::array<QCPItemStraightLine *, 3> m_cursors{};
    std::vector<QCPGraph *> m_graphs;      ///< indexed by Series (PositionAcceptance excepted)
    std::vector<DecimatedSeries> m_series; ///< what each graph shows, indexed like m_graphs
    QCPBars *m_positionBars = nullptr;
    QCPGraph *m_positionAlpha = nullptr;
    LabColors m_colors;
    int m_rounds = 0;
    bool m_many = false; ///< drawn in the fast style for many rounds
    int m_columns = 2;
    int m_maxK = 1;
    int m_firstK = -1;      ///< K of the first round plotted
    bool m_kVaries = false; ///< some round's K differs from the first
    double m_maxTokens = 1.0;
    double m_maxSpeedup = 1.0;
};

} // namespace specdec::gui
