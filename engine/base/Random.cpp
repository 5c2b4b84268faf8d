// SPDX-License-Identifier: GPL-3.0-or-later
#include "Random.h"

#include "Error.h"

#include <cmath>

namespace specdec {

namespace {
std::uint64_t splitMix64(std::uint64_t &x)
{
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}
} // namespace

Rng::Rng(std::uint64_t seed)
{
    std::uint64_t x = seed;
    for (auto &s : m_state)
        s = splitMix64(x);
}

std::uint64_t Rng::next()
{
    const std::uint64_t result = rotl(m_state[1] * 5, 7) * 9;
    const std::uint64_t t = m_state[1] << 17;
    m_state[2] ^= m_state[0];
    m_state[3] ^= m_state[1];
    m_state[1] ^= m_state[2];
    m_state[0] ^= m_state[3];
    m_state[2] ^= t;
    m_state[3] = rotl(m_state[3], 45);
    return result;
}

int Rng::categorical(const Eigen::Ref<const Eigen::VectorXd> &weights)
{
    return categoricalAt(weights, uniform());
}

int Rng::categoricalAt(const Eigen::Ref<const Eigen::VectorXd> &weights, double u)
{
    // Blocks of 8 zeros are skipped (a check that vectorises): adding 0 changes no sum, so the total and the
    // draw are those of the plain loops, and a top-k distribution over 151k ids is read once, fast.
    const Eigen::Index n = weights.size();
    const double *w = weights.data();
    constexpr Eigen::Index kBlock = 8;
    auto zeroBlock = [w](Eigen::Index i) {
        bool any = false;
        for (Eigen::Index j = 0; j < kBlock; ++j)
            any |= w[i + j] != 0.0;
        return !any;
    };
    double total = 0.0;
    Eigen::Index i = 0;
    for (; i + kBlock <= n; i += kBlock) {
        if (zeroBlock(i))
            continue;
        for (Eigen::Index j = 0; j < kBlock; ++j)
            total += w[i + j];
    }
    for (; i < n; ++i)
        total += w[i];
    const double target = u * total;
    double running = 0.0;
    int last = -1;
    for (i = 0; i < n; ++i) {
        if (i % kBlock == 0 && i + kBlock <= n && zeroBlock(i)) {
            i += kBlock - 1;
            continue;
        }
        if (w[i] <= 0.0)
            continue;
        running += w[i];
        last = static_cast<int>(i);
        if (target < running)
            return last;
    }
    if (last < 0 || !std::isfinite(total))
        throw Error("a token was to be drawn from a distribution without finite probability mass (total "
                    + std::to_string(total) + ")");
    return last; // rounding left target at the very end: the last token with mass
}

} // namespace specdec
