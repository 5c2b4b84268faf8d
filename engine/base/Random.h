// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's one source of randomness: xoshiro256** seeded through SplitMix64, with our own uniform and
// categorical draws, so a seed gives byte-identical results with any compiler and standard library.

#include <Eigen/Core>

#include <cstdint>

namespace specdec {

class Rng
{
public:
    explicit Rng(std::uint64_t seed = 0);

    std::uint64_t next();
    /// u ~ U[0, 1) with 53 random bits: \f$u = \lfloor x / 2^{11} \rfloor \cdot 2^{-53}\f$.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Index i with probability w_i / sum(w) by inverse CDF in index order (w >= 0, sum > 0).
    int categorical(const Eigen::Ref<const Eigen::VectorXd> &weights);
    /// The same draw with a given u in [0, 1): the first i whose running sum exceeds u * sum(w).
    static int categoricalAt(const Eigen::Ref<const Eigen::VectorXd> &weights, double u);

private:
    std::uint64_t m_state[4];
};

} // namespace specdec
