// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeOutput.h"

#include "JsonReport.h"
#include "Output.h"

#include <QCoreApplication>

namespace specdec::cli {

namespace {

QString token(const Tokenizer &v, TokenId id)
{
    return visible(app::tokenToString(v, id));
}

} // namespace

void printTreeRound(const TreeTrace &t, const Tokenizer &v)
{
    std::vector<TokenId> path;
    for (int n : t.acceptedPath)
        path.push_back(t.nodes[static_cast<std::size_t>(n)].token);
    QString line = tr("round %1  tree %2 (%3 nodes)  accepted \"%4\" %5/%6")
                       .arg(t.index + 1, 4)
                       .arg(QString::fromStdString(t.shape.describe()))
                       .arg(t.nodes.size())
                       .arg(visible(app::piecesToString(v, path)))
                       .arg(t.acceptedCount())
                       .arg(t.shape.depth());
    if (t.stoppedAtDepth >= 0)
        line +=
            tr("  all children rejected at depth %1 -> correction '%2'").arg(t.stoppedAtDepth).arg(token(v, t.correction));
    else
        line += tr("  bonus '%1'").arg(token(v, t.bonus));
    line += tr("  +%1 tokens").arg(t.committed.size());
    out() << line << '\n';
}

void printTreeNodes(const TreeTrace &t, const Tokenizer &v)
{
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const TreeNode &n = t.nodes[i];
        QString line = QString(2 * n.depth, QLatin1Char(' '))
            + tr("#%1 '%2' q=%3 p=%4 %5")
                  .arg(i)
                  .arg(token(v, n.token))
                  .arg(n.q, 0, 'f', 3)
                  .arg(n.p, 0, 'f', 3)
                  .arg(QLatin1String(verdictName(n.verdict)));
        if (n.verdict != Verdict::Discarded)
            line += tr("  p'=%1 min(1,p'/q)=%2 u=%3")
                        .arg(n.pUsed, 0, 'f', 3)
                        .arg(n.threshold, 0, 'f', 3)
                        .arg(n.u >= 0.0 ? QString::number(n.u, 'f', 3) : QStringLiteral("-"));
        out() << line << '\n';
    }
}

} // namespace specdec::cli
