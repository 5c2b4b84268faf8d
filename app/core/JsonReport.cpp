// SPDX-License-Identifier: GPL-3.0-or-later
#include "JsonReport.h"

#include "Theory.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace specdec::app {

namespace {

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonArray topEntries(const Eigen::VectorXd &dist, const Tokenizer &vocabulary, int count)
{
    std::vector<int> ids(static_cast<std::size_t>(dist.size()));
    std::iota(ids.begin(), ids.end(), 0);
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(count), ids.size());
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(),
                      [&](int a, int b) { return dist[a] > dist[b] || (dist[a] == dist[b] && a < b); });
    QJsonArray out;
    for (std::size_t i = 0; i < n; ++i)
        out.append(QJsonObject{{QStringLiteral("token"), tokenToString(vocabulary, ids[i])},
                               {QStringLiteral("prob"), dist[ids[i]]}});
    return out;
}

QString tokenToString(const Tokenizer &vocabulary, TokenId id)
{
    if (id < 0)
        return {};
    return QString::fromStdString(vocabulary.display(id));
}

QString tokensToString(const Tokenizer &vocabulary, std::span<const TokenId> ids, std::span<const TokenId> context)
{
    return QString::fromStdString(vocabulary.decodeAfter(context, ids));
}

QString piecesToString(const Tokenizer &vocabulary, std::span<const TokenId> ids)
{
    if (vocabulary.kind() == Tokenizer::Kind::Chars)
        return tokensToString(vocabulary, ids);
    QString out;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0)
            out += QLatin1Char('|');
        out += tokenToString(vocabulary, ids[i]);
    }
    return out;
}

namespace {

QJsonObject cacheJson(const CacheLengths &c)
{
    return {{QStringLiteral("before"), c.before},   {QStringLiteral("extended"), c.extended},
            {QStringLiteral("after"), c.after},     {QStringLiteral("discarded"), c.discarded},
            {QStringLiteral("refills"), c.refills}, {QStringLiteral("fed"), c.fed}};
}

} // namespace

QJsonArray tokenIdsJson(std::span<const TokenId> tokens)
{
    QJsonArray ids;
    for (TokenId t : tokens)
        ids.append(t);
    return ids;
}

