// SPDX-License-Identifier: GPL-3.0-or-later
#include "Sampler.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
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
    int best = 0;
    for (Eigen::Index i = 1; i < p.size(); ++i) {
        if (p[i] > p[best])
            best = static_cast<int>(i);
    }
    return best;
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
        const std::vector<int> keep = rankedIds(p, s.topK);
        Eigen::VectorXd kept = Eigen::VectorXd::Zero(p.size());
        for (int id : keep)
            kept[id] = p[id];
        p = kept;
        normalise(p);
    }
    if (s.topP < 1.0) {
        const std::vector<int> order = rankedIds(p, p.size());
        const double total = p.sum();
        double mass = 0.0;
        std::size_t kept = 0;
        while (kept < order.size() && mass < s.topP * total)
            mass += p[order[kept++]];
        for (std::size_t i = kept; i < order.size(); ++i)
            p[order[i]] = 0.0;
        normalise(p);
    }
}

} // namespace specdec
