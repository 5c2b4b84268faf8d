// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TheoryExplorer: the closed forms of speculative decoding under sliders for α, K and c — E[N] against K,
// the speedup against K (the best K marked) and against α — with the measured points of the user's own runs
// (session, arena lanes) drawn over the curves: a run's filled point sits at its measured (wall-clock) speedup,
// its prediction under the chosen hardware as an outline beside it. The formulas come from engine/Theory.h.
//
// A "hardware" choice says what a verification of K + 1 positions costs in target steps, V(K+1), in
// S = E[N] / (V(K+1) + K c): Leviathan et al.'s Theorem 3.8 (V ≡ 1), this machine (V and c measured on the
// session's models, VerificationCost.h), or a memory-bound accelerator (V(m) = max(1, m / R): one step costs
// the same up to the ridge point of R rows, then grows with the rows).

#include "LabColors.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QSlider;
class QSpinBox;

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
    /// Baseline time / speculative time, when the run timed its baseline: where the run's point sits.
    std::optional<double> speedupWallClock;
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
    /// The K in 1..max that maximises the speedup at the sliders' α and c under the chosen hardware.
    int optimalK() const;

    enum class Hardware { OneStep, Measured, Accelerator };
    void setHardware(Hardware hardware);
    Hardware hardware() const;
    /// The ridge point of the accelerator model, in rows (positions per call).
    void setRidge(int rows);
    /// V(m) = T_target(m new positions) / T_target(1) for m = 1..v.size() and c = T_draft(1) / T_target(1),
    /// measured on the session's models (empty v: nothing measured; "this machine" is then unavailable).
    /// Choosing "this machine" sets the c slider to the measured c.
    void setMeasuredCost(const std::vector<double> &v, double c);
    /// V(m) under the chosen hardware (past the measured m: extended along the last measured slope).
    double verificationCost(int m) const;
    /// S = E[N] / (V(K+1) + K c) under the chosen hardware.
    double speedup(double alpha, int k, double c) const;
    /// A run's predicted speedup under the chosen hardware: at its α̂ and rounded mean K, with the measured c
    /// on "this machine", else the run's own c.
    double predicted(const MeasuredPoint &point) const;

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
    QComboBox *m_hardware;
    QSpinBox *m_ridge;
    QLabel *m_hardwareLabel;
    QLabel *m_alphaLabel;
    QLabel *m_kLabel;
    QLabel *m_cLabel;
    QLabel *m_summary;
    std::array<QCustomPlot *, 3> m_plots{};
    QCPGraph *m_expected;
    QCPGraph *m_speedupK;
    QCPGraph *m_oneStepK; ///< Theorem 3.8's curve for comparison when another hardware is chosen
    QCPGraph *m_speedupAlpha;
    QCPGraph *m_currentK[2]{};
    QCPGraph *m_currentAlpha;
    QCPGraph *m_best;
    QCPGraph *m_measuredEn;
    QCPGraph *m_measuredSpeedup;
    QCPGraph *m_measuredAlpha;
    QCPGraph *m_predictedSpeedup; ///< the runs' predictions, outlines beside their measured points
    QCPGraph *m_predictedAlpha;
    QCPItemStraightLine *m_breakEven[2]{};
    QVector<MeasuredPoint> m_measured;
    std::vector<double> m_measuredV;
    double m_measuredC = 0.0;
};

} // namespace specdec::gui
