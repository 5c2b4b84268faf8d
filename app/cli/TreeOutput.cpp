// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeOutput.h"

#include "JsonReport.h"
#include "Output.h"

#include <QCoreApplication>

namespace specdec::cli {

namespace {

QString token(const Vocabulary &v, TokenId id)
{
    return visible(app::tokenToString(v, id));
}

} // namespace

void printTreeRound(const TreeTrace &t, const Vocabulary &v)
{
    std::vector<TokenId> path;
    for (int n : t.acceptedPath)
        path.push_back(t.nodes[static_cast<std::size_t>(n)].token);
    QString line = tr("round %1  tree %2 (%3 nodes)  accepted \"%4\" %5/%6")
                       .arg(t.index + 1, 4)
                       .arg(QString::fromStdString(t.shape.describe()))
                       .arg(t.nodes.size())
                       .arg(visible(app::tokensToString(v, path)))
                       .arg(t.acceptedCount())
                       .arg(t.shape.depth());
    if (t.stoppedAtDepth >= 0)
        line += tr("  all children rejected at depth %1 -> correction '%2'")
                    .arg(t.stoppedAtDepth)
                    .arg(token(v, t.correction));
    else
        line += tr("  bonus '%1'").arg(token(v, t.bonus));
    line += tr("  +%1 tokens").arg(t.committed.size());
    out() << line << '\n';
}

void printTreeNodes(const TreeTrace &t, const Vocabulary &v)
{
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const TreeNode &n = t.nodes[i];
        QString line = QString(2 * n.depth, QLatin1Char(' '))
            + tr("#%1 '%2' q=%3 p=%4 %5").arg(i).arg(token(v, n.token)).arg(n.q, 0, 'f', 3).arg(n.p, 0, 'f', 3)
                  .arg(QLatin1String(verdictName(n.verdict)));
        if (n.verdict != Verdict::Discarded)
            line += tr("  p'=%1 min(1,p'/q)=%2 u=%3")
                        .arg(n.pUsed, 0, 'f', 3)
                        .arg(n.threshold, 0, 'f', 3)
                        .arg(n.u >= 0.0 ? QString::number(n.u, 'f', 3) : QStringLiteral("-"));
        out() << line << '\n';
    }
}

void printTreeSummary(const TreeMetrics &m)
{
    out() << tr("rounds %1, target calls %2, draft calls %3, drafted nodes %4, accepted %5")
                 .arg(m.rounds)
                 .arg(m.targetCalls)
                 .arg(m.draftCalls)
                 .arg(m.drafted)
                 .arg(m.accepted)
          << '\n';
    out() << tr("tokens per target call %1, accepted per target call %2, nodes drafted per accepted token %3")
                 .arg(m.tokensPerTargetCall, 0, 'f', 3)
                 .arg(m.acceptedPerTargetCall, 0, 'f', 3)
                 .arg(m.nodesPerAcceptedToken, 0, 'f', 2)
          << '\n';
    out() << tr("acceptance per depth: %1; one node: measured %2, exact 1 - prod(1 - beta_j) %3")
                 .arg(rates(m.perDepthAcceptance))
                 .arg(m.measuredNodeAcceptance, 0, 'f', 3)
                 .arg(m.exactNodeAcceptance, 0, 'f', 3)
          << '\n';
    const QString wall = m.speedupWallClock ? QString::number(*m.speedupWallClock, 'f', 2) + QLatin1Char('x')
                                            : tr("not measured (add --baseline)");
    out() << tr("seconds %1 (target %2, draft %3), wall-clock speedup %4")
                 .arg(m.seconds, 0, 'f', 3)
                 .arg(m.targetSeconds, 0, 'f', 3)
                 .arg(m.draftSeconds, 0, 'f', 3)
                 .arg(wall)
          << '\n';
}

} // namespace specdec::cli