QJsonObject reportJson(const RunReport &r, const Tokenizer &vocabulary, std::span<const TokenId> text,
                       std::span<const TokenId> baselineText, std::span<const TokenId> prompt)
{
    const RunMetrics &m = r.metrics;
    QJsonArray perPosition, perPositionTested;
    for (double a : m.perPositionAcceptance)
        perPosition.append(number(a));
    for (int n : m.perPositionTested)
        perPositionTested.append(n);
    QJsonObject speedup{{QStringLiteral("forward_passes"), m.speedupForwardPasses},
                        {QStringLiteral("cost_model"), number(m.speedupCostModel)}};
    speedup.insert(QStringLiteral("wall_clock"), m.speedupWallClock ? number(*m.speedupWallClock) : QJsonValue());
    const QJsonObject theory{
        {QStringLiteral("alpha"), m.acceptanceRate},
        {QStringLiteral("k"), r.draftLength},
        {QStringLiteral("expected_tokens_per_round"), m.expectedTokensPerRound},
        {QStringLiteral("cost_model_speedup"), number(m.speedupCostModel)},
        {QStringLiteral("optimal_k"),
         std::isfinite(m.costRatio) ? QJsonValue(theory::optimalDraftLength(m.acceptanceRate, m.costRatio))
                                    : QJsonValue()},
    };
    QJsonValue baseline;
    if (r.baseline)
        baseline = QJsonObject{
            {QStringLiteral("tokens"), r.baseline->tokens},
            {QStringLiteral("seconds"), r.baseline->seconds},
            {QStringLiteral("tokens_per_second"), r.baseline->tokensPerSecond()},
            {QStringLiteral("target_calls"), static_cast<double>(r.baseline->target.calls)},
            {QStringLiteral("step_seconds"), r.baseline->stepSeconds()},
            {QStringLiteral("same_text"), std::equal(text.begin(), text.end(), baselineText.begin(), baselineText.end())},
        };
    return {
        {QStringLiteral("decoder"), r.isTree() ? QStringLiteral("tree") : QStringLiteral("chain")},
        {QStringLiteral("k"), r.draftLength},
        {QStringLiteral("tree"), r.isTree() ? QJsonValue(QString::fromStdString(r.tree.describe())) : QJsonValue()},
        {QStringLiteral("text"), tokensToString(vocabulary, text, prompt)},
        {QStringLiteral("token_ids"), tokenIdsJson(text)},
        {QStringLiteral("generated_tokens"), r.tokens},
        {QStringLiteral("end_of_text"), r.endOfText},
        {QStringLiteral("seconds"), r.seconds},
        {QStringLiteral("tokens_per_second"), r.tokensPerSecond()},
        {QStringLiteral("rounds"), m.rounds},
        {QStringLiteral("target_calls"), static_cast<double>(m.targetCalls)},
        {QStringLiteral("draft_calls"), static_cast<double>(m.draftCalls)},
        {QStringLiteral("drafted"), m.drafted},
        {QStringLiteral("nodes_drafted"), static_cast<double>(r.nodesDrafted)},
        {QStringLiteral("verified_positions"), static_cast<double>(r.verifiedPositions)},
        {QStringLiteral("tested"), m.tested},
        {QStringLiteral("accepted"), m.accepted},
        {QStringLiteral("acceptance_rate"), m.acceptanceRate},
        {QStringLiteral("draft_acceptance"), m.draftAcceptance},
        {QStringLiteral("per_position_acceptance"), perPosition},
        {QStringLiteral("per_position_tested"), perPositionTested},
        {QStringLiteral("tokens_per_round"), m.tokensPerRound},
        {QStringLiteral("nodes_per_accepted_token"), r.nodesPerAcceptedToken()},
        {QStringLiteral("mean_overlap_beta"), m.meanOverlap},
        {QStringLiteral("mean_total_variation"), m.meanTotalVariation},
        {QStringLiteral("theory"), theory},
        {QStringLiteral("speedup"), speedup},
        {QStringLiteral("cost_ratio_c"), number(m.costRatio)},
        {QStringLiteral("target_seconds"), m.targetSeconds},
        {QStringLiteral("draft_seconds"), m.draftSeconds},
        {QStringLiteral("mean_target_call_seconds"), r.target.secondsPerCall()},
        {QStringLiteral("mean_draft_call_seconds"), r.draft.secondsPerCall()},
        {QStringLiteral("cache"),
         QJsonObject{{QStringLiteral("target_discarded"), static_cast<double>(m.targetDiscarded)},
                     {QStringLiteral("draft_discarded"), static_cast<double>(m.draftDiscarded)},
                     {QStringLiteral("discarded"), static_cast<double>(m.cacheDiscarded)},
                     {QStringLiteral("refills"), static_cast<double>(m.cacheRefills)},
                     {QStringLiteral("target_fed"), static_cast<double>(m.targetFed)},
                     {QStringLiteral("rejected_compute_share"), m.rejectedComputeShare}}},
        {QStringLiteral("baseline"), baseline},
    };
}

QJsonObject verificationJson(const VerificationCost &prompt, const RunMetrics &m, int k)
{
    QJsonArray v;
    for (double x : prompt.v)
        v.append(x);
    // The predictions use one c and one V(K+1): the run's own when it has a baseline (calibratedCost).
    const VerificationCost cost = calibratedCost(prompt, m, k);
    const double vk = k < static_cast<int>(cost.v.size()) ? cost.v[static_cast<std::size_t>(k)] : cost.v.back();
    return {
        {QStringLiteral("kv_cache"), prompt.kvCache},
        {QStringLiteral("verification_cost"), v},
        {QStringLiteral("target_step_seconds"), prompt.seconds.front()},
        {QStringLiteral("draft_step_seconds"), prompt.draftSeconds},
        {QStringLiteral("c_step"), prompt.c},
        {QStringLiteral("costs_from_run"), cost.fromRun},
        {QStringLiteral("verification_cost_k1"), vk},
        {QStringLiteral("c"), cost.c},
        {QStringLiteral("generalised_speedup"), theory::generalisedSpeedup(m.acceptanceRate, k, cost.c, vk)},
        {QStringLiteral("leviathan_speedup"), theory::costModelSpeedup(m.acceptanceRate, k, cost.c)},
        {QStringLiteral("optimal_k_generalised"), theory::optimalDraftLengthMeasured(m.acceptanceRate, cost.c, cost.v)},
        {QStringLiteral("optimal_k_leviathan"),
         theory::optimalDraftLength(m.acceptanceRate, cost.c, static_cast<int>(cost.v.size()) - 1)},
    };
}

