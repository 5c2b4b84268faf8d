// SPDX-License-Identifier: GPL-3.0-or-later
#include "Sampler.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

namespace specdec {

void SamplerSettings::validate() const
{
    if (!(temperature >= 0.0) || !std::isfinite(temperature))
        throw Error("temperature must be a finite number >= 0 (0 = greedy), got " + std::to_string(temperature));
    if (topK < 0)
        throw Error("top-k must be >= 0 (0 = off), got " + std::to_string(topK));
    if (!(topP > 0.0 && topP <= 1.0))
        throw Error("top-p must be in (0, 1], got " + std::to_string(topP));
}

std::string SamplerSettings::describe() const
{
    std::ostringstream out;
    out << "T=" << temperature;
    if (topK > 0)
        out << " top-k=" << topK;
    if (topP < 1.0)
        out << " top-p=" << topP;
    return out.str();
}

int argmax(const Eigen::Ref<const Eigen::VectorXd> &p)
{
    // The first index of the maximum, in two passes that vectorise (the maximum, then where it first occurs):
    // on a 151k-id subword vocabulary about three times faster than one pass that compares with p[best].
    if (p.size() == 0)
        return 0;
    const double maximum = p.maxCoeff();
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        if (p[i] == maximum)
            return static_cast<int>(i);
    }
    return 0; // NaN entries: no maximum compares equal
}

namespace {

void normalise(Eigen::Ref<Eigen::VectorXd> p)
{
    const double total = p.sum();
    if (total > 0.0)
        p /= total;
}

/// Token ids ordered by probability, highest first, ties toward the lower id; only the first `count` sorted.
std::vector<int> rankedIds(const Eigen::Ref<const Eigen::VectorXd> &p, Eigen::Index count)
{
    std::vector<int> ids(static_cast<std::size_t>(p.size()));
    std::iota(ids.begin(), ids.end(), 0);
    auto higher = [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); };
    const auto middle = ids.begin() + std::min<Eigen::Index>(count, p.size());
    std::partial_sort(ids.begin(), middle, ids.end(), higher);
    ids.resize(static_cast<std::size_t>(middle - ids.begin()));
    return ids;
}

/// The `count` highest ids of rankedIds(p, count) in one pass over p: a sorted buffer of the best so far, which an
/// id enters only when it beats the worst kept (a tie stays with the lower id, seen first). O(V) for small k,
/// where sorting the ids of a 151k-id vocabulary took O(V log k) and a copy of p.
std::vector<int> topIds(const Eigen::Ref<const Eigen::VectorXd> &p, Eigen::Index count)
{
    const auto k = static_cast<std::size_t>(std::min<Eigen::Index>(count, p.size()));
    if (k > 64)
        return rankedIds(p, count);
    std::vector<int> best; // highest first
    best.reserve(k + 1);
    double worst = -std::numeric_limits<double>::infinity(); // p of best.back() once k are kept
    const double *values = p.data();
    constexpr Eigen::Index kBlock = 8;
    for (Eigen::Index i = 0; i < p.size(); ++i) {
        if (best.size() == k && i % kBlock == 0 && i + kBlock <= p.size()) {
            bool above = false; // a check that vectorises: most blocks hold nothing above the k-th best
            for (Eigen::Index j = 0; j < kBlock; ++j)
                above |= values[i + j] > worst;
            if (!above) {
                i += kBlock - 1;
                continue;
            }
        }
        const double v = values[i];
        if (best.size() == k && !(v > worst))
            continue;
        auto at = best.end();
        while (at != best.begin() && v > p[*(at - 1)])
            --at;
        best.insert(at, static_cast<int>(i));
        if (best.size() > k)
            best.pop_back();
        if (best.size() == k)
            worst = p[best.back()];
    }
    return best;
}

/// The ids top-p keeps: rankedIds(p) up to the first prefix whose mass reaches `threshold`, ranked only as far as
/// needed. Ids of probability 0 add no mass and stay 0 either way, so only the others are candidates; they are
/// ranked chunk by chunk (nth_element picks the next chunk of the best, then it is sorted), each chunk four times
/// the one before: O(V) a chunk instead of sorting all ids (151k for Qwen3) on every call. The mass is summed in the
/// same order as over a full sort, so the kept set and the bits are the same.
std::vector<int> nucleusIds(const Eigen::Ref<const Eigen::VectorXd> &p, double threshold)
{
    std::vector<int> ids;
    ids.reserve(static_cast<std::size_t>(p.size()));
    for (Eigen::Index i = 0; i < p.size(); ++i)
        if (p[i] > 0.0)
            ids.push_back(static_cast<int>(i));
    auto higher = [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); };
    double mass = 0.0;
    std::size_t kept = 0;
    std::size_t ranked = 0;
    std::size_t chunk = 64;
    while (kept < ids.size() && mass < threshold) {
        if (kept == ranked) {
            const auto from = ids.begin() + static_cast<std::ptrdiff_t>(ranked);
            const std::size_t next = std::min(ids.size(), ranked + chunk);
            const auto to = ids.begin() + static_cast<std::ptrdiff_t>(next);
            if (to != ids.end())
                std::nth_element(from, to, ids.end(), higher);
            std::sort(from, to, higher);
            ranked = next;
            chunk *= 4;
        }
        mass += p[ids[kept++]];
    }
    ids.resize(kept);
    return ids;
}

/// Zeroes every entry of p but those of `keep` (which keep their values).
void keepOnly(Eigen::Ref<Eigen::VectorXd> p, const std::vector<int> &keep)
{
    std::vector<double> values;
    values.reserve(keep.size());
    for (int id : keep)
        values.push_back(p[id]);
    p.setZero();
    for (std::size_t i = 0; i < keep.size(); ++i)
        p[keep[i]] = values[i];
}

} // namespace

void applySampler(const SamplerSettings &s, Eigen::Ref<Eigen::VectorXd> p)
{
    if (s.isIdentity())
        return;
    if (s.greedy()) {
        const int best = argmax(p);
        p.setZero();
        p[best] = 1.0;
        return;
    }
    if (s.temperature != 1.0) {
        // p^(1/T) scaled by the maximum first, so that small T neither overflows nor underflows to all-zero.
        const double maximum = p.maxCoeff();
        const double exponent = 1.0 / s.temperature;
        for (Eigen::Index i = 0; i < p.size(); ++i)
            p[i] = p[i] > 0.0 ? std::pow(p[i] / maximum, exponent) : 0.0;
        normalise(p);
    }
    if (s.topK > 0 && s.topK < p.size()) {
        const std::vector<int> keep = topIds(p, s.topK);
        keepOnly(p, keep);
        // normalise(p), dividing only the kept entries (the others are 0 either way): the same bits.
        const double total = p.sum();
        if (total > 0.0) {
            for (int id : keep)
                p[id] /= total;
        }
    }
    if (s.topP < 1.0) {
        keepOnly(p, nucleusIds(p, s.topP * p.sum()));
        normalise(p);
    }
}

} // namespace specdec
