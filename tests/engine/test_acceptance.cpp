// SPDX-License-Identifier: GPL-3.0-or-later
// The acceptance rule and the residual, tested exactly: one speculative step outputs x with probability
// q(x)·min(1, p(x)/q(x)) + (1 − Σ_y min(p(y), q(y)))·residual(x), which must equal p(x).
#include "Acceptance.h"
#include "TestSupport.h"

#include <QtTest>

using namespace specdec;

namespace {
using test::vec;

/// P(output = x) of one step of the rule, computed in closed form from p and q.
Eigen::VectorXd oneStepOutput(const Eigen::VectorXd &p, const Eigen::VectorXd &q)
{
    Eigen::VectorXd out(p.size());
    const Eigen::VectorXd r = residualDistribution(p, q);
    const double rejection = 1.0 - overlapMass(p, q);
    for (Eigen::Index x = 0; x < p.size(); ++x)
        out[x] = q[x] * acceptanceProbability(p[x], q[x]) + rejection * r[x];
    return out;
}

} // namespace

class TestAcceptance : public QObject
{
    Q_OBJECT
private slots:
    void acceptanceProbabilityIsMinOneRatio()
    {
        QCOMPARE(acceptanceProbability(0.3, 0.6), 0.5);
        QCOMPARE(acceptanceProbability(0.6, 0.3), 1.0);
        QCOMPARE(acceptanceProbability(0.25, 0.25), 1.0);
        QCOMPARE(acceptanceProbability(0.0, 0.4), 0.0);
        QCOMPARE(acceptanceProbability(0.2, 0.0), 1.0);
        QCOMPARE(acceptanceProbability(0.0, 0.0), 0.0);
    }

    void residualIsNormalisedPositivePart()
    {
        const Eigen::VectorXd r = residualDistribution(vec({0.5, 0.3, 0.2}), vec({0.2, 0.6, 0.2}));
        QCOMPARE(r[0], 1.0);
        QCOMPARE(r[1], 0.0);
        QCOMPARE(r[2], 0.0);
        const Eigen::VectorXd r2 = residualDistribution(vec({0.4, 0.4, 0.2}), vec({0.1, 0.2, 0.7}));
        QVERIFY(std::abs(r2[0] - 0.6) < 1e-15);
        QVERIFY(std::abs(r2[1] - 0.4) < 1e-15);
        QCOMPARE(r2[2], 0.0);
        // p = q: no residual mass; p itself is returned so the result stays a distribution.
        const Eigen::VectorXd same = vec({0.1, 0.9});
        QCOMPARE(residualDistribution(same, same), same);
    }

