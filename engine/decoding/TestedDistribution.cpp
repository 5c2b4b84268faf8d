// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestedDistribution.h"

namespace specdec {

SamplerSettings testSampler(Variant variant, SamplerSettings draft)
{
    if (variant == Variant::TemperatureTargetOnly)
        draft.temperature = 1.0;
    return draft;
}

Eigen::VectorXd testedDistribution(Variant variant, const SamplerSettings &draft,
                                   const Eigen::Ref<const Eigen::VectorXd> &qRaw)
{
    Eigen::VectorXd q = qRaw;
    applySampler(testSampler(variant, draft), q);
    return q;
}

Eigen::VectorXd labTestedDistribution(Variant variant, const Eigen::Ref<const Eigen::VectorXd> &q)
{
    SamplerSettings draft;
    draft.temperature = kLabDraftTemperature;
    if (testSampler(variant, draft) == draft)
        return q;
    Eigen::VectorXd raw = q.array().pow(kLabDraftTemperature).matrix();
    raw /= raw.sum();
    return testedDistribution(variant, draft, raw);
}

} // namespace specdec
