// SPDX-License-Identifier: GPL-3.0-or-later
#include "TheoryExplorer.h"

#include "PlotStyle.h"
#include "Theory.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>

#include <cmath>

namespace specdec::gui {

TheoryExplorer::TheoryExplorer(QWidget *parent)
    : QWidget(parent)
    , m_alpha(new QSlider(Qt::Horizontal, this))
    , m_k(new QSlider(Qt::Horizontal, this))
    , m_c(new QSlider(Qt::Horizontal, this))
    , m_hardware(new QComboBox(this))
    , m_ridge(new QSpinBox(this))
    , m_hardwareLabel(new QLabel(this))
    , m_alphaLabel(new QLabel(this))
    , m_kLabel(new QLabel(this))
    , m_cLabel(new QLabel(this))
    , m_summary(new QLabel(this))
{
    m_alpha->setRange(0, 99); // α in hundredths
    m_alpha->setValue(80);
    m_k->setRange(1, kMaxK);
    m_k->setValue(4);
    m_c->setRange(0, 100); // c in hundredths
    m_c->setValue(5);
    m_hardware->addItem(QString(), static_cast<int>(Hardware::OneStep));
    m_hardware->addItem(QString(), static_cast<int>(Hardware::Measured));
    m_hardware->addItem(QString(), static_cast<int>(Hardware::Accelerator));
    m_hardware->setObjectName(QStringLiteral("hardware"));
    m_ridge->setRange(1, 4096);
    m_ridge->setValue(64);
    m_ridge->setObjectName(QStringLiteral("ridge"));
    m_summary->setWordWrap(true);
    for (auto &plot : m_plots) {
        plot = new QCustomPlot(this);
        plot->setMinimumSize(220, 200);
        plotTitle(plot);
    }
    m_expected = m_plots[0]->addGraph();
    m_currentK[0] = m_plots[0]->addGraph();
    m_measuredEn = m_plots[0]->addGraph();
    m_speedupK = m_plots[1]->addGraph();
    m_oneStepK = m_plots[1]->addGraph();
    m_currentK[1] = m_plots[1]->addGraph();
    m_best = m_plots[1]->addGraph();
    m_measuredSpeedup = m_plots[1]->addGraph();
    m_predictedSpeedup = m_plots[1]->addGraph();
    m_speedupAlpha = m_plots[2]->addGraph();
    m_currentAlpha = m_plots[2]->addGraph();
    m_measuredAlpha = m_plots[2]->addGraph();
    m_predictedAlpha = m_plots[2]->addGraph();
    for (QCPGraph *g : {m_currentK[0], m_currentK[1], m_best, m_currentAlpha, m_measuredEn, m_measuredSpeedup,
                        m_measuredAlpha, m_predictedSpeedup, m_predictedAlpha})
        g->setLineStyle(QCPGraph::lsNone);
    for (int i = 0; i < 2; ++i) {
        m_breakEven[i] = new QCPItemStraightLine(m_plots[static_cast<std::size_t>(i + 1)]);
        m_breakEven[i]->point1->setCoords(0, 1);
        m_breakEven[i]->point2->setCoords(1, 1);
    }
    for (auto &plot : m_plots) {
        legendBelow(plot);
        plot->legend->setWrap(2);
        plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-lay the items already there
    }

    auto *sliders = new QGridLayout;
    sliders->addWidget(m_alphaLabel, 0, 0);
    sliders->addWidget(m_alpha, 0, 1);
    sliders->addWidget(m_kLabel, 1, 0);
    sliders->addWidget(m_k, 1, 1);
    sliders->addWidget(m_cLabel, 2, 0);
    sliders->addWidget(m_c, 2, 1);
    auto *hardwareRow = new QHBoxLayout;
    hardwareRow->addWidget(m_hardware, 1);
    hardwareRow->addWidget(m_ridge);
    sliders->addWidget(m_hardwareLabel, 3, 0);
    sliders->addLayout(hardwareRow, 3, 1);
    sliders->setColumnStretch(1, 1);
    auto *plots = new QHBoxLayout;
    for (auto *plot : m_plots)
        plots->addWidget(plot, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(sliders);
    layout->addWidget(m_summary);
    layout->addLayout(plots, 1);

    for (QSlider *s : {m_alpha, m_k, m_c})
        connect(s, &QSlider::valueChanged, this, &TheoryExplorer::recompute);
    connect(m_hardware, &QComboBox::currentIndexChanged, this, [this] {
        if (hardware() == Hardware::Measured && !m_measuredV.empty())
            setC(m_measuredC);
        recompute();
    });
    connect(m_ridge, &QSpinBox::valueChanged, this, &TheoryExplorer::recompute);
    setMeasuredCost({}, 0.0);
    applyStyle();
    retranslate();
}

void TheoryExplorer::setAlpha(double alpha)
{
    m_alpha->setValue(static_cast<int>(std::lround(alpha * 100)));
}

void TheoryExplorer::setK(int k)
{
    m_k->setValue(k);
}

void TheoryExplorer::setC(double c)
{
    m_c->setValue(static_cast<int>(std::lround(c * 100)));
}

double TheoryExplorer::alpha() const
{
    return m_alpha->value() / 100.0;
}

int TheoryExplorer::k() const
{
    return m_k->value();
}

double TheoryExplorer::c() const
{
    return m_c->value() / 100.0;
}

int TheoryExplorer::optimalK() const
{
    int best = 1;
    for (int k = 2; k <= kMaxK; ++k)
        if (speedup(alpha(), k, c()) > speedup(alpha(), best, c()))
            best = k;
    return best;
}

void TheoryExplorer::setHardware(Hardware hardware)
{
    if (hardware == Hardware::Measured && m_measuredV.empty())
        return; // nothing measured yet
    m_hardware->setCurrentIndex(m_hardware->findData(static_cast<int>(hardware)));
}

TheoryExplorer::Hardware TheoryExplorer::hardware() const
{
    return static_cast<Hardware>(m_hardware->currentData().toInt());
}

void TheoryExplorer::setRidge(int rows)
{
    m_ridge->setValue(rows);
}

void TheoryExplorer::setMeasuredCost(const std::vector<double> &v, double c)
{
    m_measuredV = v;
    m_measuredC = c;
    // "this machine" needs a measurement: without one it cannot be chosen.
    if (auto *model = qobject_cast<QStandardItemModel *>(m_hardware->model()))
        if (QStandardItem *item = model->item(m_hardware->findData(static_cast<int>(Hardware::Measured))))
            item->setEnabled(!v.empty());
    if (hardware() == Hardware::Measured) {
        if (v.empty())
            setHardware(Hardware::OneStep);
        else
            setC(c);
    }
    retranslate(); // the item's text says whether it is measured
}

double TheoryExplorer::verificationCost(int m) const
{
    if (m < 1)
        return 1.0;
    switch (hardware()) {
    case Hardware::OneStep: break;
    case Hardware::Accelerator: return std::max(1.0, static_cast<double>(m) / m_ridge->value());
    case Hardware::Measured: {
        const int n = static_cast<int>(m_measuredV.size());
        if (n == 0)
            break;
        if (m <= n)
            return m_measuredV[static_cast<std::size_t>(m - 1)];
        const double slope = n >= 2 ? std::max(0.0, m_measuredV[n - 1] - m_measuredV[n - 2]) : 0.0;
        return m_measuredV[static_cast<std::size_t>(n - 1)] + slope * (m - n);
    }
    }
    return 1.0;
}

double TheoryExplorer::speedup(double a, int k, double cost) const
{
    return theory::generalisedSpeedup(a, k, cost, verificationCost(k + 1));
}

double TheoryExplorer::predicted(const MeasuredPoint &point) const
{
    const int k = std::max(1, static_cast<int>(std::lround(point.k)));
    const bool machine = hardware() == Hardware::Measured && !m_measuredV.empty();
    return speedup(point.alpha, k, machine ? m_measuredC : point.c);
}

void TheoryExplorer::setMeasured(const QVector<MeasuredPoint> &points)
{
    m_measured = points;
    recompute();
}

QString TheoryExplorer::summaryText() const
{
    return m_summary->text();
}

void TheoryExplorer::recompute()
{
    const double a = alpha(), cost = c();
    const int kk = k();
    m_alphaLabel->setText(tr("α (acceptance) = %1").arg(a, 0, 'f', 2));
    m_kLabel->setText(tr("K (draft length) = %1").arg(kk));
    m_cLabel->setText(tr("c = T_draft / T_target = %1").arg(cost, 0, 'f', 2));
    m_ridge->setEnabled(hardware() == Hardware::Accelerator);

    const bool oneStep = hardware() == Hardware::OneStep;
    QVector<double> ks, en, sp, thm;
    for (int k = 1; k <= kMaxK; ++k) {
        ks << k;
        en << theory::expectedTokensPerRound(a, k);
        sp << speedup(a, k, cost);
        thm << theory::costModelSpeedup(a, k, cost);
    }
    m_expected->setData(ks, en, true);
    m_speedupK->setData(ks, sp, true);
    m_oneStepK->setData(oneStep ? QVector<double>{} : ks, oneStep ? QVector<double>{} : thm, true);
    m_oneStepK->setVisible(!oneStep);
    m_oneStepK->removeFromLegend();
    if (!oneStep)
        m_oneStepK->addToLegend();
    m_currentK[0]->setData({double(kk)}, {theory::expectedTokensPerRound(a, kk)});
    m_currentK[1]->setData({double(kk)}, {speedup(a, kk, cost)});
    const int best = optimalK();
    m_best->setData({double(best)}, {speedup(a, best, cost)});

    QVector<double> alphas, sa;
    for (int i = 0; i <= 99; ++i) {
        alphas << i / 100.0;
        sa << speedup(i / 100.0, kk, cost);
    }
    m_speedupAlpha->setData(alphas, sa, true);
    m_currentAlpha->setData({a}, {speedup(a, kk, cost)});

    // A run sits at what it measured (the wall clock), its prediction an outline beside it (a run whose
    // baseline was not timed has only the outline).
    QVector<double> mk, men, wk, wsp, wa, pk, psp;
    for (const MeasuredPoint &m : m_measured) {
        mk << m.k;
        men << m.tokensPerRound;
        if (m.speedupWallClock) {
            wk << m.k;
            wa << m.alpha;
            wsp << *m.speedupWallClock;
        }
        pk << m.k;
        psp << predicted(m);
    }
    QVector<double> pa;
    for (const MeasuredPoint &m : m_measured)
        pa << m.alpha;
    m_measuredEn->setData(mk, men);
    m_measuredSpeedup->setData(wk, wsp);
    m_measuredAlpha->setData(wa, wsp);
    m_predictedSpeedup->setData(pk, psp);
    m_predictedAlpha->setData(pa, psp);

    double top = 1.0;
    for (double v : sp + sa + wsp + psp + thm)
        top = std::max(top, v);
    m_plots[0]->xAxis->setRange(0.5, kMaxK + 0.5);
    m_plots[0]->yAxis->setRange(0, kMaxK + 1.5);
    m_plots[1]->xAxis->setRange(0.5, kMaxK + 0.5);
    m_plots[1]->yAxis->setRange(0, top * 1.1);
    m_plots[2]->xAxis->setRange(-0.03, 1.03); // a run's point at α = 0 or 1 is drawn whole, not halved by the axis
    m_plots[2]->yAxis->setRange(0, top * 1.1);

    const int bestOneStep = theory::optimalDraftLength(a, cost, kMaxK);
    if (oneStep)
        m_summary->setText(tr("E[N] = (1 − α^(K+1)) / (1 − α) = %1 tokens per round; speedup "
                              "(1 − α^(K+1)) / ((1 − α)(Kc + 1)) = %2×; best K here: %3 (%4×).")
                               .arg(theory::expectedTokensPerRound(a, kk), 0, 'f', 2)
                               .arg(theory::costModelSpeedup(a, kk, cost), 0, 'f', 2)
                               .arg(best)
                               .arg(theory::costModelSpeedup(a, best, cost), 0, 'f', 2));
    else
        m_summary->setText(tr("E[N] = %1 tokens per round; a verification of K + 1 = %2 positions costs V = %3 "
                              "steps, so S = E[N] / (V(K+1) + Kc) = %4× (Theorem 3.8, V = 1: %5×); best K: %6 "
                              "(%7×), under Theorem 3.8: %8.")
                               .arg(theory::expectedTokensPerRound(a, kk), 0, 'f', 2)
                               .arg(kk + 1)
                               .arg(verificationCost(kk + 1), 0, 'f', 2)
                               .arg(speedup(a, kk, cost), 0, 'f', 2)
                               .arg(theory::costModelSpeedup(a, kk, cost), 0, 'f', 2)
                               .arg(best)
                               .arg(speedup(a, best, cost), 0, 'f', 2)
                               .arg(bestOneStep));
    for (auto *plot : m_plots)
        plot->replot(QCustomPlot::rpQueuedReplot);
}

void TheoryExplorer::applyStyle()
{
    const LabColors c = LabColors::from(palette());
    for (auto *plot : m_plots)
        stylePlot(plot, c);
    for (QCPGraph *g : {m_expected, m_speedupK, m_speedupAlpha})
        g->setPen(QPen(c.target, 2));
    m_oneStepK->setPen(QPen(c.muted, 1.5, Qt::DashLine));
    for (QCPGraph *g : {m_currentK[0], m_currentK[1], m_currentAlpha})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c.target, c.target, 9));
    m_best->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, QPen(c.accepted, 2), Qt::NoBrush, 16));
    for (QCPGraph *g : {m_measuredEn, m_measuredSpeedup, m_measuredAlpha})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, c.residual, c.residual, 9));
    for (QCPGraph *g : {m_predictedSpeedup, m_predictedAlpha})
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(c.residual, 1.5), Qt::NoBrush, 13));
    for (auto *line : m_breakEven)
        line->setPen(QPen(c.muted, 1, Qt::DashLine));
    recompute();
}

