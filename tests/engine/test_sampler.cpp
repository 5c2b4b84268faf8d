// SPDX-License-Identifier: GPL-3.0-or-later
// Sampler settings (temperature, top-k, top-p, greedy) and the random number generator.
#include "Error.h"
#include "Random.h"
#include "Sampler.h"
#include "Statistics.h"
#include "TestSupport.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace specdec;

namespace {
using test::vec;
bool near(const Eigen::VectorXd &a, const Eigen::VectorXd &b, double tolerance = 1e-12)
{
    return a.size() == b.size() && (a - b).cwiseAbs().maxCoeff() <= tolerance;
}
} // namespace

class TestSampler : public QObject
{
    Q_OBJECT
private slots:
    void identityLeavesDistribution()
    {
        Eigen::VectorXd p = vec({0.1, 0.2, 0.7});
        applySampler({}, p);
        QCOMPARE(p, vec({0.1, 0.2, 0.7}));
    }

    void temperatureRaisesToOneOverT()
    {
        Eigen::VectorXd p = vec({0.2, 0.8});
        applySampler({0.5, 0, 1.0}, p); // p^2 normalised: (0.04, 0.64) / 0.68
        QVERIFY(near(p, vec({0.04 / 0.68, 0.64 / 0.68})));
        Eigen::VectorXd hot = vec({0.2, 0.8});
        applySampler({2.0, 0, 1.0}, hot); // sqrt: (0.4472, 0.8944) normalised
        const double a = std::sqrt(0.2), b = std::sqrt(0.8);
        QVERIFY(near(hot, vec({a / (a + b), b / (a + b)})));
        // A tiny temperature must not underflow to an all-zero vector.
        Eigen::VectorXd cold = vec({0.3, 0.7, 0.0});
        applySampler({1e-4, 0, 1.0}, cold);
        QVERIFY(near(cold, vec({0.0, 1.0, 0.0})));
    }

    void greedyIsOneHotArgmaxWithLowestIdOnTies()
    {
        Eigen::VectorXd p = vec({0.1, 0.45, 0.45});
        applySampler({0.0, 0, 1.0}, p);
        QCOMPARE(p, vec({0.0, 1.0, 0.0}));
        QCOMPARE(argmax(vec({0.3, 0.3, 0.4})), 2);
        QCOMPARE(argmax(vec({0.5, 0.5})), 0);
    }

    void topKKeepsKLargestTiesToLowerId()
    {
        Eigen::VectorXd p = vec({0.1, 0.3, 0.3, 0.3});
        applySampler({1.0, 2, 1.0}, p);
        QVERIFY(near(p, vec({0.0, 0.5, 0.5, 0.0})));
        Eigen::VectorXd q = vec({0.1, 0.2, 0.3, 0.4});
        applySampler({1.0, 10, 1.0}, q); // k >= V: unchanged
        QVERIFY(near(q, vec({0.1, 0.2, 0.3, 0.4})));
    }

    void topPKeepsSmallestPrefixReachingP()
    {
        Eigen::VectorXd p = vec({0.1, 0.2, 0.3, 0.4});
        applySampler({1.0, 0, 0.7}, p); // 0.4 + 0.3 = 0.7 reaches 0.7
        QVERIFY(near(p, vec({0.0, 0.0, 0.3 / 0.7, 0.4 / 0.7})));
        Eigen::VectorXd q = vec({0.1, 0.2, 0.3, 0.4});
        applySampler({1.0, 0, 0.71}, q); // needs the 0.2 as well
        QVERIFY(near(q, vec({0.0, 0.2 / 0.9, 0.3 / 0.9, 0.4 / 0.9})));
        Eigen::VectorXd tiny = vec({0.1, 0.2, 0.3, 0.4});
        applySampler({1.0, 0, 1e-9}, tiny); // the top token always survives
        QVERIFY(near(tiny, vec({0.0, 0.0, 0.0, 1.0})));
    }

