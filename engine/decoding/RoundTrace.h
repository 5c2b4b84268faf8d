// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundTrace: everything one round of speculative decoding did, as a copyable value. The GUI animates it,
// the CLI prints it, the tests check it; replaying a stored trace needs no model.

#include "CallStats.h"
#include "Vocabulary.h"

#include <Eigen/Core>

#include <cstdint>
#include <vector>

namespace specdec {

/// What happened to one drafted token.
enum class Verdict : std::uint8_t {
    Accepted,  ///< u < min(1, p/q) (greedy: it equals the target's argmax)
    Rejected,  ///< the first token that failed; replaced by a draw from the residual
    Discarded, ///< drafted after the first rejection: never tested
};

/// "accepted", "rejected", "discarded".
inline const char *verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Accepted: return "accepted";
    case Verdict::Rejected: return "rejected";
    case Verdict::Discarded: break;
    }
    return "discarded";
}

struct DraftPosition
{
    TokenId token = -1;          ///< the drafted token x
    double q = 0.0;              ///< q(x): the draft's probability (after the draft sampler)
    double p = 0.0;              ///< p(x): the target's probability (after the target sampler)
    double ratio = 0.0;          ///< p(x) / q(x)
    double threshold = 0.0;      ///< min(1, p(x)/q(x)): the acceptance probability
    double u = -1.0;             ///< the die, U[0, 1); -1 when no die was rolled (greedy, discarded)
    double overlap = 0.0;        ///< beta = sum_x min(p(x), q(x)) at this position
    double totalVariation = 0.0; ///< TV(p, q) = 1 - beta
    Verdict verdict = Verdict::Discarded;
    Eigen::VectorXd qDist; ///< full q (empty unless distributions are recorded)
    Eigen::VectorXd pDist; ///< full p (empty unless distributions are recorded)
};

/// The lengths of one state in one round: before it, after extension (drafting or verification), after the
/// rollback to the committed prefix, and the entries the rollback discarded.
struct CacheLengths
{
    int before = 0;
    int extended = 0;
    int after = 0;
    int discarded = 0;
    int refills = 0; ///< window refills during the round (past the context)
    int fed = 0;     ///< positions the model computed during the round
};

/// What every round has, chain or tree (RoundTrace, TreeTrace): where it started, the correction or the bonus,
/// the committed tokens, the calls and seconds, and both models' cache lengths.
struct RoundCore
{
    int index = 0;                  ///< 0-based round number
    int contextLength = 0;          ///< tokens (prompt + committed) before the round
    bool greedy = false;            ///< target temperature 0: equality checks instead of dice
    TokenId correction = -1;        ///< the token drawn from the residual after a rejection
    Eigen::VectorXd residual;       ///< norm(max(0, p - q)) where the rejection happened (recorded)
    TokenId bonus = -1;             ///< the token drawn from p after the last accepted draft when all passed
    Eigen::VectorXd bonusDist;      ///< that distribution (recorded)
    std::vector<TokenId> committed; ///< accepted drafts + correction or bonus, in order
    int targetCalls = 0;
    int draftCalls = 0;
    double targetSeconds = 0.0;
    double draftSeconds = 0.0;
    /// Seconds of the round spent on what only a teaching run computes (β and TV per position, the recorded
    /// distributions, a tree's chain view): not decoding work, so every wall-clock speedup leaves it out.
    double teachingSeconds = 0.0;
    CacheLengths targetCache; ///< the target's decoding state (its KV cache) in this round
    CacheLengths draftCache;  ///< the draft's

    /// Records what each model did in the round (stats() at its end − stats() at its start).
    void setCalls(const CallStats &target, const CallStats &draft)
    {
        targetCalls = static_cast<int>(target.calls);
        draftCalls = static_cast<int>(draft.calls);
        targetSeconds = target.seconds;
        draftSeconds = draft.seconds;
    }
};

/// One chain round: K drafted positions, the first rejection (if any) and the RoundCore.
struct RoundTrace : RoundCore
{
    int draftLength = 0;                  ///< K of this round
    std::vector<DraftPosition> positions; ///< K entries
    int rejectedAt = -1;                  ///< index of the first rejected position, -1 when all passed

    int acceptedCount() const { return rejectedAt < 0 ? draftLength : rejectedAt; }
    /// Positions where a die was rolled (or an equality checked): up to and including the first rejection.
    int testedCount() const { return rejectedAt < 0 ? draftLength : rejectedAt + 1; }
};

} // namespace specdec
