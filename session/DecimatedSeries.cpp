// SPDX-License-Identifier: GPL-3.0-or-later
#include "DecimatedSeries.h"

#include <algorithm>
#include <cmath>

namespace specdec::gui {

DecimatedSeries::DecimatedSeries(Mode mode, int capacity)
    : m_mode(mode)
    , m_capacity(std::max(2, capacity))
{
}

void DecimatedSeries::clear()
{
    m_buckets.clear();
    m_width = 1;
    m_added = 0;
}

void DecimatedSeries::add(double key, double value)
{
    ++m_added;
    const Point point{key, value};
    const long long id = static_cast<long long>(std::floor(std::max(0.0, key))) / m_width;
    if (!m_buckets.empty() && m_buckets.back().id == id) {
        Bucket &b = m_buckets.back();
        b.last = point;
        if (value < b.min.value)
            b.min = point;
        if (value > b.max.value)
            b.max = point;
        return;
    }
    m_buckets.push_back({id, point, point, point});
    if (static_cast<int>(m_buckets.size()) > m_capacity)
        mergePairs();
}

void DecimatedSeries::mergePairs()
{
    m_width *= 2;
    std::size_t out = 0;
    for (std::size_t i = 0; i < m_buckets.size(); ++i) {
        Bucket b = m_buckets[i];
        b.id /= 2;
        if (out > 0 && m_buckets[out - 1].id == b.id) {
            Bucket &into = m_buckets[out - 1];
            into.last = b.last;
            if (b.min.value < into.min.value)
                into.min = b.min;
            if (b.max.value > into.max.value)
                into.max = b.max;
        } else {
            m_buckets[out++] = b;
        }
    }
    m_buckets.resize(out);
}

std::vector<DecimatedSeries::Point> DecimatedSeries::points() const
{
    std::vector<Point> out;
    out.reserve(m_buckets.size() * (m_mode == Mode::MinMax ? 2 : 1));
    for (const Bucket &b : m_buckets) {
        if (m_mode == Mode::Last) {
            out.push_back(b.last);
            continue;
        }
        const Point &first = b.min.key <= b.max.key ? b.min : b.max;
        const Point &second = b.min.key <= b.max.key ? b.max : b.min;
        out.push_back(first);
        if (second.key != first.key || second.value != first.value)
            out.push_back(second);
    }
    return out;
}

} // namespace specdec::gui
