// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PlotsPanel: four live QCustomPlot charts of the rounds played, drawn from the engine's metrics —
// acceptance (per round and cumulative, with mean beta); tokens per round against E[N]; speedup in target
// passes, under the cost model and on the wall clock; acceptance per draft position.

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
        DraftLength,        ///< K of each round; shown when a draft-length policy makes it vary
        PositionAcceptance,
    };

    explicit PlotsPanel(QWidget *parent = nullptr);

    void clear();
    /// Plots rounds [from, history.size()) after those already plotted (from = rounds already shown).
    void appendRounds(const RoundHistory &history);
    /// Marks round `round` and shows per-position acceptance as of that round.
    void setCurrentRound(const RoundHistory &history, int round);
    int roundsPlotted() const { return m_rounds; }
    QVector<double> values(Series series) const;
    QCustomPlot *plot(int index) const { return m_plots[static_cast<std::size_t>(index)]; }

protected:
    void changeEvent(QEvent *event) override;

private:
    QCPGraph *graph(Series series) const;
    void applyStyle();
    void retranslate();
    void rescale();
    void replotAll();

    std::array<QCustomPlot *, 4> m_plots{};
    std::array<QCPItemStraightLine *, 3> m_cursors{};
    std::vector<QCPGraph *> m_graphs; ///< indexed by Series (PositionAcceptance excepted)
    QCPBars *m_positionBars = nullptr;
    QCPGraph *m_positionAlpha = nullptr;
    LabColors m_colors;
    int m_rounds = 0;
    bool m_many = false; ///< drawn in the fast style for many rounds
    int m_maxK = 1;
    double m_maxTokens = 1.0;
    double m_maxSpeedup = 1.0;
};

} // namespace specdec::gui
