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

QString heading(const LabColors &c, const QString &text)
{
    return QStringLiteral("<p style=\"margin-top:10px;margin-bottom:2px;color:%1\"><b>%2</b></p>")
        .arg(c.text.name(), text.toHtmlEscaped());
}

QString line(const QString &html)
{
    return QStringLiteral("<p style=\"margin-left:10px;margin-top:0px\">%1</p>").arg(html);
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

void TheoryPanel::setTreeMetrics(const RunMetrics &metrics, std::vector<double> lastExactAcceptance,
                                 std::int64_t nodesDrafted)
{
    m_metrics = metrics;
    m_lastExact = std::move(lastExactAcceptance);
    m_nodesDrafted = nodesDrafted;
    m_empty = metrics.rounds == 0;
    render();
}

void TheoryPanel::setTree(const TreeShape &shape)
{
    m_tree = shape;
    render();
}

void TheoryPanel::clear()
{
    m_metrics = {};
    m_lastExact.clear();
    m_nodesDrafted = 0;
    m_empty = true;
    render();
}

void TheoryPanel::render()
{
    const RunMetrics &m = m_metrics;
    QString html;
    html += heading(LabColors::from(palette()), tr("Acceptance"));
    if (m_empty) {
        html += line(tr("Play a round to fill in the numbers.").toHtmlEscaped());
    } else {
        html += line(QStringLiteral("α̂ = %1 / %2 = <b>%3</b>").arg(m.accepted).arg(m.tested).arg(n(m.acceptanceRate)));
        html += line(tr("α = E[Σ min(p, q)] = 1 − E[TV]; mean β here: <b>%1</b>").arg(n(m.meanOverlap)));
    }
    html += m_tree.empty() ? chainFormulas() : treeFormulas();
    html += heading(LabColors::from(palette()), tr("Reference"));
    html += line(tr("α = 0.8, K = 4 → E[N] = %1").arg(n(theory::expectedTokensPerRound(0.8, 4), 2)));
    if (html == m_html)
        return;
    m_html = html;
    const int scrolled = verticalScrollBar()->value(); // keep the reader's place while the numbers change
    setHtml(html);
    verticalScrollBar()->setValue(scrolled);
}

QString TheoryPanel::chainFormulas() const
{
    const LabColors c = LabColors::from(palette());
    const RunMetrics &m = m_metrics;
    const double a = m.acceptanceRate;
    const int k = m_k;
    QString html = heading(c, tr("Tokens per round"));
    const double en = theory::expectedTokensPerRound(a, k);
    html += line(QStringLiteral("E[N] = (1 − α<sup>K+1</sup>) / (1 − α)"));
    if (!m_empty) {
        html += line(
            QStringLiteral("= (1 − %1<sup>%2</sup>) / (1 − %1) = <b>%3</b>").arg(n(a, 2)).arg(k + 1).arg(n(en, 2)));
        html += line(tr("measured: <b>%1</b> tokens per round over %2 rounds").arg(n(m.tokensPerRound, 2)).arg(m.rounds));
    }
    html += heading(c, tr("Speedup (Leviathan et al. 2023, Thm 3.8)"));
    html += line(QStringLiteral("S = (1 − α<sup>K+1</sup>) / ((1 − α)(Kc + 1))"));
    if (m_empty)
        return html;
    const double s = theory::costModelSpeedup(a, k, m.costRatio);
    html += line(tr("c = T<sub>draft</sub> / T<sub>target</sub> = <b>%1</b>").arg(n(m.costRatio)));
    html += line(
        QStringLiteral("S = %1 / (%2 · %3 + 1) = <b>%4×</b>").arg(n(en, 2)).arg(k).arg(n(m.costRatio, 3)).arg(n(s, 2)));
    html += passesAndWallClock();
    const int best = theory::optimalDraftLength(a, m.costRatio);
    html += line(tr("best K at this α and c: <b>%1</b> (S = %2×)")
                     .arg(best)
                     .arg(n(theory::costModelSpeedup(a, best, m.costRatio), 2)));
    return html;
}

QString TheoryPanel::treeFormulas() const
{
    const LabColors c = LabColors::from(palette());
    const RunMetrics &m = m_metrics;
    QString html = heading(c, tr("Token tree (SpecInfer)"));
    html += line(tr("shape %1: %2 nodes drafted per round, all verified in <b>one</b> target pass")
                     .arg(QString::fromStdString(m_tree.describe()))
                     .arg(m_tree.nodeCount()));
    html += line(tr("a node's k children are drawn i.i.d. from q and tested one by one against p′:"));
    html += line(QStringLiteral(
        "P(accept one) = 1 − Π<sub>j=1..k</sub> (1 − β<sub>j</sub>), β<sub>j</sub> = Σ min(p<sub>j</sub>, q), "
        "p<sub>j+1</sub> = norm(max(0, p<sub>j</sub> − q))"));
    if (!m_lastExact.empty()) {
        QStringList depths;
        for (double v : m_lastExact)
            depths << n(v, 2);
        html += line(tr("last round, per tested depth: <b>%1</b>").arg(depths.join(QStringLiteral(" · "))));
    }
    html += heading(c, tr("Tokens per round"));
    if (m_empty)
        return html;
    html += line(tr("measured: <b>%1</b> tokens per round (one target pass each) over %2 rounds")
                     .arg(n(m.tokensPerRound, 2))
                     .arg(m.rounds));
    const int depth = m_tree.depth();
    html += line(tr("a chain of the same depth at this α: E[N] = (1 − α<sup>%1</sup>) / (1 − α) = <b>%2</b>")
                     .arg(depth + 1)
                     .arg(n(theory::expectedTokensPerRound(m.acceptanceRate, depth), 2)));
    if (m.accepted > 0)
        html += line(
            tr("nodes drafted per accepted token: <b>%1</b>").arg(n(static_cast<double>(m_nodesDrafted) / m.accepted, 2)));
    html += passesAndWallClock();
    html += line(tr("Thm 3.8 and its best K are for chains (one draft per depth); a tree pays more draft and "
                    "verification work for each pass.")
                     .toHtmlEscaped());
    return html;
}

QString TheoryPanel::passesAndWallClock() const
{
    const RunMetrics &m = m_metrics;
    QString html = line(tr("target passes: %1 tokens / %2 passes = <b>%3×</b>")
                            .arg(m.generatedTokens)
                            .arg(m.targetCalls)
                            .arg(n(m.speedupForwardPasses, 2)));
    if (m.targetCalls > m.rounds) // tokens per round counts rounds, this counts passes: say why they differ
        html += line(tr("%1 passes more than rounds: past its context the target refills its window (one more "
                        "pass each), so tokens per pass is below tokens per round")
                         .arg(m.targetCalls - m.rounds)
                         .toHtmlEscaped());
    if (m.speedupWallClock)
        html += line(tr("wall clock: <b>%1×</b>").arg(n(*m.speedupWallClock, 2)));
    return html;
}

void TheoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QTextBrowser::changeEvent(event);
}

} // namespace specdec::gui
