// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeAcceptance.h"

#include "Acceptance.h"
#include "Random.h"
#include "Sampler.h"
#include "ScopedSeconds.h"

#include <cmath>

namespace specdec {

std::string treeVariantName(TreeVariant v)
{
    switch (v) {
    case TreeVariant::Correct: return "correct";
    case TreeVariant::NoResidualUpdate: return "no-residual-update";
    case TreeVariant::TypicalAcceptance: return "typical-acceptance";
    }
    return "correct";
}

std::vector<TreeVariant> allTreeVariants()
{
    return {TreeVariant::Correct, TreeVariant::NoResidualUpdate, TreeVariant::TypicalAcceptance};
}

std::optional<TreeVariant> treeVariantFromName(const std::string &name)
{
    for (TreeVariant v : allTreeVariants())
        if (treeVariantName(v) == name)
            return v;
    return std::nullopt;
}

std::string treeVariantExplanation(TreeVariant v)
{
    switch (v) {
    case TreeVariant::Correct:
        return "Each rejected child takes its overlap out of p: the next child is tested against "
               "norm(max(0, p' - q)), and the output follows p exactly.";
    case TreeVariant::NoResidualUpdate:
        return "Testing every child against the original p gives the overlap min(p, q) one chance per child: "
               "tokens where the draft is confident are over-represented.";
    case TreeVariant::TypicalAcceptance:
        return "Medusa's typical acceptance keeps any child the target finds plausible enough: faster, but the "
               "output no longer follows p.";
    }
    return {};
}

double typicalThreshold(const Eigen::Ref<const Eigen::VectorXd> &p, double epsilon, double delta)
{
    double entropy = 0.0;
    for (Eigen::Index i = 0; i < p.size(); ++i)
        if (p[i] > 0.0)
            entropy -= p[i] * std::log(p[i]);
    return std::min(epsilon, delta * std::exp(-entropy));
}

NodeTest testChildren(TreeVariant variant, const Eigen::Ref<const Eigen::VectorXd> &p,
                      const Eigen::Ref<const Eigen::VectorXd> &q, std::span<const int> children, bool greedy,
                      const std::function<double()> &uniform, bool record)
{
    NodeTest result;
    greedy = greedy && variant == TreeVariant::Correct;
    const int best = greedy ? argmax(p) : -1; // a pass over p (151k ids for a subword tokenizer): only when read
    const double typical = variant == TreeVariant::TypicalAcceptance ? typicalThreshold(p) : 0.0;
    // p_j: p, then the residual after each rejection (correct variant only); p is copied only once it changes.
    Eigen::VectorXd updated;
    auto pPrimeOf = [&]() -> Eigen::Ref<const Eigen::VectorXd> {
        return updated.size() > 0 ? Eigen::Ref<const Eigen::VectorXd>(updated) : p;
    };
    for (std::size_t j = 0; j < children.size(); ++j) {
        const int x = children[j];
        ChildTest &test = result.children.emplace_back();
        if (record) {
            const ScopedSeconds copying(result.recordSeconds);
            result.pUsedDists.emplace_back(pPrimeOf());
        }
        test.pUsed = pPrimeOf()[x];
        if (variant == TreeVariant::TypicalAcceptance) {
            test.threshold = p[x] > typical ? 1.0 : 0.0;
            test.accepted = test.threshold > 0.0;
        } else {
            test.threshold = acceptanceProbability(test.pUsed, q[x]);
            if (greedy) {
                test.accepted = x == best;
            } else {
                test.u = uniform();
                test.accepted = test.u < test.threshold;
            }
        }
        if (test.accepted) {
            result.accepted = static_cast<int>(j);
            return result;
        }
        if (variant == TreeVariant::Correct)
            updated = residualDistribution(pPrimeOf(), q);
    }
    switch (variant) {
    case TreeVariant::Correct: result.residual = updated.size() > 0 ? std::move(updated) : Eigen::VectorXd(p); break;
    case TreeVariant::NoResidualUpdate:
        result.residual = children.empty() ? Eigen::VectorXd(p) : residualDistribution(p, q);
        break;
    case TreeVariant::TypicalAcceptance: result.residual = p; break;
    }
    result.correction = greedy ? best : Rng::categoricalAt(result.residual, uniform());
    return result;
}

} // namespace specdec
