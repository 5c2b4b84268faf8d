// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Closed-form results of speculative decoding (Leviathan, Kalman & Matias 2023, Section 3), and of token
// trees (SpecInfer, Miao et al. 2024).

#include <Eigen/Core>

#include <vector>

namespace specdec::theory {

/// Expected tokens per round with per-token acceptance alpha and K drafts (Eq. 1):
/// \f$E[N] = \frac{1 - \alpha^{K+1}}{1 - \alpha}\f$, which is K + 1 at alpha = 1. alpha = 0.8, K = 4 gives 3.36.
double expectedTokensPerRound(double alpha, int k);

/// Expected wall-time improvement with draft/target cost ratio c (Theorem 3.8):
/// \f$\frac{1 - \alpha^{K+1}}{(1 - \alpha)(Kc + 1)}\f$.
double costModelSpeedup(double alpha, int k, double c);

/// The K in 1..maxK that maximises costModelSpeedup.
int optimalDraftLength(double alpha, double c, int maxK = 64);

/// The exact chance that multi-step speculative sampling accepts one of k children drawn i.i.d. from q:
/// \f$1 - \prod_{j=1}^{k} \big(1 - \sum_x \min(p_j(x), q(x))\big)\f$ with \f$p_1 = p\f$ and
/// \f$p_{j+1} = \mathrm{norm}(\max(0, p_j - q))\f$. For k = 1 it is beta = sum_x min(p, q).
double treeNodeAcceptance(const Eigen::Ref<const Eigen::VectorXd> &p, const Eigen::Ref<const Eigen::VectorXd> &q, int k);
/// The speedup when one verification of K + 1 positions costs `verification` = V(K+1) target steps (a KV
/// cache; V = 1 gives Theorem 3.8): \f$S = E[N] / (V(K+1) + K c)\f$.
double generalisedSpeedup(double alpha, int k, double c, double verification);

/// The K in 1..v.size()-1 that maximises generalisedSpeedup, v[m - 1] = V(m); 1 when v has fewer than 2 entries.
int optimalDraftLengthMeasured(double alpha, double c, const std::vector<double> &v);

} // namespace specdec::theory
