// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Draft-length policies: how many tokens the draft writes in a round.

#include <string>

namespace specdec {

/// - constant: K every round.
/// - heuristic: starts at max(1, K/2); +2 after a round where every draft passed, −1 otherwise, within [1, K].
/// - confidence:τ — stop drafting when the draft's top probability at the next position is below τ
///   (that position's draft call is spent; at least one token is drafted).
/// - threshold:h — after each drafted token, estimate the chance that the round already holds a rejection
///   from the draft's own probabilities, \f$1 - \prod_{j \le i} q_j(x_j)\f$, and stop once it exceeds h.
/// Each rule looks only at the draft's side, so decoding stays lossless whatever the policy.
struct DraftPolicy
{
    enum class Kind { Constant, Heuristic, Confidence, Threshold };
    Kind kind = Kind::Constant;
    double value = 0.0; ///< τ (confidence) or h (threshold)

    /// "constant", "heuristic", "confidence:0.4", "threshold:0.6"; throws Error otherwise.
    static DraftPolicy parse(const std::string &text);
    std::string describe() const;
    friend bool operator==(const DraftPolicy &, const DraftPolicy &) = default;
};

/// The policy's state across the rounds of one generation.
class DraftLengthController
{
public:
    DraftLengthController(const DraftPolicy &policy, int maxLength);

    /// The most tokens the next round may draft.
    int plannedLength() const { return m_planned; }
    /// Before drafting position i (0-based) whose draft distribution has top probability `top`: go on?
    bool draftNext(int position, double top) const;
    /// After drafting position i with draft probability q(x_i): go on to position i + 1?
    bool continueAfter(double draftedProbability);
    /// A round ended; `allAccepted` when every drafted token passed.
    void roundFinished(bool allAccepted);

private:
    DraftPolicy m_policy;
    int m_max;
    int m_planned;
    double m_noRejection = 1.0; ///< threshold: product of q_j(x_j) in the current round
};

} // namespace specdec
