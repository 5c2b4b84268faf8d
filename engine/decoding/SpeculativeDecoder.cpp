// SPDX-License-Identifier: GPL-3.0-or-later
#include "SpeculativeDecoder.h"

#include "Error.h"
#include "ScopedSeconds.h"
#include "TestedDistribution.h"

#include <algorithm>

namespace specdec {

void DecodingSettings::validate() const
{
    if (draftLength < 1 || draftLength > 64)
        throw Error("draft length K must be between 1 and 64, got " + std::to_string(draftLength));
    target.validate();
    draft.validate();
    if (!tree.empty() && policy.kind != DraftPolicy::Kind::Constant)
        throw Error("a token tree drafts its whole shape every round; the draft policy must be constant, got "
                    + policy.describe());
}

SpeculativeDecoder::SpeculativeDecoder(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings)
    : m_target(target)
    , m_draft(draft)
    , m_settings(settings)
    , m_testSampler(testSampler(settings.variant, settings.draft))
    , m_length(settings.policy, settings.draftLength)
    , m_targetState(target.newState(settings.kvCache))
    , m_draftState(draft.newState(settings.kvCache))
    , m_rng(settings.seed)
{
    m_settings.validate();
    Tokenizer::requireSame(target.tokenizer(), draft.tokenizer());
}

RoundTrace SpeculativeDecoder::round(std::vector<TokenId> &sequence, int budget)
{
    const int maxDrafts = std::clamp(budget, 1, m_length.plannedLength());
    const int vocabularySize = m_target.tokenizer().size();
    const bool greedy = m_settings.target.greedy() && m_settings.variant == Variant::Correct;
    const bool separateTest = m_testSampler != m_settings.draft;
    const CallStats targetBefore = m_target.stats();
    const CallStats draftBefore = m_draft.stats();

    RoundTrace trace;
    trace.index = m_rounds++;
    trace.contextLength = static_cast<int>(sequence.size());
    trace.greedy = greedy;
    const DecodingStateStats targetStateBefore = m_targetState->stats();
    const DecodingStateStats draftStateBefore = m_draftState->stats();
    m_targetState->followTo(sequence);
    m_draftState->followTo(sequence);
    trace.targetCache.before = m_targetState->length();
    trace.draftCache.before = m_draftState->length();

    // 1. Draft: up to K calls of the small model, each token sampled from the q the draft sampler made.
    m_q.resize(maxDrafts, vocabularySize);
    m_qTest.resize(separateTest ? maxDrafts : 0, vocabularySize);
    int k = 0;
    while (k < maxDrafts) {
        m_draftState->extend(
            std::span<const TokenId>(sequence).subspan(static_cast<std::size_t>(m_draftState->length())), 1, m_draftRow);
        m_q.row(k) = m_draftRow.row(0);
        applySampler(m_settings.draft, m_q.row(k).transpose());
        if (!m_length.draftNext(k, m_q.row(k).maxCoeff()))
            break;
        if (separateTest) {
            m_qTest.row(k) = m_draftRow.row(0);
            applySampler(m_testSampler, m_qTest.row(k).transpose());
        }
        const TokenId x = m_rng.categorical(m_q.row(k).transpose());
        trace.positions.emplace_back().token = x;
        sequence.push_back(x);
        ++k;
        if (!m_length.continueAfter(m_q(k - 1, x)))
            break;
    }
    trace.draftLength = k;
    trace.draftCache.extended = m_draftState->length();

    // 2. Verify: one target call scores all K + 1 positions (the target's state grows by them).
    m_targetState->extend(std::span<const TokenId>(sequence).subspan(static_cast<std::size_t>(m_targetState->length())),
                          k + 1, m_p);
    trace.targetCache.extended = m_targetState->length();
    for (int i = 0; i <= k; ++i)
        applySampler(m_settings.target, m_p.row(i).transpose());
    sequence.resize(static_cast<std::size_t>(trace.contextLength));

    // 3. Test each drafted token in order; stop at the first rejection.
    for (int i = 0; i < k; ++i) {
        DraftPosition &pos = trace.positions[static_cast<std::size_t>(i)];
        const auto p = m_p.row(i).transpose();
        const auto q = m_q.row(i).transpose();
        const auto qTest = separateTest ? m_qTest.row(i).transpose() : m_q.row(i).transpose();
        pos.p = p[pos.token];
        pos.q = q[pos.token];
        pos.ratio = pos.q > 0.0 ? pos.p / pos.q : 0.0;
        pos.threshold = acceptanceProbability(pos.p, pos.q);
        {
            const ScopedSeconds teaching(trace.teachingSeconds);
            pos.overlap = overlapMass(p, q);
            pos.totalVariation = 1.0 - pos.overlap; // TV(p, q) = 1 - beta for two distributions: one pass, not two
            if (m_settings.recordDistributions) {
                pos.pDist = p;
                pos.qDist = q;
            }
        }
        if (trace.rejectedAt >= 0)
            continue; // discarded: drafted after the first rejection, never tested

        // The argmax of p is read by greedy decoding and the greedy-match variant only (a pass over p: 151k ids
        // for a subword tokenizer).
        const bool needsBest = greedy || m_settings.variant == Variant::GreedyMatch;
        const int best = needsBest ? argmax(p) : -1;
        bool accepted;
        if (greedy) {
            accepted = pos.token == best;
        } else {
            pos.u = m_rng.uniform();
            accepted = acceptsDraft(m_settings.variant, pos.u, pos.p, qTest[pos.token], pos.token, best);
        }
        if (accepted) {
            pos.verdict = Verdict::Accepted;
            trace.committed.push_back(pos.token);
            continue;
        }
        pos.verdict = Verdict::Rejected;
        trace.rejectedAt = i;
        if (greedy) {
            trace.correction = best; // the residual is only shown, never sampled
            if (m_settings.recordDistributions) {
                const ScopedSeconds teaching(trace.teachingSeconds);
                trace.residual = residualDistribution(p, q);
            }
        } else {
            trace.correction = drawReplacement(m_settings.variant, m_rng, p, qTest, pos.token, trace.residual);
        }
        if (!m_settings.recordDistributions)
            trace.residual = Eigen::VectorXd();
        trace.committed.push_back(trace.correction);
    }

    // 4. Bonus: all K passed, so the (K+1)-th target distribution gives one more token for free.
    if (trace.rejectedAt < 0) {
        const auto pBonus = m_p.row(k).transpose();
        trace.bonus = greedy ? argmax(pBonus) : m_rng.categorical(pBonus);
        if (m_settings.recordDistributions) {
            const ScopedSeconds teaching(trace.teachingSeconds);
            trace.bonusDist = pBonus;
        }
        trace.committed.push_back(trace.bonus);
    }

    // 5. Rollback: both states keep only the committed prefix they have seen (the accepted drafts).
    const int valid = trace.contextLength + trace.acceptedCount();
    auto rollback = [valid](DecodingState &state, const DecodingStateStats &before, CacheLengths &lengths) {
        lengths.discarded = state.truncate(std::min(valid, state.length()));
        lengths.after = state.length();
        lengths.refills = static_cast<int>(state.stats().refills - before.refills);
        lengths.fed = static_cast<int>(state.stats().fed - before.fed);
    };
    rollback(*m_targetState, targetStateBefore, trace.targetCache);
    rollback(*m_draftState, draftStateBefore, trace.draftCache);

    m_length.roundFinished(trace.rejectedAt < 0);
    sequence.insert(sequence.end(), trace.committed.begin(), trace.committed.end());
    trace.setCalls(m_target.stats() - targetBefore, m_draft.stats() - draftBefore);
    return trace;
}

Round SpeculativeDecoder::playRound(std::vector<TokenId> &sequence, int budget)
{
    return Round{round(sequence, budget), nullptr};
}

} // namespace specdec
