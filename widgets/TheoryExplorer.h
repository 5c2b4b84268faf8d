// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TheoryExplorer: the closed forms of speculative decoding under sliders for α, K and c — E[N] against K,
// the cost-model speedup against K (the best K marked) and against α — with the measured points of the
// user's own runs (session, arena lanes) drawn over the curves. The formulas come from engine/Theory.h.

#include "LabColors.h"

#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QSlider;

namespace specdec::gui {

/// One measured run: its α̂, mean K, c, tokens per round and speedups.
struct MeasuredPoint
{
    QString label;
    double alpha = 0.0;
    double k = 0.0;
    double c = 0.0;
    double tokensPerRound = 0.0;
    double speedupCostModel = 0.0;
};

class TheoryExplorer : public QWidget
{
    Q_OBJECT
public:
    explicit TheoryExplorer(QWidget *parent = nullptr);

    void setAlpha(double alpha);
    void setK(int k);
    void setC(double c);
    double alpha() const;
    int k() const;
    double c() const;
    /// The K in 1..max that maximises the speedup at the sliders' α and c.
    int optimalK() const;

    void setMeasured(const QVector<MeasuredPoint> &points);
    QVector<MeasuredPoint> measured() const { return m_measured; }

    QCustomPlot *plot(int index) const { return m_plots[static_cast<std::size_t>(index)]; }
    QString summaryText() const;

    static constexpr int kMaxK = 16;

protected:
    void changeEvent(QEvent *event) override;

private:
    void recompute();
    void applyStyle();
    void retranslate();

    QSlider *m_alpha;
    QSlider *m_k;
    QSlider *m_c;
    QLabel *m_alphaLabel;
    QLabel *m_kLabel;
    QLabel *m_cLabel;
    QLabel *m_summary;
    std::array<QCustomPlot *, 3> m_plots{};
    QCPGraph *m_expected;
    QCPGraph *m_speedupK;
    QCPGraph *m_speedupAlpha;
    QCPGraph *m_currentK[2]{};
    QCPGraph *m_currentAlpha;
    QCPGraph *m_best;
    QCPGraph *m_measuredEn;
    QCPGraph *m_measuredSpeedup;
    QCPGraph *m_measuredAlpha;
    QCPItemStraightLine *m_breakEven[2]{};
    QVector<MeasuredPoint> m_measured;
};

} // namespace specdec::gui
