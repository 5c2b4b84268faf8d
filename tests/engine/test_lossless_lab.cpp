// SPDX-License-Identifier: GPL-3.0-or-later
// The one-step lossless lab: the correct rule's histogram fits p, each wrong variant's does not, and the
// accepted and replaced parts stack up to p exactly as the theory says.
#include "Error.h"
#include "LosslessLab.h"
#include "TestSupport.h"
#include "TestedDistribution.h"

#include <QtTest>

using namespace specdec;

using test::vec;

class TestLosslessLab : public QObject
{
    Q_OBJECT
private slots:
    void cumulativeMatchesCategorical()
    {
        Rng rng(5);
        const Eigen::VectorXd w = test::randomDistribution(rng, 40, 12);
        const CumulativeDistribution cdf(w);
        for (int i = 0; i < 20000; ++i) {
            const double u = rng.uniform();
            QCOMPARE(cdf.at(u), Rng::categoricalAt(w, u));
        }
        QCOMPARE(CumulativeDistribution(vec({0.2, 0.0, 0.3})).at(0.45, false), 2);
        QCOMPARE(CumulativeDistribution(vec({0.2, 0.0, 0.3})).at(0.6, false), -1); // beyond the mass
    }

    void correctRuleFitsP_data()
    {
        QTest::addColumn<Eigen::VectorXd>("p");
        QTest::addColumn<Eigen::VectorXd>("q");
        Rng rng(11);
        QTest::addRow("random V=30") << test::randomDistribution(rng, 30) << test::randomDistribution(rng, 30);
        QTest::addRow("q misses p's support") << vec({0.5, 0.3, 0.2, 0.0}) << vec({0.0, 0.1, 0.2, 0.7});
        QTest::addRow("disjoint") << vec({0.6, 0.4, 0.0}) << vec({0.0, 0.0, 1.0});
        QTest::addRow("p = q") << vec({0.25, 0.25, 0.5}) << vec({0.25, 0.25, 0.5});
    }
    void correctRuleFitsP()
    {
        QFETCH(Eigen::VectorXd, p);
        QFETCH(Eigen::VectorXd, q);
        LosslessLab lab(p, q, Variant::Correct);
        Rng rng(1);
        lab.run(100000, rng);
        lab.run(100000, rng); // in two parts, as a view shows convergence
        QCOMPARE(lab.samples(), std::int64_t(200000));
        const auto chi = lab.test();
        QVERIFY2(chi.pValue > 1e-3, qPrintable(QString::number(chi.pValue)));
        QVERIFY(lab.totalVariation() < 0.01);
        // The stack: accepted outputs follow min(p, q), replaced ones max(0, p - q).
        const double s = static_cast<double>(lab.samples());
        for (Eigen::Index x = 0; x < p.size(); ++x) {
            const double accepted = std::min(p[x], q[x]) * s;
            const double replaced = std::max(0.0, p[x] - q[x]) * s;
            const auto i = static_cast<std::size_t>(x);
            QVERIFY(std::abs(lab.acceptedCounts()[i] - accepted) <= 5.0 * std::sqrt(accepted) + 1.0);
            QVERIFY(std::abs(lab.replacedCounts()[i] - replaced) <= 5.0 * std::sqrt(replaced) + 1.0);
        }
    }

    void everyWrongVariantIsCaught_data()
    {
        QTest::addColumn<int>("variant");
        for (Variant v : allVariants())
            if (v != Variant::Correct)
                QTest::addRow("%s", variantName(v).c_str()) << static_cast<int>(v);
    }
    void everyWrongVariantIsCaught()
    {
        QFETCH(int, variant);
        const Eigen::VectorXd p = vec({0.45, 0.25, 0.2, 0.1});
        const Eigen::VectorXd q = vec({0.1, 0.2, 0.3, 0.4}); // the draft's tempered q (what it sampled from)
        const auto v = static_cast<Variant>(variant);
        LosslessLab lab(p, q, v, labTestedDistribution(v, q)); // what the lab window runs
        Rng rng(2);
        lab.run(100000, rng);
        const auto chi = lab.test();
        QVERIFY2(chi.pValue < 1e-9, qPrintable(QStringLiteral("%1: p-value %2").arg(variant).arg(chi.pValue)));
        // The same p, q with the correct rule passes: the test has the right size, not just power.
        LosslessLab correct(p, q, Variant::Correct);
        correct.run(100000, rng);
        QVERIFY(correct.test().pValue > 1e-3);
    }

    // The temperature-target-only variant has one definition (TestedDistribution.h): the test forgets the
    // draft's temperature and nothing else; every other variant tests against the q the draft sampled from.
    void testedDistributionIsOneDefinition()
    {
        SamplerSettings draft;
        draft.temperature = 0.7;
        draft.topK = 3;
        draft.topP = 0.9;
        for (Variant v : allVariants()) {
            SamplerSettings expected = draft;
            if (v == Variant::TemperatureTargetOnly)
                expected.temperature = 1.0;
            QVERIFY(testSampler(v, draft) == expected);
        }
        const Eigen::VectorXd raw = vec({0.1, 0.2, 0.3, 0.4});
        Eigen::VectorXd sampled = raw;
        applySampler(draft, sampled);
        QVERIFY(testedDistribution(Variant::Correct, draft, raw) == sampled);
        Eigen::VectorXd atOne = raw;
        SamplerSettings one = draft;
        one.temperature = 1.0;
        applySampler(one, atOne); // top-k 3 of 4, then top-p: still applied
        QVERIFY(testedDistribution(Variant::TemperatureTargetOnly, draft, raw) == atOne);
        QCOMPARE(atOne[0], 0.0);

        // The lab's bars are q at T_d = 1/2: its tested distribution is norm(q^(1/2)), and tempering that at
        // T_d gives the bars back; every other variant tests against the bars themselves.
        const Eigen::VectorXd q = vec({0.1, 0.2, 0.3, 0.4});
        const Eigen::VectorXd tested = labTestedDistribution(Variant::TemperatureTargetOnly, q);
        const Eigen::VectorXd root = q.array().sqrt().matrix() / q.array().sqrt().sum();
        QVERIFY((tested - root).cwiseAbs().maxCoeff() < 1e-15);
        Eigen::VectorXd back = tested;
        SamplerSettings lab;
        lab.temperature = kLabDraftTemperature;
        applySampler(lab, back);
        QVERIFY((back - q).cwiseAbs().maxCoeff() < 1e-12);
        for (Variant v : allVariants())
            if (v != Variant::TemperatureTargetOnly)
                QVERIFY(labTestedDistribution(v, q) == q);
    }

    void badInputIsAnError()
    {
        QVERIFY_THROWS_EXCEPTION(Error, LosslessLab(vec({0.5, 0.5}), vec({1.0}), Variant::Correct));
        QVERIFY_THROWS_EXCEPTION(Error, LosslessLab(vec({0.5, 0.6}), vec({0.5, 0.5}), Variant::Correct));
        QVERIFY_THROWS_EXCEPTION(Error, LosslessLab(vec({1.5, -0.5}), vec({0.5, 0.5}), Variant::Correct));
    }
};

QTEST_APPLESS_MAIN(TestLosslessLab)
#include "test_lossless_lab.moc"
