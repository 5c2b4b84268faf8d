// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sampler settings: the one transformation applied to a model's distribution before drawing from it.
// Autoregressive decoding applies it to p; speculative decoding applies it to p and to q before the
// acceptance test, so q is always the distribution the draft actually sampled from.

#include <Eigen/Core>

#include <string>

namespace specdec {

struct SamplerSettings
{
    double temperature = 1.0; ///< 0 = greedy (one-hot argmax, ties to the lowest token id)
    int topK = 0;             ///< keep the k most probable tokens; 0 = off
    double topP = 1.0;        ///< keep the smallest most-probable set with mass >= topP; 1 = off

    bool greedy() const { return temperature == 0.0; }
    bool isIdentity() const { return temperature == 1.0 && topK == 0 && topP >= 1.0; }
    /// Throws Error for a negative temperature, topK < 0 or topP outside (0, 1].
    void validate() const;
    std::string describe() const;

    friend bool operator==(const SamplerSettings &, const SamplerSettings &) = default;
};

/// Transforms a distribution in place, in this order:
/// 1. temperature T: \f$p_i \leftarrow p_i^{1/T} / \sum_j p_j^{1/T}\f$ (T = 0: one-hot at the argmax);
/// 2. top-k: zero all but the k largest (ties broken toward the lower token id), renormalise;
/// 3. top-p: sort by probability (ties toward lower id), keep the shortest prefix whose mass reaches topP,
///    renormalise.
void applySampler(const SamplerSettings &settings, Eigen::Ref<Eigen::VectorXd> distribution);

/// The most probable token; ties go to the lowest token id.
int argmax(const Eigen::Ref<const Eigen::VectorXd> &distribution);

} // namespace specdec