QStringList verificationKeys()
{
    VerificationCost none; // the keys of verificationJson, from the function itself
    none.v = {1.0};
    none.seconds = {0.0};
    return verificationJson(none, RunMetrics{}, 0).keys();
}

QJsonObject traceJson(const RoundTrace &t, const Tokenizer &vocabulary, int top)
{
    QJsonArray positions;
    for (const DraftPosition &pos : t.positions) {
        QJsonObject o{
            {QStringLiteral("token"), tokenToString(vocabulary, pos.token)},
            {QStringLiteral("q"), pos.q},
            {QStringLiteral("p"), pos.p},
            {QStringLiteral("ratio"), number(pos.ratio)},
            {QStringLiteral("threshold"), pos.threshold},
            {QStringLiteral("u"), pos.u >= 0.0 ? QJsonValue(pos.u) : QJsonValue()},
            {QStringLiteral("verdict"), QLatin1String(verdictName(pos.verdict))},
            {QStringLiteral("beta"), pos.overlap},
            {QStringLiteral("tv"), pos.totalVariation},
        };
        if (pos.pDist.size() > 0) {
            o.insert(QStringLiteral("p_top"), topEntries(pos.pDist, vocabulary, top));
            o.insert(QStringLiteral("q_top"), topEntries(pos.qDist, vocabulary, top));
        }
        positions.append(o);
    }
    QJsonObject o{
        {QStringLiteral("round"), t.index + 1},
        {QStringLiteral("context_length"), t.contextLength},
        {QStringLiteral("k"), t.draftLength},
        {QStringLiteral("greedy"), t.greedy},
        {QStringLiteral("positions"), positions},
        {QStringLiteral("rejected_at"), t.rejectedAt >= 0 ? QJsonValue(t.rejectedAt) : QJsonValue()},
        {QStringLiteral("correction"),
         t.correction >= 0 ? QJsonValue(tokenToString(vocabulary, t.correction)) : QJsonValue()},
        {QStringLiteral("bonus"), t.bonus >= 0 ? QJsonValue(tokenToString(vocabulary, t.bonus)) : QJsonValue()},
        {QStringLiteral("committed"), piecesToString(vocabulary, t.committed)},
        {QStringLiteral("target_calls"), t.targetCalls},
        {QStringLiteral("draft_calls"), t.draftCalls},
        {QStringLiteral("target_seconds"), t.targetSeconds},
        {QStringLiteral("draft_seconds"), t.draftSeconds},
        {QStringLiteral("teaching_seconds"), t.teachingSeconds},
        {QStringLiteral("target_cache"), cacheJson(t.targetCache)},
        {QStringLiteral("draft_cache"), cacheJson(t.draftCache)},
    };
    if (t.residual.size() > 0)
        o.insert(QStringLiteral("residual_top"), topEntries(t.residual, vocabulary, top));
    if (t.bonusDist.size() > 0)
        o.insert(QStringLiteral("bonus_top"), topEntries(t.bonusDist, vocabulary, top));
    return o;
}

QJsonObject distributionJson(const Eigen::VectorXd &dist, const Tokenizer &vocabulary)
{
    QJsonArray tokens;
    QJsonArray probs;
    for (Eigen::Index i = 0; i < dist.size(); ++i) {
        tokens.append(tokenToString(vocabulary, static_cast<TokenId>(i)));
        probs.append(dist[i]);
    }
    return {{QStringLiteral("tokens"), tokens}, {QStringLiteral("probs"), probs}};
}

} // namespace specdec::app
