// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rule at the heart of speculative decoding (Leviathan et al. 2023; Chen et al. 2023), and the wrong
// variants the classroom uses to show why each part of it matters.
//
// A token x drafted from q is accepted with probability \f$\min(1, p(x)/q(x))\f$; on rejection the
// replacement is drawn from the residual \f$r = \mathrm{norm}(\max(0, p - q))\f$. Then
// \f[ P(\text{out} = x) = q(x)\min\!\left(1, \tfrac{p(x)}{q(x)}\right) + \Big(1 - \sum_y \min(p(y), q(y))\Big)\, r(x) = p(x). \f]

#include "Random.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace specdec {

/// \f$\min(1, p/q)\f$; a token the draft cannot propose (q = 0) gets 1 when p > 0, else 0.
double acceptanceProbability(double p, double q);

/// \f$\mathrm{norm}(\max(0, p - q))\f$. When p = q there is no residual mass (rejection then has probability 0);
/// p itself is returned so that the result is always a distribution.
Eigen::VectorXd residualDistribution(const Eigen::Ref<const Eigen::VectorXd> &p,
                                     const Eigen::Ref<const Eigen::VectorXd> &q);

/// \f$\beta = \sum_x \min(p(x), q(x))\f$: the probability that a token drafted from q is accepted.
double overlapMass(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q);
/// \f$\mathrm{TV}(p, q) = \tfrac12 \sum_x |p(x) - q(x)| = 1 - \beta\f$.
double totalVariation(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q);

/// The rule as published, and deliberately wrong variants that break losslessness.
enum class Variant {
    Correct,               ///< u < min(1, p/q); residual on rejection
    AcceptAll,             ///< every draft token passes: the output follows q
    GreedyMatch,           ///< accept iff x = argmax p, even when sampling at T > 0
    ResampleFromTarget,    ///< on rejection draw from p instead of the residual: p's overlap is counted twice
    UnnormalizedResidual,  ///< draw from max(0, p - q) without normalising; a miss keeps the draft token
    TemperatureTargetOnly, ///< the test uses the draft's distribution before temperature, not the q it sampled from
};

std::string variantName(Variant variant); ///< the CLI name, e.g. "accept-all"
std::optional<Variant> variantFromName(const std::string &name);
std::vector<Variant> allVariants();
/// One sentence on why the variant is (or is not) lossless, for people.
std::string variantExplanation(Variant variant);

/// Whether drafted token x survives under `variant`, given the die u (ignored where the variant rolls none).
bool acceptsDraft(Variant variant, double u, double pOfX, double qOfX, int x, int argmaxOfP);

/// The token that replaces a rejected draft x, drawn with `rng`. `residual` receives the distribution it was
/// drawn from (the unnormalised one for UnnormalizedResidual).
int drawReplacement(Variant variant, Rng &rng, const Eigen::Ref<const Eigen::VectorXd> &p,
                    const Eigen::Ref<const Eigen::VectorXd> &q, int x, Eigen::VectorXd &residual);

} // namespace specdec
