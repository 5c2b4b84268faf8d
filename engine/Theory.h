// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Closed-form results of speculative decoding (Leviathan, Kalman & Matias 2023, Section 3).

namespace specdec::theory {

/// Expected tokens per round with per-token acceptance alpha and K drafts (Eq. 1):
/// \f$E[N] = \frac{1 - \alpha^{K+1}}{1 - \alpha}\f$, which is K + 1 at alpha = 1. alpha = 0.8, K = 4 gives 3.36.
double expectedTokensPerRound(double alpha, int k);

/// Expected wall-time improvement with draft/target cost ratio c (Theorem 3.8):
/// \f$\frac{1 - \alpha^{K+1}}{(1 - \alpha)(Kc + 1)}\f$.
double costModelSpeedup(double alpha, int k, double c);

/// The K in 1..maxK that maximises costModelSpeedup.
int optimalDraftLength(double alpha, double c, int maxK = 64);

} // namespace specdec::theory
