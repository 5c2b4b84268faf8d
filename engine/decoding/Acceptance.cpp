// SPDX-License-Identifier: GPL-3.0-or-later
#include "Acceptance.h"

#include <algorithm>

namespace specdec {

double acceptanceProbability(double p, double q)
{
    if (q <= 0.0)
        return p > 0.0 ? 1.0 : 0.0;
    return std::min(1.0, p / q);
}

Eigen::VectorXd residualDistribution(const Eigen::Ref<const Eigen::VectorXd> &p,
                                     const Eigen::Ref<const Eigen::VectorXd> &q)
{
    Eigen::VectorXd r = (p - q).cwiseMax(0.0);
    const double mass = r.sum();
    if (mass > 0.0)
        return r / mass;
    return p;
}

double overlapMass(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q)
{
    // At most 1: two distributions that agree sum to 1 + rounding, and beta is a probability (TV = 1 - beta >= 0).
    return std::min(1.0, p.cwiseMin(q).sum());
}

double totalVariation(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q)
{
    return 0.5 * (p - q).cwiseAbs().sum();
}

std::string variantName(Variant v)
{
    switch (v) {
    case Variant::Correct: return "correct";
    case Variant::AcceptAll: return "accept-all";
    case Variant::GreedyMatch: return "greedy-match";
    case Variant::ResampleFromTarget: return "resample-from-target";
    case Variant::UnnormalizedResidual: return "unnormalized-residual";
    case Variant::TemperatureTargetOnly: return "temperature-target-only";
    }
    return "correct";
}

std::vector<Variant> allVariants()
{
    return {Variant::Correct,
            Variant::AcceptAll,
            Variant::GreedyMatch,
            Variant::ResampleFromTarget,
            Variant::UnnormalizedResidual,
            Variant::TemperatureTargetOnly};
}

std::optional<Variant> variantFromName(const std::string &name)
{
    for (Variant v : allVariants()) {
        if (variantName(v) == name)
            return v;
    }
    return std::nullopt;
}

std::string variantExplanation(Variant v)
{
    switch (v) {
    case Variant::Correct:
        return "Accept with probability min(1, p/q), resample rejections from norm(max(0, p - q)): the output "
               "follows p exactly.";
    case Variant::AcceptAll:
        return "Every draft token is kept, so the output follows the draft's q, not the target's p.";
    case Variant::GreedyMatch:
        return "Keeping only the target's argmax drops every other token p would have sampled at T > 0.";
    case Variant::ResampleFromTarget:
        return "After a rejection, drawing from p adds p's mass on top of what acceptance already gave: "
               "tokens where q > p are over-represented.";
    case Variant::UnnormalizedResidual:
        return "max(0, p - q) sums to 1 - beta, not 1: the missing mass falls back on the draft token.";
    case Variant::TemperatureTargetOnly:
        return "The draft sampled from its tempered q, but the test divides by the untempered q: the ratio "
               "p/q is wrong for every token.";
    }
    return {};
}

bool acceptsDraft(Variant v, double u, double pOfX, double qOfX, int x, int argmaxOfP)
{
    switch (v) {
    case Variant::AcceptAll: return true;
    case Variant::GreedyMatch: return x == argmaxOfP;
    case Variant::Correct:
    case Variant::ResampleFromTarget:
    case Variant::UnnormalizedResidual:
    case Variant::TemperatureTargetOnly: break;
    }
    return u < acceptanceProbability(pOfX, qOfX);
}

int drawReplacement(Variant v, Rng &rng, const Eigen::Ref<const Eigen::VectorXd> &p,
                    const Eigen::Ref<const Eigen::VectorXd> &q, int x, Eigen::VectorXd &residual)
{
    switch (v) {
    case Variant::ResampleFromTarget: residual = p; return rng.categorical(residual);
    case Variant::UnnormalizedResidual: {
        residual = (p - q).cwiseMax(0.0);
        // Walk the unnormalised cumulative sum with a plain u: when u lands beyond its mass, keep the draft.
        const double u = rng.uniform();
        double running = 0.0;
        for (Eigen::Index i = 0; i < residual.size(); ++i) {
            running += residual[i];
            if (residual[i] > 0.0 && u < running)
                return static_cast<int>(i);
        }
        return x;
    }
    case Variant::Correct:
    case Variant::AcceptAll:
    case Variant::GreedyMatch:
    case Variant::TemperatureTargetOnly: break;
    }
    residual = residualDistribution(p, q);
    return rng.categorical(residual);
}

} // namespace specdec
