// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabFromRound.h"

#include "RoundRecord.h"
#include "TokenText.h"
#include "TopTokens.h"
#include "TreeTrace.h"

namespace specdec::gui {

std::optional<LabDistributions> labDistributionsOf(const RoundRecord &record, const Tokenizer &vocabulary,
                                                   const QString &othersLabel)
{
    if (record.trace.positions.empty())
        return std::nullopt;
    const DraftPosition &pos = record.trace.positions.front();
    const Eigen::VectorXd *pDist = &pos.pDist, *qDist = &pos.qDist;
    if (const TreeTrace *tree = record.tree.get()) // a tree round: p and q at the context (its root)
        for (const TreeExpansion &e : tree->expansions)
            if (e.node == -1) {
                pDist = &e.p;
                qDist = &e.q;
            }
    if (pDist->size() == 0 || qDist->size() != pDist->size())
        return std::nullopt;
    // The 9 tokens most likely under p or q, and the rest of the vocabulary as one "others" bar.
    const TopTokens top = topTokens({pDist, qDist}, 9);
    LabDistributions lab;
    lab.p = QVector<double>(top.values[0].begin(), top.values[0].end());
    lab.q = QVector<double>(top.values[1].begin(), top.values[1].end());
    for (TokenId t : top.tokens)
        lab.labels << elidedPiece(tokenGlyph(vocabulary, t), 8);
    if (lab.p.back() > 1e-9 || lab.q.back() > 1e-9) {
        lab.labels << othersLabel;
    } else {
        lab.p.removeLast();
        lab.q.removeLast();
    }
    return lab;
}

} // namespace specdec::gui
