// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeJson.h"

#include "JsonReport.h"

#include <QJsonArray>

namespace specdec::app {

QJsonObject treeTraceJson(const TreeTrace &t, const Tokenizer &vocabulary, int top)
{
    QJsonArray nodes;
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
        const TreeNode &n = t.nodes[i];
        QJsonObject o{
            {QStringLiteral("id"), static_cast<int>(i)},
            {QStringLiteral("parent"), n.parent >= 0 ? QJsonValue(n.parent) : QJsonValue()},
            {QStringLiteral("depth"), n.depth},
            {QStringLiteral("sibling"), n.sibling},
            {QStringLiteral("token"), tokenToString(vocabulary, n.token)},
            {QStringLiteral("q"), n.q},
            {QStringLiteral("p"), n.p},
            {QStringLiteral("verdict"), QLatin1String(verdictName(n.verdict))},
        };
        if (n.verdict != Verdict::Discarded) {
            o.insert(QStringLiteral("p_used"), n.pUsed);
            o.insert(QStringLiteral("threshold"), n.threshold);
            o.insert(QStringLiteral("u"), n.u >= 0.0 ? QJsonValue(n.u) : QJsonValue());
        }
        if (n.pUsedDist.size() > 0)
            o.insert(QStringLiteral("p_used_top"), topEntries(n.pUsedDist, vocabulary, top));
        nodes.append(o);
    }
    QJsonArray path, exact, expansions;
    for (int n : t.acceptedPath)
        path.append(n);
    for (double a : t.exactNodeAcceptance)
        exact.append(a);
    for (const TreeExpansion &e : t.expansions)
        expansions.append(QJsonObject{{QStringLiteral("node"), e.node >= 0 ? QJsonValue(e.node) : QJsonValue()},
                                      {QStringLiteral("q_top"), topEntries(e.q, vocabulary, top)},
                                      {QStringLiteral("p_top"), topEntries(e.p, vocabulary, top)}});
    QJsonObject o{
        {QStringLiteral("round"), t.index + 1},
        {QStringLiteral("context_length"), t.contextLength},
        {QStringLiteral("tree"), QString::fromStdString(t.shape.describe())},
        {QStringLiteral("variant"), QString::fromStdString(treeVariantName(t.variant))},
        {QStringLiteral("greedy"), t.greedy},
        {QStringLiteral("nodes"), nodes},
        {QStringLiteral("accepted_path"), path},
        {QStringLiteral("stopped_at_depth"), t.stoppedAtDepth >= 0 ? QJsonValue(t.stoppedAtDepth) : QJsonValue()},
        {QStringLiteral("correction"),
         t.correction >= 0 ? QJsonValue(tokenToString(vocabulary, t.correction)) : QJsonValue()},
        {QStringLiteral("bonus"), t.bonus >= 0 ? QJsonValue(tokenToString(vocabulary, t.bonus)) : QJsonValue()},
        {QStringLiteral("committed"), piecesToString(vocabulary, t.committed)},
        {QStringLiteral("exact_node_acceptance"), exact},
        {QStringLiteral("target_calls"), t.targetCalls},
        {QStringLiteral("draft_calls"), t.draftCalls},
        {QStringLiteral("target_rows"), t.targetRows},
        {QStringLiteral("target_seconds"), t.targetSeconds},
        {QStringLiteral("draft_seconds"), t.draftSeconds},
    };
    if (!expansions.isEmpty())
        o.insert(QStringLiteral("expansions"), expansions);
    if (t.residual.size() > 0)
        o.insert(QStringLiteral("residual_top"), topEntries(t.residual, vocabulary, top));
    if (t.bonusDist.size() > 0)
        o.insert(QStringLiteral("bonus_top"), topEntries(t.bonusDist, vocabulary, top));
    return o;
}

} // namespace specdec::app