    void overlapAndTotalVariation()
    {
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2});
        const Eigen::VectorXd q = vec({0.2, 0.6, 0.2});
        QVERIFY(std::abs(overlapMass(p, q) - 0.7) < 1e-15);
        QVERIFY(std::abs(totalVariation(p, q) - 0.3) < 1e-15);
        // Two equal distributions whose sum is 1 plus a rounding (as a softmax's can be): beta is exactly 1, so
        // TV = 1 - beta is 0, not -2e-16 (once shown as "TV -0.000" beside two equal bars).
        const Eigen::VectorXd r = vec({0.5, 0.5 + 1e-15});
        QVERIFY(r.sum() > 1.0);
        QCOMPARE(overlapMass(r, r), 1.0);
        QVERIFY(1.0 - overlapMass(r, r) >= 0.0);
    }

    void identityHoldsExactly_data()
    {
        QTest::addColumn<Eigen::VectorXd>("p");
        QTest::addColumn<Eigen::VectorXd>("q");
        QTest::addRow("q zero where p > 0") << vec({0.5, 0.5, 0.0}) << vec({0.0, 0.3, 0.7});
        QTest::addRow("p = q") << vec({0.2, 0.3, 0.5}) << vec({0.2, 0.3, 0.5});
        QTest::addRow("disjoint supports") << vec({0.6, 0.4, 0.0, 0.0}) << vec({0.0, 0.0, 0.1, 0.9});
        QTest::addRow("one-hot p") << vec({0.0, 1.0, 0.0}) << vec({0.3, 0.3, 0.4});
        QTest::addRow("one-hot q") << vec({0.3, 0.3, 0.4}) << vec({1.0, 0.0, 0.0});
        QTest::addRow("both one-hot, different") << vec({1.0, 0.0}) << vec({0.0, 1.0});
        QTest::addRow("both one-hot, same") << vec({0.0, 1.0}) << vec({0.0, 1.0});
        QTest::addRow("tiny masses") << vec({1e-300, 1.0 - 1e-300, 0.0}) << vec({0.5, 0.25, 0.25});
        Rng rng(20261130);
        for (int i = 0; i < 200; ++i) {
            const int n = 2 + static_cast<int>(rng.next() % 60);
            QTest::addRow("random %d (V=%d)", i, n) << test::randomDistribution(rng, n, i % 3 == 0 ? n / 3 : 0)
                                                    << test::randomDistribution(rng, n, i % 4 == 0 ? n / 3 : 0);
        }
    }
    void identityHoldsExactly()
    {
        QFETCH(Eigen::VectorXd, p);
        QFETCH(Eigen::VectorXd, q);
        const Eigen::VectorXd out = oneStepOutput(p, q);
        const double error = (out - p).cwiseAbs().maxCoeff();
        QVERIFY2(error <= 1e-12, qPrintable(QStringLiteral("max |P(out) - p| = %1").arg(error)));
    }

    void wrongVariantsBreakTheIdentity()
    {
        // The closed form of each wrong variant differs from p on a simple case, by a known amount.
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2});
        const Eigen::VectorXd q = vec({0.2, 0.6, 0.2});
        // accept-all outputs q.
        QVERIFY((q - p).cwiseAbs().maxCoeff() > 0.1);
        // resample-from-target: q·min(1,p/q) + (1-β)·p = (0.2, 0.3, 0.2) + 0.3·p = (0.35, 0.39, 0.26).
        Eigen::VectorXd resample(3);
        for (int x = 0; x < 3; ++x)
            resample[x] = q[x] * acceptanceProbability(p[x], q[x]) + (1.0 - overlapMass(p, q)) * p[x];
        QVERIFY(std::abs(resample[0] - 0.35) < 1e-12);
        QVERIFY(std::abs(resample[1] - 0.39) < 1e-12);
    }

    void acceptsDraftFollowsEachVariant()
    {
        // p(x) = 0.2, q(x) = 0.4: threshold 0.5.
        QVERIFY(acceptsDraft(Variant::Correct, 0.49, 0.2, 0.4, 1, 0));
        QVERIFY(!acceptsDraft(Variant::Correct, 0.5, 0.2, 0.4, 1, 0));
        QVERIFY(acceptsDraft(Variant::AcceptAll, 0.99, 0.2, 0.4, 1, 0));
        QVERIFY(!acceptsDraft(Variant::GreedyMatch, 0.0, 0.2, 0.4, 1, 0));
        QVERIFY(acceptsDraft(Variant::GreedyMatch, 0.99, 0.2, 0.4, 1, 1));
    }

    void unnormalisedResidualFallsBackToDraft()
    {
        // max(0, p - q) = (0.3, 0, 0) has mass 0.3: a replacement draw keeps the draft token 70% of the time.
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2});
        const Eigen::VectorXd q = vec({0.2, 0.6, 0.2});
        Rng rng(7);
        int keptDraft = 0;
        Eigen::VectorXd residual;
        const int n = 20000;
        for (int i = 0; i < n; ++i)
            keptDraft += drawReplacement(Variant::UnnormalizedResidual, rng, p, q, 1, residual) == 1;
        QVERIFY(std::abs(keptDraft / double(n) - 0.7) < 0.02);
        QVERIFY(std::abs(residual.sum() - 0.3) < 1e-15);
        // The correct rule never returns a token outside the residual's support.
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(drawReplacement(Variant::Correct, rng, p, q, 1, residual), 0);
    }

    void variantNamesRoundTrip()
    {
        for (Variant v : allVariants()) {
            QCOMPARE(variantFromName(variantName(v)), std::optional<Variant>(v));
            QVERIFY(!variantExplanation(v).empty());
        }
        QVERIFY(!variantFromName("nonsense").has_value());
    }
};

QTEST_APPLESS_MAIN(TestAcceptance)
#include "test_acceptance.moc"
