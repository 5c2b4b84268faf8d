// SPDX-License-Identifier: GPL-3.0-or-later
#include "ShowMe.h"

#include "ArenaRunner.h"
#include "LosslessLabView.h"
#include "Player.h"
#include "QuizView.h"
#include "SessionController.h"
#include "Theory.h"
#include "TheoryExplorer.h"

#include <QTextDocumentFragment>

#include <cmath>

namespace specdec::gui {

ShowMe::ShowMe(QuizView *quiz, Sources sources, QObject *parent)
    : QObject(parent)
    , m_quiz(quiz)
    , m_sources(sources)
{
}

void ShowMe::begin(int index)
{
    m_question = index;
    m_quiz->setShowMeResult(QString());
}

void ShowMe::update()
{
    if (m_question < 0 || m_question != m_quiz->currentQuestion())
        return;
    const app::Demonstration &demo = m_quiz->quiz().questions[m_question].showMe;
    const TheoryExplorer &explorer = *m_sources.theory;
    const ArenaRunner &arena = *m_sources.arena;
    const LosslessLabView &labView = *m_sources.lab;
    QStringList lines;
    auto number = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"); };
    if (demo.theory)
        lines << tr("Theory at α = %1, K = %2: E[N] = %3 tokens per round.")
                     .arg(number(explorer.alpha()))
                     .arg(explorer.k())
                     .arg(number(theory::expectedTokensPerRound(explorer.alpha(), explorer.k())));
    const int round = m_sources.player->round();
    const RoundHistory &history = m_sources.session->history();
    if (demo.opens("window") && history.contains(round)) {
        // The run up to the round on screen (the engine may have played ahead).
        const RunMetrics &m = history.at(round).cumulative;
        lines << tr("Measured run: %1 rounds, %2 tokens in %3 target passes, α\u200D\u0302 = %4, %5 tokens per round.")
                     .arg(m.rounds)
                     .arg(m.generatedTokens)
                     .arg(m.targetCalls)
                     .arg(number(m.acceptanceRate), number(m.tokensPerRound));
    }
    if (demo.opens("arena")) {
        for (int i = 0; i < arena.laneCount(); ++i)
            if (!arena.history(i).empty()) {
                const RunMetrics &m = arena.history(i).back().cumulative;
                if (m.speedupWallClock) // what a class reads as "faster": the wall clock beside the passes
                    lines << tr("%1: α\u200D\u0302 = %2, %3 tokens per target pass, wall clock %4× (c = %5).")
                                 .arg(arena.info().lanes.value(i), number(m.acceptanceRate),
                                      number(m.speedupForwardPasses), number(*m.speedupWallClock), number(m.costRatio));
                else
                    lines << tr("%1: α\u200D\u0302 = %2, %3 tokens per target pass, c = %4.")
                                 .arg(arena.info().lanes.value(i), number(m.acceptanceRate),
                                      number(m.speedupForwardPasses), number(m.costRatio));
            }
    }
    const LabSnapshot &lab = labView.snapshot();
    if (demo.lab && lab.finished && lab.samples > 0) {
        const QVector<double> p = labView.p(), q = labView.q();
        const QStringList labels = labView.labels();
        for (int x = 0; x < p.size() && x < static_cast<int>(lab.accepted.size()); ++x)
            if (!demo.lab->p.isEmpty() && q[x] > p[x]) { // the first token the draft over-proposes
                const double drafted = static_cast<double>(lab.samples) * q[x];
                lines << tr("Token %1: p = %2 < q = %3, so p/q = %4; accepted %5 times of ≈ %6 drafts = %7.")
                             .arg(labels.value(x), number(p[x]), number(q[x]), number(p[x] / q[x]))
                             .arg(lab.accepted[static_cast<std::size_t>(x)])
                             .arg(qRound64(drafted))
                             .arg(number(static_cast<double>(lab.accepted[static_cast<std::size_t>(x)]) / drafted));
                break;
            }
        lines << QTextDocumentFragment::fromHtml(labView.verdictText()).toPlainText();
    }
    m_quiz->setShowMeResult(lines.join(QLatin1Char('\n')));
}

} // namespace specdec::gui
