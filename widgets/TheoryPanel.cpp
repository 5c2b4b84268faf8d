// SPDX-License-Identifier: GPL-3.0-or-later
#include "TheoryPanel.h"

#include "LabColors.h"
#include "Theory.h"

#include <QEvent>
#include <QScrollBar>

namespace specdec::gui {

namespace {
QString n(double v, int digits = 3)
{
    return QString::number(v, 'f', digits);
}
} // namespace

TheoryPanel::TheoryPanel(QWidget *parent)
    : QTextBrowser(parent)
{
    setFrameShape(QFrame::NoFrame);
    setOpenLinks(false);
    // The formulas are taller than the dock: with the scroll bar always there, a new text never shows or hides
    // it, which would relayout the panel on every round.
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    render();
}

void TheoryPanel::setMetrics(const RunMetrics &metrics, int k)
{
    m_metrics = metrics;
    m_k = k;
    m_empty = metrics.rounds == 0;
    render();
}

void TheoryPanel::clear()
{
    m_metrics = {};
    m_empty = true;
    render();
}

void TheoryPanel::render()
{
    const LabColors c = LabColors::from(palette());
    const RunMetrics &m = m_metrics;
    const double a = m.acceptanceRate;
    const int k = m_k;
    const QString head = QStringLiteral("<p style=\"margin-top:10px;margin-bottom:2px;color:%1\"><b>%2</b></p>");
    const QString formula = QStringLiteral("<p style=\"margin-left:10px;margin-top:0px\">%1</p>");
    QString html;
    html += head.arg(c.text.name(), tr("Acceptance").toHtmlEscaped());
    if (m_empty) {
        html += formula.arg(tr("Play a round to fill in the numbers.").toHtmlEscaped());
    } else {
        html += formula.arg(QStringLiteral("α̂ = %1 / %2 = <b>%3</b>").arg(m.accepted).arg(m.tested).arg(n(a)));
        html += formula.arg(tr("α = E[Σ min(p, q)] = 1 − E[TV]; mean β here: <b>%1</b>").arg(n(m.meanOverlap)));
    }
    html += head.arg(c.text.name(), tr("Tokens per round").toHtmlEscaped());
    const double en = theory::expectedTokensPerRound(a, k);
    html += formula.arg(QStringLiteral("E[N] = (1 − α<sup>K+1</sup>) / (1 − α)"));
    if (!m_empty) {
        html += formula.arg(QStringLiteral("= (1 − %1<sup>%2</sup>) / (1 − %1) = <b>%3</b>").arg(n(a, 2)).arg(k + 1).arg(n(en, 2)));
        html += formula.arg(tr("measured: <b>%1</b> tokens per round over %2 rounds")
                                .arg(n(m.tokensPerRound, 2))
                                .arg(m.rounds));
    }
    html += head.arg(c.text.name(), tr("Speedup (Leviathan et al. 2023, Thm 3.8)").toHtmlEscaped());
    html += formula.arg(QStringLiteral("S = (1 − α<sup>K+1</sup>) / ((1 − α)(Kc + 1))"));
    if (!m_empty) {
        const double s = theory::costModelSpeedup(a, k, m.costRatio);
        html += formula.arg(tr("c = T<sub>draft</sub> / T<sub>target</sub> = <b>%1</b>").arg(n(m.costRatio)));
        html += formula.arg(QStringLiteral("S = %1 / (%2 · %3 + 1) = <b>%4×</b>")
                                .arg(n(en, 2))
                                .arg(k)
                                .arg(n(m.costRatio, 3))
                                .arg(n(s, 2)));
        html += formula.arg(tr("target passes: %1 tokens / %2 passes = <b>%3×</b>")
                                .arg(m.generatedTokens)
                                .arg(m.targetCalls)
                                .arg(n(m.speedupForwardPasses, 2)));
        if (m.speedupWallClock)
            html += formula.arg(tr("wall clock: <b>%1×</b>").arg(n(*m.speedupWallClock, 2)));
        const int best = theory::optimalDraftLength(a, m.costRatio);
        html += formula.arg(tr("best K at this α and c: <b>%1</b> (S = %2×)")
                                .arg(best)
                                .arg(n(theory::costModelSpeedup(a, best, m.costRatio), 2)));
    }
    html += head.arg(c.text.name(), tr("Reference").toHtmlEscaped());
    html += formula.arg(tr("α = 0.8, K = 4 → E[N] = %1").arg(n(theory::expectedTokensPerRound(0.8, 4), 2)));
    if (html == m_html)
        return;
    m_html = html;
    const int scrolled = verticalScrollBar()->value(); // keep the reader's place while the numbers change
    setHtml(html);
    verticalScrollBar()->setValue(scrolled);
}

void TheoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QTextBrowser::changeEvent(event);
}

} // namespace specdec::gui
