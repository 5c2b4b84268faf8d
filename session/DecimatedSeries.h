// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DecimatedSeries: the points a plot keeps of a series that grows by one value per round, bounded whatever the
// number of rounds. Rounds are grouped in buckets of `width` consecutive keys (width = 1 at first: every round
// is a point); when more than `capacity` buckets exist, neighbouring pairs merge and the width doubles. So a
// series of n rounds holds at most capacity buckets (2 · capacity points), and adding a value is O(1)
// amortised.
//
// A bucket is drawn as:
//   Last    the value at its last key (cumulative series: the line passes through exact values);
//   MinMax  its smallest and its largest value, each at its own key (per-round scatter: the band stays true).
// Below `capacity` rounds every value is kept exactly as added (tests compare them with the metrics).

#include <cstddef>
#include <vector>

namespace specdec::gui {

class DecimatedSeries
{
public:
    enum class Mode { Last, MinMax };
    struct Point
    {
        double key;
        double value;
    };

    explicit DecimatedSeries(Mode mode = Mode::Last, int capacity = 1000);

    /// Adds the value at `key` (keys increase; integral keys, e.g. round numbers from 1).
    void add(double key, double value);
    void clear();

    /// The points to draw, sorted by key.
    std::vector<Point> points() const;
    /// Buckets held (at most capacity()).
    int buckets() const { return static_cast<int>(m_buckets.size()); }
    int capacity() const { return m_capacity; }
    /// Keys per bucket (a power of two).
    long long width() const { return m_width; }
    /// Values added since the last clear().
    long long added() const { return m_added; }
    bool empty() const { return m_buckets.empty(); }

private:
    struct Bucket
    {
        long long id; ///< floor(key / width)
        Point last;
        Point min;
        Point max;
    };
    void mergePairs();

    Mode m_mode;
    int m_capacity;
    long long m_width = 1;
    long long m_added = 0;
    std::vector<Bucket> m_buckets;
};

} // namespace specdec::gui
