// SPDX-License-Identifier: GPL-3.0-or-later
#include "LoadProgress.h"

#include <algorithm>

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
