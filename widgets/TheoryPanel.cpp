// SPDX-License-Identifier: GPL-3.0-or-later
#include "TheoryPanel.h"

#include "LabColors.h"
#include "Theory.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

namespace {
QString n(double v, int digits = 3)
{
    return std::isfinite(v) ? QString::number(v, 'f', digits) : QStringLiteral("–"); // NaN: not measured
}

/// A time in ms or s with three significant digits (0.384, 14.2, 140): small times stay apart.
QString sig(double v)
{
    const double a = std::abs(v);
    return QString::number(v, 'f', a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
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
        html += line(
            QStringLiteral("α\u200D\u0302 = %1 / %2 = <b>%3</b>").arg(m.accepted).arg(m.tested).arg(n(m.acceptanceRate)));
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
    html += heading(c, tr("Speedup: target passes, predicted, measured"));
    html += line(QStringLiteral("S = E[N] / (V(K+1) + K·c)"));
    if (m_empty)
        return html;
    html += passesLine();
    html += predicted();
    html += wallClock();
    const int best = bestK();
    if (m_v.empty())
        html += line(tr("best K at this α and c: <b>%1</b> (S = %2×)")
                         .arg(best)
                         .arg(n(theory::costModelSpeedup(a, best, m.costRatio), 2)));
    else {
        const VerificationCost cost = costs();
        const int bestOneStep = theory::optimalDraftLength(a, cost.c, static_cast<int>(cost.v.size()) - 1);
        html += line(tr("best K with V and c measured here: <b>%1</b> (S = %2×); in the accelerator case (V = 1): "
                        "%3 (S = %4×)")
                         .arg(best)
                         .arg(n(theory::generalisedSpeedup(a, best, cost.c, verification(cost, best + 1)), 2))
                         .arg(bestOneStep)
                         .arg(n(theory::costModelSpeedup(a, bestOneStep, cost.c), 2)));
    }
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
    html += passesLine();
    html += wallClock();
    html += line(tr("Thm 3.8 and its best K are for chains (one draft per depth); a tree pays more draft and "
                    "verification work for each pass.")
                     .toHtmlEscaped());
    return html;
}

QString TheoryPanel::passesLine() const
{
    const RunMetrics &m = m_metrics;
    QString html = line(tr("target passes: %1 tokens / %2 passes = <b>%3×</b> — each pass of the target commits "
                           "the round's accepted drafts and one token of its own")
                            .arg(m.generatedTokens)
                            .arg(m.targetCalls)
                            .arg(n(m.speedupForwardPasses, 2)));
    if (m.targetCalls > m.rounds) // tokens per round counts rounds, this counts passes: say why they differ
        html += line(tr("%1 passes more than rounds: past its context the target refills its window (one more "
                        "pass each), so tokens per pass is below tokens per round")
                         .arg(m.targetCalls - m.rounds)
                         .toHtmlEscaped());
    return html;
}

QString TheoryPanel::predicted() const
{
    const RunMetrics &m = m_metrics;
    const int k = m_k;
    const double en = theory::expectedTokensPerRound(m.acceptanceRate, k);
    if (m_v.empty()) // nothing measured at load: Theorem 3.8 with the run's ratio of call times
        return line(tr("predicted (Thm 3.8, V = 1): S = E[N] / (1 + K·c) = %1 / (1 + %2 · %3) = <b>%4×</b>, "
                       "c = T<sub>draft</sub> / T<sub>target</sub> per call in this run")
                        .arg(n(en, 2))
                        .arg(k)
                        .arg(n(m.costRatio, 3))
                        .arg(n(theory::costModelSpeedup(m.acceptanceRate, k, m.costRatio), 2)));
    const VerificationCost cost = costs();
    const double v = verification(cost, k + 1);
    const QString sum = QStringLiteral("%1 / (%2 + %3 · %4) = <b>%5×</b>")
                            .arg(n(en, 2), n(v, 2))
                            .arg(k)
                            .arg(n(cost.c, 3), n(theory::generalisedSpeedup(m.acceptanceRate, k, cost.c, v), 2));
    QString html;
    if (cost.fromRun) // one c and one V on the panel: this run's calls (calibratedCost)
        html = line(tr("predicted: E[N] / (V(K+1) + K·c) = %1 — a round's cost in target steps: in this run a "
                       "verification of %2 positions took V(%2) = %3 baseline steps and a draft call c = %4 of a step")
                        .arg(sum)
                        .arg(k + 1)
                        .arg(n(v, 2), n(cost.c, 3)));
    else
        html = line(tr("predicted: E[N] / (V(K+1) + K·c) = %1 — a round's cost in target steps, with V(%2) = %3 "
                       "(verifying %2 positions) and c = T<sub>draft</sub>(1) / T<sub>target</sub>(1) = %4 measured "
                       "before the first round, where a %5-token run's calls are")
                        .arg(sum)
                        .arg(k + 1)
                        .arg(n(v, 2), n(cost.c, 3))
                        .arg(m_probedTokens));
    html += line(tr("accelerator case (V = 1, Thm 3.8): %1 / (1 + %2 · %3) = %4× — where verifying %5 positions "
                    "costs one step, as on a memory-bound GPU")
                     .arg(n(en, 2))
                     .arg(k)
                     .arg(n(cost.c, 3))
                     .arg(n(theory::costModelSpeedup(m.acceptanceRate, k, cost.c), 2))
                     .arg(k + 1));
    return html;
}

QString TheoryPanel::wallClock() const
{
    const RunMetrics &m = m_metrics;
    QString html;
    if (m.speedupWallClock) {
        const double baselineSeconds = *m.speedupWallClock * m.seconds;
        html += line(tr("measured: baseline time / speculative time = %1 s / %2 s = <b>%3×</b> (wall clock)")
                         .arg(sig(baselineSeconds))
                         .arg(sig(m.seconds))
                         .arg(n(*m.speedupWallClock, 2)));
    }
    if (!m_kvCache)
        html += line(kvCacheOffNote().toHtmlEscaped());
    html += costBreakdown();
    return html;
}

QString TheoryPanel::kvCacheOffNote()
{
    // 19.7× (target) and 19.4× (target-large) on 300 tokens: specdec bench --kv-cache-speedup, 1 thread
    return tr("KV cache off: every call recomputes its window; the baseline is then the uncached decoder, about "
              "20× slower than a real engine on 300 tokens of kjv, so the wall clock flatters speculation.");
}

QString TheoryPanel::costBreakdown() const
{
    const RunMetrics &m = m_metrics;
    if (m.targetCalls == 0 || m.generatedTokens == 0)
        return {};
    auto ms = [](double seconds, double calls) { return calls > 0 ? 1000.0 * seconds / calls : 0.0; };
    const double verifyMs = ms(m.targetSeconds, static_cast<double>(m.targetCalls));
    const double draftMs = ms(m.draftSeconds, static_cast<double>(m.draftCalls));
    if (!m.speedupWallClock || m.seconds <= 0.0)
        return line(tr("ms per call: draft %1 · verification %2").arg(sig(draftMs), sig(verifyMs)));
    const double baselineSeconds = *m.speedupWallClock * m.seconds;
    const double stepMs = ms(baselineSeconds, m.generatedTokens); // the baseline: one target step per token
    QString html = line(
        tr("ms per call: draft %1 · verification %2 · baseline step %3").arg(sig(draftMs), sig(verifyMs), sig(stepMs)));
    html += line(tr("tokens per second: speculative %1 · target alone %2")
                     .arg(n(m.generatedTokens / m.seconds, 1), n(m.generatedTokens / baselineSeconds, 1)));
    if (*m.speedupWallClock < 1.0 && m.rounds > 0 && stepMs > 0.0) {
        const double roundMs = ms(m.seconds, m.rounds);
        const double draftsPerRound = static_cast<double>(m.draftCalls) / m.rounds;
        html += line(tr("Why slower: a round takes %1 ms (a verification of %2 positions, %3 ms = %4 baseline steps, "
                        "and %5 draft calls, %6 ms) for %7 tokens, %8 ms per token; the target alone takes %9 ms per "
                        "token. A pass is not free here.")
                         .arg(sig(roundMs))
                         .arg(m_tree.empty() ? m_k + 1 : m_tree.nodeCount() + 1)
                         .arg(sig(verifyMs))
                         .arg(n(verifyMs / stepMs, 1))
                         .arg(n(draftsPerRound, 1))
                         .arg(sig(draftsPerRound * draftMs))
                         .arg(n(m.tokensPerRound, 2))
                         .arg(sig(roundMs / m.tokensPerRound))
                         .arg(sig(stepMs))
                         .toHtmlEscaped());
    }
    return html;
}

void TheoryPanel::setMachineCost(std::vector<double> v, double c, bool kvCache, int probedTokens)
{
    m_v = std::move(v);
    m_c = c;
    m_kvCache = kvCache;
    m_probedTokens = probedTokens;
    render();
}

VerificationCost TheoryPanel::costs() const
{
    VerificationCost prompt;
    prompt.v = m_v;
    prompt.c = m_c;
    prompt.kvCache = m_kvCache;
    return m_v.empty() ? prompt : calibratedCost(prompt, m_metrics, m_k);
}

double TheoryPanel::verification(const VerificationCost &cost, int m)
{
    const std::vector<double> &v = cost.v;
    const int size = static_cast<int>(v.size());
    if (m < 1 || size == 0)
        return 1.0;
    if (m <= size)
        return v[static_cast<std::size_t>(m - 1)];
    const double slope = size >= 2 ? std::max(0.0, v[size - 1] - v[size - 2]) : 0.0;
    return v[static_cast<std::size_t>(size - 1)] + slope * (m - size);
}

int TheoryPanel::bestK() const
{
    const double a = m_metrics.acceptanceRate;
    if (m_v.empty())
        return theory::optimalDraftLength(a, m_metrics.costRatio);
    const VerificationCost cost = costs();
    return theory::optimalDraftLengthMeasured(a, cost.c, cost.v);
}

void TheoryPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        render();
    QTextBrowser::changeEvent(event);
}

} // namespace specdec::gui
