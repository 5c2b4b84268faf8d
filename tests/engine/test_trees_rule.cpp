// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees, the rule: the shape, testChildren step by step (each rejected child turns p' into
// norm(max(0, p' - q))), one child = the chain's rule, the output distribution exactly p by enumeration with both
// wrong variants exactly biased, the exact one-node acceptance 1 - prod(1 - beta_j), and the k-candidates lab
// beside that formula, catching both wrong variants.
#include "Acceptance.h"
#include "CandidatesLab.h"
#include "Error.h"
#include "TestSupport.h"
#include "Theory.h"
#include "TokenTree.h"
#include "TreeAcceptance.h"

#include <QtTest>

#include <cmath>

using namespace specdec;
using test::onCi;
using test::vec;

namespace {

/// The exact output distribution of one node's test, and the chance that a child is accepted: every
/// k-tuple of children weighted by prod q(x_j), every die integrated out. The threshold of child j depends
/// only on the rejections before it, so one all-rejecting pass of testChildren gives every threshold.
std::pair<Eigen::VectorXd, double> exactOneStep(TreeVariant variant, const Eigen::VectorXd &p, const Eigen::VectorXd &q,
                                                int k)
{
    const int V = static_cast<int>(p.size());
    Eigen::VectorXd out = Eigen::VectorXd::Zero(V);
    double accepted = 0.0;
    std::vector<int> children(static_cast<std::size_t>(k), 0);
    const auto almostOne = [] { return 1.0 - 0x1.0p-53; };
    while (true) {
        double weight = 1.0;
        for (int x : children)
            weight *= q[x];
        if (weight > 0.0) {
            const NodeTest t = testChildren(variant, p, q, children, false, almostOne);
            double reach = 1.0;
            for (std::size_t j = 0; j < t.children.size() && reach > 0.0; ++j) {
                out[children[j]] += weight * reach * t.children[j].threshold;
                accepted += weight * reach * t.children[j].threshold;
                reach *= 1.0 - t.children[j].threshold;
            }
            if (reach > 0.0)
                out += weight * reach * t.residual;
        }
        int i = 0;
        while (i < k && ++children[static_cast<std::size_t>(i)] == V)
            children[static_cast<std::size_t>(i++)] = 0;
        if (i == k)
            break;
    }
    return {out, accepted};
}

} // namespace

class TestTreesRule : public QObject
{
    Q_OBJECT
private slots:
    void shapes()
    {
        const TreeShape t = TreeShape::parse("3,2,1");
        QCOMPARE(t.depth(), 3);
        QCOMPARE(t.nodeCount(), 15);
        QCOMPARE(t.leafCount(), 6);
        QVERIFY(!t.isChain());
        QCOMPARE(t.describe(), std::string("3,2,1"));
        QCOMPARE(TreeShape::parse(" 1, 1,1 ,1"), TreeShape::chain(4));
        QVERIFY(TreeShape::chain(4).isChain());
        QCOMPARE(t.truncated(2).describe(), std::string("3,2"));
        QCOMPARE(t.truncated(9), t);
    }