    // Top-p ranks only as many ids as its nucleus needs (chunks picked by nth_element): over a 151,669-id vector
    // with ties, zeros and nuclei of 1 to ~10^5 ids, the same bits as ranking every id by a full sort (the rule
    // as it was written first, kept here as the reference).
    void topPOverALargeVocabularyMatchesAFullSort()
    {
        auto reference = [](Eigen::VectorXd p, double topP) {
            std::vector<int> order(static_cast<std::size_t>(p.size()));
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
            const double total = p.sum();
            double mass = 0.0;
            std::size_t kept = 0;
            while (kept < order.size() && mass < topP * total)
                mass += p[order[kept++]];
            for (std::size_t i = kept; i < order.size(); ++i)
                p[order[i]] = 0.0;
            return Eigen::VectorXd(p / p.sum());
        };
        Rng rng(25);
        Eigen::VectorXd p(151669);
        for (Eigen::Index i = 0; i < p.size(); ++i) {
            const double u = rng.uniform();
            // a few heavy ids, a long tail, ties (values on a grid) and zeros
            p[i] = i % 7 == 0 ? 0.0 : std::floor(std::pow(u, 8.0) * 1000.0) / 1000.0 + (i % 5000 == 1 ? 50.0 : 0.0);
        }
        p /= p.sum();
        for (const double topP : {1e-9, 0.05, 0.5, 0.9, 0.99, 0.999999}) {
            Eigen::VectorXd fast = p;
            applySampler({1.0, 0, topP}, fast);
            const Eigen::VectorXd slow = reference(p, topP);
            QVERIFY2(fast == slow, qPrintable(QStringLiteral("top-p %1").arg(topP)));
            QVERIFY((fast.array() > 0.0).count() >= 1);
        }
    }

    void temperatureThenTopKThenTopP()
    {
        Eigen::VectorXd p = vec({0.1, 0.2, 0.3, 0.4});
        applySampler({0.5, 3, 0.6}, p);
        // T=0.5: (1, 4, 9, 16)/30; top-3: (0, 4, 9, 16)/29; top-p 0.6: 16/29 = 0.55 < 0.6, so keep 9 too.
        QVERIFY(near(p, vec({0.0, 0.0, 9.0 / 25.0, 16.0 / 25.0})));
    }

    void invalidSettingsAreErrors()
    {
        QVERIFY_THROWS_EXCEPTION(Error, (SamplerSettings{-0.1, 0, 1.0}.validate()));
        QVERIFY_THROWS_EXCEPTION(Error, (SamplerSettings{1.0, -1, 1.0}.validate()));
        QVERIFY_THROWS_EXCEPTION(Error, (SamplerSettings{1.0, 0, 0.0}.validate()));
        QVERIFY_THROWS_EXCEPTION(Error, (SamplerSettings{1.0, 0, 1.5}.validate()));
        SamplerSettings{0.0, 5, 0.5}.validate();
    }

    void rngMatchesReferenceSplitMixAndIsUniform()
    {
        // SplitMix64's published first output from state 0 is 0xE220A8397B1DCDAF; xoshiro's state starts there.
        std::uint64_t x = 0x9E3779B97F4A7C15ULL;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        QCOMPARE(x ^ (x >> 31), 0xE220A8397B1DCDAFULL);
        Rng a(42), b(42), c(43);
        for (int i = 0; i < 100; ++i) {
            const auto va = a.next();
            QCOMPARE(va, b.next());
            QVERIFY(va != c.next());
        }
        // Uniform draws stay in [0, 1) and fill ten bins evenly.
        Rng r(1);
        std::vector<std::int64_t> bins(10, 0);
        for (int i = 0; i < 100000; ++i) {
            const double u = r.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            ++bins[static_cast<std::size_t>(u * 10)];
        }
        QVERIFY(chiSquareTest(bins, std::vector<double>(10, 0.1)).pValue > 1e-3);
    }

    void categoricalFollowsWeights()
    {
        const Eigen::VectorXd w = vec({0.5, 0.0, 1.5, 2.0}); // unnormalised on purpose
        Rng r(3);
        std::vector<std::int64_t> counts(4, 0);
        for (int i = 0; i < 200000; ++i)
            ++counts[static_cast<std::size_t>(r.categorical(w))];
        QCOMPARE(counts[1], std::int64_t(0));
        const auto chi = chiSquareTest(counts, {0.125, 0.0, 0.375, 0.5});
        QVERIFY2(chi.pValue > 1e-3, qPrintable(QString::number(chi.pValue)));
        QCOMPARE(Rng::categoricalAt(w, 0.0), 0);
        QCOMPARE(Rng::categoricalAt(w, 0.999999999), 3);
        QCOMPARE(Rng::categoricalAt(w, 0.125), 2); // lands exactly on a boundary: the next token with mass
    }
};

QTEST_APPLESS_MAIN(TestSampler)
#include "test_sampler.moc"