void TheoryExplorer::retranslate()
{
    plotTitle(m_plots[0])->setText(tr("E[tokens per round] against K"));
    plotTitle(m_plots[1])->setText(tr("Speedup against K"));
    plotTitle(m_plots[2])->setText(tr("Speedup against α"));
    m_plots[0]->xAxis->setLabel(tr("K"));
    m_plots[1]->xAxis->setLabel(tr("K"));
    m_plots[2]->xAxis->setLabel(tr("α"));
    m_expected->setName(tr("E[N]"));
    m_speedupK->setName(tr("cost-model speedup"));
    m_oneStepK->setName(tr("Theorem 3.8 (V = 1)"));
    m_hardwareLabel->setText(tr("Hardware"));
    m_hardware->setItemText(0, tr("Theorem 3.8: a verification costs one step (V = 1)"));
    m_hardware->setItemText(1,
                            m_measuredV.empty() ? tr("this machine (measured V and c; start a session first)")
                                                : tr("this machine (measured V and c)"));
    m_hardware->setItemText(2, tr("memory-bound accelerator (V = 1 up to the ridge point)"));
    m_hardware->setToolTip(
        tr("What verifying K + 1 positions costs in target steps, V(K+1): S = E[N] / (V(K+1) + Kc)."));
    m_ridge->setSuffix(tr(" rows"));
    m_ridge->setToolTip(tr("Ridge point: the rows per call up to which a step is memory-bound (peak FLOP/s ÷ "
                           "memory bandwidth, about 150 on a datacentre GPU in fp16); past it V grows with the rows."));
    m_speedupAlpha->setName(tr("cost-model speedup"));
    for (QCPGraph *g : {m_currentK[0], m_currentK[1], m_currentAlpha})
        g->setName(tr("sliders"));
    m_best->setName(tr("best K"));
    m_measuredEn->setName(tr("your runs"));
    for (QCPGraph *g : {m_measuredSpeedup, m_measuredAlpha})
        g->setName(tr("your runs, measured"));
    for (QCPGraph *g : {m_predictedSpeedup, m_predictedAlpha})
        g->setName(tr("your runs, predicted"));
    recompute();
}

void TheoryExplorer::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        applyStyle();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