    void badShapesAreErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("empty") << QString() << QStringLiteral("entry 1 ('') is not a whole number");
        QTest::addRow("hole") << QStringLiteral("3,,1") << QStringLiteral("entry 2 ('')");
        QTest::addRow("word") << QStringLiteral("3,x") << QStringLiteral("entry 2 ('x')");
        QTest::addRow("fraction") << QStringLiteral("2.5") << QStringLiteral("entry 1 ('2.5')");
        QTest::addRow("zero") << QStringLiteral("2,0") << QStringLiteral("depth 2 has 0 children");
        QTest::addRow("too wide") << QStringLiteral("9") << QStringLiteral("allows 1 to 8");
        QTest::addRow("too many nodes") << QStringLiteral("8,8,8,8") << QStringLiteral("more than 512 nodes");
        QTest::addRow("too deep") << QStringLiteral("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1")
                                  << QStringLiteral("at most 16 depths");
        QTest::addRow("huge number") << QStringLiteral("99999999999") << QStringLiteral("entry 1");
    }
    void badShapesAreErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        try {
            TreeShape::parse(text.toStdString());
            QFAIL("no error");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("tree shape '")), e.what());
        }
    }

    void ruleStepByStep()
    {
        // p = (.5, .3, .2), q = (.2, .6, .2). Children 1, 1: the first is tested at p'(1)/q(1) = .3/.6.
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2}), q = vec({0.2, 0.6, 0.2});
        std::vector<double> dice{0.7, 0.1, 0.25};
        std::size_t rolled = 0;
        const auto next = [&] { return dice.at(rolled++); };
        const std::vector<int> same{1, 1};
        NodeTest t = testChildren(TreeVariant::Correct, p, q, same, false, next, true);
        QCOMPARE(t.children.size(), std::size_t(2));
        QCOMPARE(t.children[0].pUsed, 0.3);
        QCOMPARE(t.children[0].threshold, 0.5);
        QCOMPARE(t.children[0].u, 0.7);
        QVERIFY(!t.children[0].accepted);
        // p' = norm(max(0, p - q)) = (1, 0, 0): the second copy of token 1 has no chance left.
        QCOMPARE(t.pUsedDists[1], vec({1.0, 0.0, 0.0}));
        QCOMPARE(t.children[1].pUsed, 0.0);
        QCOMPARE(t.children[1].threshold, 0.0);
        QCOMPARE(t.accepted, -1);
        QCOMPARE(t.residual, vec({1.0, 0.0, 0.0}));
        QCOMPARE(t.correction, 0);
        QCOMPARE(rolled, std::size_t(3)); // one die per child, one draw for the correction

        // Without the residual update the second copy is tested against p again: .5, and u = .1 passes.
        rolled = 0;
        t = testChildren(TreeVariant::NoResidualUpdate, p, q, same, false, next);
        QCOMPARE(t.accepted, 1);
        QCOMPARE(t.children[1].threshold, 0.5);
        QCOMPARE(rolled, std::size_t(2));

        // Children 1, 0: token 0 after the rejection has p'(0) = 1 >= q(0): accepted whatever the die.
        dice = {0.7, 0.999};
        rolled = 0;
        t = testChildren(TreeVariant::Correct, p, q, std::vector<int>{1, 0}, false, next);
        QCOMPARE(t.accepted, 1);
        QCOMPARE(t.children[1].threshold, 1.0);
        QCOMPARE(t.correction, -1);

        // Typical acceptance: H(p) = 1.0297, threshold min(.09, .3 e^-H) = .09: no dice.
        QVERIFY(std::abs(typicalThreshold(p) - 0.09) < 1e-12);
        QVERIFY(std::abs(typicalThreshold(Eigen::VectorXd::Constant(8, 0.125)) - 0.3 / 8.0) < 1e-12); // .3 e^-ln 8
        rolled = 0;
        dice = {0.5};
        t = testChildren(TreeVariant::TypicalAcceptance, vec({0.95, 0.05}), vec({0.5, 0.5}), std::vector<int>{1, 0},
                         false, next);
        QCOMPARE(t.accepted, 1); // threshold min(.09, .3 e^-.1985) = .09: p(1) = .05 fails, p(0) = .95 passes
        QCOMPARE(rolled, std::size_t(0));

        // Greedy: descend into the child equal to argmax p; no die rolled; else argmax p.
        rolled = 0;
        dice = {};
        t = testChildren(TreeVariant::Correct, vec({0.0, 1.0, 0.0}), q, std::vector<int>{0, 2, 1}, true, next);
        QCOMPARE(t.accepted, 2);
        t = testChildren(TreeVariant::Correct, vec({0.0, 1.0, 0.0}), q, std::vector<int>{0, 2}, true, next);
        QCOMPARE(t.accepted, -1);
        QCOMPARE(t.correction, 1);
        QCOMPARE(rolled, std::size_t(0));
    }

    void oneChildIsTheChainRule()
    {
        Rng rng(3);
        for (int i = 0; i < 2000; ++i) {
            const Eigen::VectorXd p = test::randomDistribution(rng, 12, 4);
            const Eigen::VectorXd q = test::randomDistribution(rng, 12, 4);
            const int x = Rng::categoricalAt(q, rng.uniform());
            const double u1 = rng.uniform(), u2 = rng.uniform();
            std::vector<double> dice{u1, u2};
            std::size_t rolled = 0;
            const NodeTest t = testChildren(TreeVariant::Correct, p, q, std::vector<int>{x}, false,
                                            [&] { return dice.at(rolled++); });
            const bool accepted = u1 < acceptanceProbability(p[x], q[x]);
            QCOMPARE(t.accepted == 0, accepted);
            if (!accepted)
                QCOMPARE(t.correction, Rng::categoricalAt(residualDistribution(p, q), u2));
        }
    }

    void ruleIsExactlyLossless_data()
    {
        QTest::addColumn<Eigen::VectorXd>("p");
        QTest::addColumn<Eigen::VectorXd>("q");
        QTest::addColumn<int>("k");
        Rng rng(21);
        QTest::addRow("random V=5 k=2") << test::randomDistribution(rng, 5) << test::randomDistribution(rng, 5) << 2;
        QTest::addRow("random V=5 k=3") << test::randomDistribution(rng, 5) << test::randomDistribution(rng, 5) << 3;
        QTest::addRow("random V=4 k=4, zeros")
            << test::randomDistribution(rng, 4, 1) << test::randomDistribution(rng, 4, 1) << 4;
        QTest::addRow("q misses p's support k=3") << vec({0.5, 0.3, 0.2, 0.0}) << vec({0.0, 0.1, 0.2, 0.7}) << 3;
        QTest::addRow("p = q k=2") << vec({0.25, 0.25, 0.5}) << vec({0.25, 0.25, 0.5}) << 2;
    }
    void ruleIsExactlyLossless()
    {
        QFETCH(Eigen::VectorXd, p);
        QFETCH(Eigen::VectorXd, q);
        QFETCH(int, k);
        const auto [out, accepted] = exactOneStep(TreeVariant::Correct, p, q, k);
        QVERIFY2((out - p).cwiseAbs().maxCoeff() < 1e-12, "the output distribution is not p");
        QVERIFY(std::abs(accepted - theory::treeNodeAcceptance(p, q, k)) < 1e-12);
    }

    void wrongVariantsAreExactlyBiased()
    {
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2}), q = vec({0.2, 0.6, 0.2});
        for (TreeVariant v : {TreeVariant::NoResidualUpdate, TreeVariant::TypicalAcceptance}) {
            const auto [out, accepted] = exactOneStep(v, p, q, 2);
            QVERIFY(std::abs(out.sum() - 1.0) < 1e-12);
            QVERIFY2((out - p).cwiseAbs().maxCoeff() > 0.02, treeVariantName(v).c_str());
        }
        // k = 1: no residual update to forget, the variant equals the rule.
        QVERIFY((exactOneStep(TreeVariant::NoResidualUpdate, p, q, 1).first - p).cwiseAbs().maxCoeff() < 1e-12);
    }

    void oneNodeAcceptanceFormula()
    {
        const Eigen::VectorXd p = vec({0.5, 0.3, 0.2}), q = vec({0.2, 0.6, 0.2});
        QVERIFY(std::abs(theory::treeNodeAcceptance(p, q, 1) - 0.7) < 1e-12);  // beta
        QVERIFY(std::abs(theory::treeNodeAcceptance(p, q, 2) - 0.76) < 1e-12); // 1 - .3 * (1 - .2)
        QVERIFY(std::abs(theory::treeNodeAcceptance(p, p, 3) - 1.0) < 1e-12);
        QVERIFY(std::abs(theory::treeNodeAcceptance(vec({1.0, 0.0}), vec({0.0, 1.0}), 4)) < 1e-12);
    }
    void candidatesLabMatchesTheFormula_data()
    {
        QTest::addColumn<Eigen::VectorXd>("p");
        QTest::addColumn<Eigen::VectorXd>("q");
        Rng rng(31);
        QTest::addRow("random V=8") << test::randomDistribution(rng, 8) << test::randomDistribution(rng, 8);
        QTest::addRow("random V=20, zeros")
            << test::randomDistribution(rng, 20, 5) << test::randomDistribution(rng, 20, 5);
        QTest::addRow("q misses p's support") << vec({0.5, 0.3, 0.2, 0.0}) << vec({0.0, 0.1, 0.2, 0.7});
    }
    void candidatesLabMatchesTheFormula()
    {
        QFETCH(Eigen::VectorXd, p);
        QFETCH(Eigen::VectorXd, q);
        const std::int64_t samples = onCi() ? 40000 : 100000;
        for (int k = 1; k <= 4; ++k) {
            CandidatesLab lab(p, q, k, TreeVariant::Correct);
            Rng rng(100 + static_cast<std::uint64_t>(k));
            lab.run(samples, rng);
            qInfo("k=%d acceptance exact %.4f measured %.4f +- %.4f", k, lab.exactAcceptance(),
                  lab.measuredAcceptance(), lab.acceptanceHalfWidth());
            QVERIFY(std::abs(lab.measuredAcceptance() - lab.exactAcceptance()) < lab.acceptanceHalfWidth());
            QVERIFY2(lab.test().pValue > 1e-3, qPrintable(QString::number(lab.test().pValue)));
            // The parts stack up to the histogram.
            for (Eigen::Index x = 0; x < p.size(); ++x) {
                std::int64_t sum = lab.correctionCounts()[static_cast<std::size_t>(x)];
                for (int j = 0; j < k; ++j)
                    sum += lab.acceptedCounts(j)[static_cast<std::size_t>(x)];
                QCOMPARE(sum, lab.counts()[static_cast<std::size_t>(x)]);
            }
        }
    }

    void candidatesLabCatchesWrongVariants()
    {
        Rng source(41);
        const Eigen::VectorXd p = test::randomDistribution(source, 8), q = test::randomDistribution(source, 8);
        for (TreeVariant v : {TreeVariant::NoResidualUpdate, TreeVariant::TypicalAcceptance}) {
            CandidatesLab lab(p, q, 3, v);
            Rng rng(7);
            lab.run(onCi() ? 40000 : 100000, rng);
            qInfo("%s: p-value %.3g TV %.4f", treeVariantName(v).c_str(), lab.test().pValue, lab.totalVariation());
            QVERIFY2(lab.test().pValue < 1e-9, treeVariantName(v).c_str());
        }
        QVERIFY_THROWS_EXCEPTION(Error, CandidatesLab(p, q, 0, TreeVariant::Correct));
        QVERIFY_THROWS_EXCEPTION(Error, CandidatesLab(p, vec({1.0}), 2, TreeVariant::Correct));
    }
};

QTEST_APPLESS_MAIN(TestTreesRule)
#include "test_trees_rule.moc"
