// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TheoryPanel: the formulas of speculative decoding with the current run's numbers substituted — alpha,
// E[N] = (1 − α^{K+1}) / (1 − α), c, the predicted speedup (Leviathan et al. 2023, Thm 3.8), the best K.

#include "Metrics.h"

#include <QTextBrowser>

namespace specdec::gui {

class TheoryPanel : public QTextBrowser
{
    Q_OBJECT
public:
    explicit TheoryPanel(QWidget *parent = nullptr);

    /// Substitutes the metrics of the rounds so far (`k`: the draft length of the setup).
    void setMetrics(const RunMetrics &metrics, int k);
    void clear();

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();

    RunMetrics m_metrics;
    int m_k = 4;
    bool m_empty = true;
    QString m_html; ///< what is shown, so an unchanged text is not laid out again
};

} // namespace specdec::gui
