// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the acceptance test divides by. The rule tests a drafted token x against the q the draft sampled
// from: min(1, p(x)/q(x)). The temperature-target-only variant (a classroom mistake: the sampler applied
// to the target only) tests against the draft's distribution at temperature 1 instead,
// \f$q_\text{test} = \mathrm{sampler}_{T=1}(q_\text{raw})\f$ while the draft drew from
// \f$q = \mathrm{sampler}_{T_d}(q_\text{raw})\f$. This is that variant's one definition: the speculative
// decoder, `specdec lossless` and the lossless lab all call it.

#include "Acceptance.h"
#include "Sampler.h"

#include <Eigen/Core>

namespace specdec {

/// The sampler whose output the test of `variant` divides by: `draft` itself, or for TemperatureTargetOnly
/// the same settings at temperature 1 (top-k and top-p kept).
SamplerSettings testSampler(Variant variant, SamplerSettings draft);

/// \f$q_\text{test}\f$ = applySampler(testSampler(variant, draft), qRaw), where qRaw is the draft's
/// distribution before its sampler.
Eigen::VectorXd testedDistribution(Variant variant, const SamplerSettings &draft,
                                   const Eigen::Ref<const Eigen::VectorXd> &qRaw);

/// The lossless lab knows only the q the draft sampled from (its bars). It takes them as the draft at this
/// temperature (no top-k, no top-p), whose distribution before temperature is \f$q_\text{raw} \propto q^{T_d}\f$
/// (applySampler at T_d gives q back).
inline constexpr double kLabDraftTemperature = 0.5;

/// \f$q_\text{test}\f$ for the lab's bars: q itself unless `variant` tests against another distribution, then
/// testedDistribution(variant, {T_d}, norm(q^{T_d})).
Eigen::VectorXd labTestedDistribution(Variant variant, const Eigen::Ref<const Eigen::VectorXd> &q);

} // namespace specdec
