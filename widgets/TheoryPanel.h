// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TheoryPanel: the formulas of speculative decoding with the current run's numbers substituted — alpha,
// E[N] = (1 − α^{K+1}) / (1 − α), c, the predicted speedup (Leviathan et al. 2023, Thm 3.8), the best K.
// In a token-tree session it shows the tree's own: the nodes one target pass verifies, the exact acceptance
// at a node with k i.i.d. children 1 − Π_j (1 − β_j), β_j = Σ_x min(p_j(x), q(x)), p_{j+1} = norm(max(0, p_j − q))
// (SpecInfer), the measured tokens per target pass and nodes drafted per accepted token.
//
// Every speedup comes with its reason and its cost: target passes (tokens per pass), predicted
// S = E[N] / (V(K+1) + K c) with V and c measured on this machine (Thm 3.8's V = 1 beside it, the accelerator
// case), and measured (baseline time / speculative time), with the milliseconds of each kind of call.

#include "Metrics.h"
#include "TokenTree.h"
#include "VerificationCost.h"

#include <QTextBrowser>

namespace specdec::gui {

class TheoryPanel : public QTextBrowser
{
    Q_OBJECT
public:
    explicit TheoryPanel(QWidget *parent = nullptr);

    /// Substitutes the metrics of the rounds so far (`k`: the draft length of the setup).
    void setMetrics(const RunMetrics &metrics, int k);
    /// A token-tree session: the metrics of the accepted paths so far, the exact one-node acceptance per
    /// tested depth of the last round shown (TreeTrace::exactNodeAcceptance) and the nodes drafted so far.
    void setTreeMetrics(const RunMetrics &metrics, std::vector<double> lastExactAcceptance, std::int64_t nodesDrafted);
    /// The session's tree shape; the empty shape: a chain session (the chain formulas).
    void setTree(const TreeShape &shape);
    void clear();
    /// What the session's calls cost on this machine, measured when it loaded (SessionInfo): v[m - 1] = V(m) =
    /// T_target(m new positions) / T_target(1), c = T_draft(1) / T_target(1) (empty v: not measured, V = 1 is
    /// used); `kvCache`: the session decodes with the models' key/value caches (off: the baseline is the
    /// uncached decoder, which the panel says next to the wall clock); `probedTokens`: the length of the run
    /// whose calls were timed (CostProbe).
    void setMachineCost(std::vector<double> v, double c, bool kvCache, int probedTokens);
    /// The K in 1..max that maximises E[N](K) / (V(K+1) + K c) at the run's α̂ with the measured V and c
    /// (theory::optimalDraftLengthMeasured); Thm 3.8's when nothing is measured.
    int bestK() const;
    /// What the KV cache switch changes, said next to the wall clock when it is off.
    static QString kvCacheOffNote();

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    QString chainFormulas() const;
    QString treeFormulas() const;
    QString passesLine() const;
    QString predicted() const;
    QString wallClock() const;
    QString costBreakdown() const;
    /// The prompt's V(m) and c calibrated to this run's own calls when it has a baseline (VerificationCost.h).
    VerificationCost costs() const;
    /// V(m) of `cost` (1 when not measured; past the measurement, its last slope continued).
    static double verification(const VerificationCost &cost, int m);

    RunMetrics m_metrics;
    int m_k = 4;
    TreeShape m_tree;
    std::vector<double> m_lastExact;
    std::int64_t m_nodesDrafted = 0;
    bool m_empty = true;
    std::vector<double> m_v; ///< V(m), m = 1..size, measured; empty: not measured
    double m_c = 0.0;
    bool m_kvCache = true;
    int m_probedTokens = 0;
    QString m_html; ///< what is shown, so an unchanged text is not laid out again
};

} // namespace specdec::gui
