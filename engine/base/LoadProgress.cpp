// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadProgress.h"

#include <algorithm>
#include <mutex>

namespace specdec {

LoadProgress::LoadProgress(LoadCallback callback)
    : m_shared(callback ? std::make_shared<Shared>() : nullptr)
{
    if (m_shared) {
        m_shared->callback = std::move(callback);
        m_shared->at = std::chrono::steady_clock::now();
    }
}

LoadProgress LoadProgress::part(double from, double to) const
{
    LoadProgress p = *this;
    from = std::clamp(from, 0.0, 1.0);
    to = std::clamp(to, from, 1.0);
    p.m_from = m_from + from * (m_to - m_from);
    p.m_to = m_from + to * (m_to - m_from);
    return p;
}

std::vector<LoadProgress> LoadProgress::concurrentParts(const std::vector<double> &weights) const
{
    if (!m_shared)
        return std::vector<LoadProgress>(weights.size());
    struct Group
    {
        std::mutex mutex;
        LoadProgress whole;
        std::vector<double> weights, fractions;
    };
    auto group = std::make_shared<Group>();
    group->whole = *this;
    double total = 0.0;
    for (double w : weights)
        total += std::max(w, 0.0);
    for (double w : weights)
        group->weights.push_back(total > 0 ? std::max(w, 0.0) / total : 1.0 / static_cast<double>(weights.size()));
    group->fractions.assign(weights.size(), 0.0);
    std::vector<LoadProgress> parts;
    for (std::size_t i = 0; i < weights.size(); ++i)
        parts.emplace_back([group, i](double fraction) {
            const std::lock_guard lock(group->mutex);
            group->fractions[i] = fraction;
            double sum = 0.0;
            bool all = true;
            for (std::size_t j = 0; j < group->fractions.size(); ++j) {
                sum += group->weights[j] * group->fractions[j];
                all = all && group->fractions[j] >= 1.0;
            }
            if (all)
                group->whole.finish();
            else if (fraction >= 1.0) // a part's end is always told, as where parts follow each other
                group->whole.part(0.0, std::min(sum, 1.0 - 1e-9)).finish();
            else
                group->whole.report(std::min(sum, 1.0 - 1e-9));
        });
    return parts;
}

void LoadProgress::report(double fraction) const
{
    if (!m_shared)
        return;
    const double whole = fraction >= 1.0 ? m_to : m_from + std::clamp(fraction, 0.0, 1.0) * (m_to - m_from);
    Shared &s = *m_shared;
    if (whole <= s.told)
        return;
    const auto now = std::chrono::steady_clock::now();
    const bool end = fraction >= 1.0; // a part's end is always told
    if (!end && whole < s.told + kStep && now - s.at < kInterval)
        return;
    s.told = whole;
    s.at = now;
    s.callback(s.told);
}

} // namespace specdec
