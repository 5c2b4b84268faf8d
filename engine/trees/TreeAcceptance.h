// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rule of token trees: multi-step speculative sampling (SpecInfer, Miao et al. 2024, Thm 4.2), and the
// wrong variants the classroom uses to show why its residual update matters.
//
// A node's children \f$x_1..x_k\f$ were drawn i.i.d. from q. Start with \f$p_1 = p\f$; for j = 1..k accept
// \f$x_j\f$ when \f$u_j < \min(1, p_j(x_j)/q(x_j))\f$ and descend into it; otherwise set
// \f$p_{j+1} = \mathrm{norm}(\max(0, p_j - q))\f$ and try the next child. When all k are rejected the
// correction is drawn from \f$p_{k+1}\f$. Each step is the one-draft rule of Acceptance.h applied to
// \f$p_j\f$, so by induction from the last step back
// \f[ P_j(\text{out} = x) = \min(p_j(x), q(x)) + \Big(1 - \sum_y \min(p_j(y), q(y))\Big)\, p_{j+1}(x) = p_j(x), \f]
// and the output follows \f$p_1 = p\f$ exactly. The probability that some child is accepted is
// \f$1 - \prod_{j=1}^{k} \big(1 - \sum_x \min(p_j(x), q(x))\big)\f$ (theory::treeNodeAcceptance).

#include "Vocabulary.h"

#include <Eigen/Core>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace specdec {

enum class TreeVariant {
    Correct,           ///< SpecInfer: each rejection replaces p' by norm(max(0, p' - q)) before the next child
    NoResidualUpdate,  ///< every child tested against the original p, correction from norm(max(0, p - q))
    TypicalAcceptance, ///< Medusa: accept x when p(x) > min(eps, delta exp(-H(p))), else draw from p; lossy
};

std::string treeVariantName(TreeVariant variant); ///< "correct", "no-residual-update", "typical-acceptance"
std::optional<TreeVariant> treeVariantFromName(const std::string &name);
std::vector<TreeVariant> allTreeVariants();
std::string treeVariantExplanation(TreeVariant variant);

/// Medusa's typical acceptance (Cai et al. 2024): the threshold \f$\min(\varepsilon, \delta e^{-H(p)})\f$ with
/// \f$H(p) = -\sum_x p(x)\ln p(x)\f$, and Medusa's defaults eps = 0.09 (posterior_threshold), delta = 0.3
/// (posterior_alpha).
double typicalThreshold(const Eigen::Ref<const Eigen::VectorXd> &p, double epsilon = 0.09, double delta = 0.3);

/// One child's test.
struct ChildTest
{
    double pUsed = 0.0;     ///< p'(x_j): the residual's probability of the child when it was tested
    double threshold = 0.0; ///< min(1, p'(x_j)/q(x_j)); typical acceptance: 1 or 0
    double u = -1.0;        ///< the die; -1 when none was rolled (greedy, typical acceptance)
    bool accepted = false;
};

/// What the rule did at one node.
struct NodeTest
{
    std::vector<ChildTest> children;         ///< the tested children in order: up to the accepted one, or all k
    int accepted = -1;                       ///< index of the accepted child, -1 when all were rejected
    int correction = -1;                     ///< all rejected: the token drawn from the final p'
    Eigen::VectorXd residual;                ///< all rejected: the final p' the correction came from
    std::vector<Eigen::VectorXd> pUsedDists; ///< p' before each tested child (when asked to record)
    double recordSeconds = 0.0;              ///< seconds spent copying them (not decoding work)
};

/// The rule at one node: `p` (target, after its sampler) and `q` (draft, after its sampler) at the node,
/// `children` the tokens drafted i.i.d. from q in the order they are tested, `uniform` the source of dice
/// (called once per tested child, then once for the correction; never when greedy). `greedy` (target T = 0,
/// correct variant): descend into the first child equal to argmax p, else the correction is argmax p.
NodeTest testChildren(TreeVariant variant, const Eigen::Ref<const Eigen::VectorXd> &p,
                      const Eigen::Ref<const Eigen::VectorXd> &q, std::span<const int> children, bool greedy,
                      const std::function<double()> &uniform, bool recordDistributions = false);

} // namespace specdec
