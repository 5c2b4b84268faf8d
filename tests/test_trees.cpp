// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees: the shape, the multi-step rule (exactly, by enumeration), the exact one-node acceptance,
// greedy tree decoding equal to greedy autoregressive decoding (both corpora, several shapes, n-gram and
// ONNX models), the tree 1,1,...,1 equal to the chain, the trace, the metrics, the k-candidates lab, and the
// lossless claim by chi-square with both wrong variants caught by the same test.
#include "CandidatesLab.h"
#include "Continuations.h"
#include "Error.h"
#include "Generation.h"
#include "TestSupport.h"
#include "Theory.h"
#include "TreeDecoder.h"
#include "TreeMetrics.h"
#include "TreePath.h"
#include "Utf8.h"
#ifdef SPECDEC_TREES_ONNX
#include "onnx/OnnxLanguageModel.h"
#endif

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace specdec;
using test::vec;

namespace {

bool onCi()
{
    const char *ci = std::getenv("CI");
    return ci && std::strcmp(ci, "true") == 0;
}

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

DecodingSettings treeSettings(const char *shape, double temperature, double topP, std::uint64_t seed,
                              TreeVariant variant = TreeVariant::Correct)
{
    DecodingSettings s;
    s.tree = TreeShape::parse(shape);
    s.target = {temperature, 0, topP};
    s.draft = {temperature, 0, topP};
    s.seed = seed;
    s.treeVariant = variant;
    return s;
}

} // namespace

Q_DECLARE_METATYPE(specdec::DecodingSettings)

class TestTrees : public QObject
{
    Q_OBJECT
private:
    Corpus m_corpus = test::tinyEnglish();
    std::unique_ptr<LanguageModel> m_target = test::model("ngram:3", m_corpus);
    std::unique_ptr<LanguageModel> m_draft = test::model("ngram:1:addk=1", m_corpus);
    std::vector<TokenId> m_prompt = m_corpus.vocabulary.encode(U"the ");

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
        QTest::addRow("too deep") << QStringLiteral("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1") << QStringLiteral("at most 16 depths");
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
        QTest::addRow("random V=4 k=4, zeros") << test::randomDistribution(rng, 4, 1) << test::randomDistribution(rng, 4, 1) << 4;
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

    void batchedCallIsOneCall()
    {
        const std::vector<TokenId> a = m_corpus.vocabulary.encode(U"the c"), b = m_corpus.vocabulary.encode(U"a do");
        const std::vector<SequenceRequest> requests{{a, 3}, {b, 1}};
        std::vector<DistributionMatrix> rows;
        m_target->resetStats();
        m_target->batchDistributions(requests, rows);
        QCOMPARE(m_target->stats().calls, std::int64_t(1));
        QCOMPARE(m_target->stats().positions, std::int64_t(4));
        DistributionMatrix single;
        m_target->distributions(a, 3, single);
        QCOMPARE(rows[0], single);
        m_target->distributions(b, 1, single);
        QCOMPARE(rows[1], single);
        QVERIFY_THROWS_EXCEPTION(Error, m_target->batchDistributions({}, rows));
        const std::vector<SequenceRequest> bad{{a, 7}};
        QVERIFY_THROWS_EXCEPTION(Error, m_target->batchDistributions(bad, rows));
    }

    void chainTreeEqualsChainDecoder()
    {
        for (double temperature : {1.0, 0.7, 0.0}) {
            DecodingSettings chain;
            chain.draftLength = 4;
            chain.target.temperature = chain.draft.temperature = temperature;
            chain.seed = 42;
            DecodingSettings tree = chain;
            tree.tree = TreeShape::parse("1,1,1,1");
            const Generation a = generateSpeculative(*m_target, *m_draft, chain, m_prompt, 120);
            const Generation b = generateSpeculative(*m_target, *m_draft, tree, m_prompt, 120);
            QCOMPARE(b.tokens, a.tokens);
            QCOMPARE(b.treeRounds.size(), a.rounds.size());
            for (std::size_t r = 0; r < a.rounds.size(); ++r) {
                QCOMPARE(b.treeRounds[r].committed, a.rounds[r].committed);
                QCOMPARE(b.treeRounds[r].acceptedCount(), a.rounds[r].acceptedCount());
                for (int i = 0; i < a.rounds[r].testedCount(); ++i)
                    QCOMPARE(b.treeRounds[r].nodes[static_cast<std::size_t>(i)].u,
                             a.rounds[r].positions[static_cast<std::size_t>(i)].u);
            }
            QCOMPARE(b.target.calls, a.target.calls);
            QCOMPARE(b.draft.calls, a.draft.calls);
        }
    }

    void pathOfAChainTreeIsTheChainRound()
    {
        // The chain view of the tree 1,1,1,1 is the chain decoder's round: tokens, verdicts, dice, thresholds.
        DecodingSettings chain;
        chain.draftLength = 4;
        chain.seed = 7;
        DecodingSettings tree = chain;
        tree.tree = TreeShape::parse("1,1,1,1");
        const Generation a = generateSpeculative(*m_target, *m_draft, chain, m_prompt, 100);
        const Generation b = generateSpeculative(*m_target, *m_draft, tree, m_prompt, 100);
        QCOMPARE(b.treeRounds.size(), a.rounds.size());
        for (std::size_t r = 0; r < a.rounds.size(); ++r) {
            const RoundTrace path = pathTrace(b.treeRounds[r]);
            const RoundTrace &want = a.rounds[r];
            QCOMPARE(path.draftLength, want.draftLength);
            QCOMPARE(path.rejectedAt, want.rejectedAt);
            QCOMPARE(path.committed, want.committed);
            QCOMPARE(path.correction, want.correction);
            QCOMPARE(path.bonus, want.bonus);
            for (int i = 0; i < want.draftLength; ++i) {
                const DraftPosition &x = path.positions[static_cast<std::size_t>(i)];
                const DraftPosition &y = want.positions[static_cast<std::size_t>(i)];
                QCOMPARE(x.token, y.token);
                QCOMPARE(x.verdict, y.verdict);
                QCOMPARE(x.u, y.u);
                if (i < want.testedCount()) { // one child: the node's exact acceptance is beta
                    QVERIFY(std::abs(x.threshold - y.threshold) < 1e-12);
                    QVERIFY(std::abs(x.overlap - y.overlap) < 1e-12);
                }
            }
        }
    }

    void pathOfATreeFollowsTheAcceptedPath()
    {
        DecodingSettings s;
        s.tree = TreeShape::parse("3,2,1");
        s.seed = 11;
        const Generation g = generateSpeculative(*m_target, *m_draft, s, m_prompt, 200);
        int stopped = 0;
        for (const TreeTrace &t : g.treeRounds) {
            const RoundTrace path = pathTrace(t);
            QCOMPARE(path.committed, t.committed);
            QCOMPARE(path.acceptedCount(), t.acceptedCount());
            QCOMPARE(path.targetCalls, 1);
            for (int d = 0; d < t.acceptedCount(); ++d)
                QCOMPARE(path.positions[static_cast<std::size_t>(d)].token,
                         t.nodes[static_cast<std::size_t>(t.acceptedPath[static_cast<std::size_t>(d)])].token);
            if (t.stoppedAtDepth >= 1) {
                ++stopped;
                QCOMPARE(path.rejectedAt, t.stoppedAtDepth - 1);
                QCOMPARE(path.positions[static_cast<std::size_t>(path.rejectedAt)].verdict, Verdict::Rejected);
                QCOMPARE(path.positions[static_cast<std::size_t>(path.rejectedAt)].overlap,
                         t.exactNodeAcceptance.back());
            }
        }
        QVERIFY(stopped > 0);
    }

    void greedyTreeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("draft");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<double>("draftTemperature");
        const QString kjv = QStringLiteral("kjv"), poems = QStringLiteral("tang-song");
        QTest::addRow("kjv 6/2 3,2,1") << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << QStringLiteral("3,2,1") << 1.0;
        QTest::addRow("kjv 6/2 2,2,1 greedy draft") << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << QStringLiteral("2,2,1") << 0.0;
        QTest::addRow("kjv 5/3 4") << kjv << QStringLiteral("ngram:5") << QStringLiteral("ngram:3:addk=0.2") << QStringLiteral("4") << 1.0;
        QTest::addRow("kjv 4/uniform 2,2,2,2") << kjv << QStringLiteral("ngram:4") << QStringLiteral("uniform") << QStringLiteral("2,2,2,2") << 1.0;
        QTest::addRow("kjv same 1,1,1,1,1") << kjv << QStringLiteral("ngram:4") << QStringLiteral("same") << QStringLiteral("1,1,1,1,1") << 0.0;
        QTest::addRow("poems 3/2 3,2,1") << poems << QStringLiteral("ngram:3:addk=0.2") << QStringLiteral("ngram:2:addk=0.2") << QStringLiteral("3,2,1") << 1.0;
        QTest::addRow("poems 4/1 2,1") << poems << QStringLiteral("ngram:4") << QStringLiteral("ngram:1") << QStringLiteral("2,1") << 0.7;
        QTest::addRow("poems 3/uniform 8") << poems << QStringLiteral("ngram:3") << QStringLiteral("uniform") << QStringLiteral("8") << 1.0;
    }
    void greedyTreeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, target);
        QFETCH(QString, draft);
        QFETCH(QString, shape);
        QFETCH(double, draftTemperature);
        const test::BuiltPair pair = test::builtPair(corpus, target, draft);
        const Corpus &c = pair.corpus;
        const BuiltModel &t = pair.target, &d = pair.draft;
        const std::vector<std::u32string> prompts = test::greedyPrompts(corpus);
        DecodingSettings s;
        s.tree = TreeShape::parse(shape.toStdString());
        s.target.temperature = 0.0;
        s.draft.temperature = draftTemperature;
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            const auto prompt = c.vocabulary.encode(prompts[i]);
            s.seed = i;
            const Generation tree = generateSpeculative(*t.model, *d.model, s, prompt, 60);
            const Generation ar = generateAutoregressive(*t.model, s.target, 999, prompt, 60);
            QCOMPARE(tree.tokens, ar.tokens);
            QVERIFY(tree.target.calls <= ar.target.calls);
            QCOMPARE(tree.target.calls, static_cast<std::int64_t>(tree.treeRounds.size())); // one call per round
        }
    }

    void traceIsConsistent()
    {
        DecodingSettings s = treeSettings("3,2,1", 1.0, 1.0, 5);
        s.recordDistributions = true;
        TreeDecoder decoder(*m_target, *m_draft, s);
        std::vector<TokenId> sequence = m_prompt;
        int bonuses = 0, corrections = 0;
        for (int r = 0; r < 200; ++r) {
            const std::size_t before = sequence.size();
            const TreeTrace t = decoder.round(sequence, 100);
            QCOMPARE(t.nodes.size(), std::size_t(15));
            QCOMPARE(t.targetCalls, 1);
            QCOMPARE(t.draftCalls, 3); // one batched draft call per depth
            QCOMPARE(t.targetRows, 6 * 4);
            QCOMPARE(t.expansions.size(), std::size_t(1 + 3 + 6));
            // Breadth first, children consecutive, parents before children.
            for (std::size_t n = 0; n < t.nodes.size(); ++n) {
                const TreeNode &node = t.nodes[n];
                QCOMPARE(node.depth, n < 3 ? 1 : n < 9 ? 2 : 3);
                QVERIFY(node.parent < static_cast<int>(n));
                if (node.parent >= 0)
                    QCOMPARE(t.nodes[static_cast<std::size_t>(node.parent)].depth, node.depth - 1);
                QVERIFY(node.q > 0.0);
            }
            // The accepted path: a parent chain from depth 1; accepted nodes are exactly the path.
            int parent = -1;
            for (int n : t.acceptedPath) {
                QCOMPARE(t.nodes[static_cast<std::size_t>(n)].parent, parent);
                parent = n;
            }
            int acceptedNodes = 0;
            for (const TreeNode &node : t.nodes) {
                acceptedNodes += node.verdict == Verdict::Accepted;
                if (node.verdict != Verdict::Discarded) {
                    QVERIFY(node.u >= 0.0 && node.u < 1.0);
                    QCOMPARE(node.verdict == Verdict::Accepted, node.u < node.threshold);
                    QCOMPARE(node.pUsedDist[node.token], node.pUsed);
                    QVERIFY(std::abs(node.threshold - acceptanceProbability(node.pUsed, node.q)) < 1e-15);
                    // Tested before the accepted sibling or with every sibling rejected: elder siblings rejected.
                } else {
                    QCOMPARE(node.u, -1.0);
                }
            }
            QCOMPARE(acceptedNodes, t.acceptedCount());
            QCOMPARE(t.testedDepths(), t.stoppedAtDepth < 0 ? 3 : t.stoppedAtDepth);
            QCOMPARE(t.committed.size(), std::size_t(t.acceptedCount() + 1));
            if (t.stoppedAtDepth < 0) {
                ++bonuses;
                QCOMPARE(t.committed.back(), t.bonus);
                QCOMPARE(t.correction, -1);
            } else {
                ++corrections;
                QCOMPARE(t.committed.back(), t.correction);
                QVERIFY(t.residual[t.correction] > 0.0);
                QCOMPARE(t.bonus, -1);
            }
            QCOMPARE(sequence.size(), before + t.committed.size());
            if (static_cast<int>(sequence.size()) > 400)
                sequence.resize(m_prompt.size());
        }
        QVERIFY(bonuses > 0 && corrections > 0);
        // Same seed, same trees.
        TreeDecoder again(*m_target, *m_draft, s);
        std::vector<TokenId> a = m_prompt, b = m_prompt;
        TreeDecoder first(*m_target, *m_draft, s);
        for (int r = 0; r < 20; ++r) {
            const TreeTrace x = first.round(a, 100), y = again.round(b, 100);
            QCOMPARE(x.committed, y.committed);
            QCOMPARE(x.nodes.size(), y.nodes.size());
            for (std::size_t n = 0; n < x.nodes.size(); ++n)
                QVERIFY(x.nodes[n].token == y.nodes[n].token && x.nodes[n].u == y.nodes[n].u);
        }
    }

    void budgetCutsTheTree()
    {
        const Generation g = generateSpeculative(*m_target, *m_draft, treeSettings("2,2,2", 1.0, 1.0, 3), m_prompt, 1);
        QCOMPARE(g.tokens.size(), std::size_t(1));
        QCOMPARE(g.treeRounds.at(0).shape.describe(), std::string("2"));
    }

    void nonConstantPolicyIsAnError()
    {
        DecodingSettings s = treeSettings("2,1", 1.0, 1.0, 3);
        s.policy = DraftPolicy::parse("heuristic");
        QVERIFY_THROWS_EXCEPTION(Error, s.validate());
    }

    void metricsOfARun()
    {
        const Generation g = generateSpeculative(*m_target, *m_draft, treeSettings("3,2,1", 1.0, 1.0, 9), m_prompt, 3000);
        const TreeMetrics m = computeTreeMetrics(g.treeRounds, g.seconds);
        QCOMPARE(m.targetCalls, g.target.calls);
        QCOMPARE(m.draftCalls, g.draft.calls);
        QCOMPARE(m.drafted, 15 * m.rounds - (g.treeRounds.back().shape.depth() < 3 ? 15 - g.treeRounds.back().shape.nodeCount() : 0));
        QVERIFY(std::abs(m.tokensPerTargetCall - double(m.generatedTokens) / double(m.targetCalls)) < 1e-12);
        QVERIFY(std::abs(m.nodesPerAcceptedToken - double(m.drafted) / m.accepted) < 1e-12);
        QCOMPARE(m.perDepthAcceptance.size(), std::size_t(3));
        QCOMPARE(m.perDepthTested[0], m.rounds);
        // The exact one-node acceptance, averaged over tested nodes, beside the measured fraction.
        const double se = std::sqrt(m.measuredNodeAcceptance * (1.0 - m.measuredNodeAcceptance) / m.testedNodes);
        qInfo("one-node acceptance exact %.4f measured %.4f (se %.4f); tokens/call %.3f, nodes/accepted %.2f",
              m.exactNodeAcceptance, m.measuredNodeAcceptance, se, m.tokensPerTargetCall, m.nodesPerAcceptedToken);
        QVERIFY(std::abs(m.exactNodeAcceptance - m.measuredNodeAcceptance) < 4.0 * se);
        QVERIFY(m.tokensPerTargetCall > 1.0);
    }

    void candidatesLabMatchesTheFormula_data()
    {
        QTest::addColumn<Eigen::VectorXd>("p");
        QTest::addColumn<Eigen::VectorXd>("q");
        Rng rng(31);
        QTest::addRow("random V=8") << test::randomDistribution(rng, 8) << test::randomDistribution(rng, 8);
        QTest::addRow("random V=20, zeros") << test::randomDistribution(rng, 20, 5) << test::randomDistribution(rng, 20, 5);
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

    void treesAreLossless_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        std::uint64_t seed = 50;
        for (const char *shape : {"2,1", "3,2", "4"}) {
            QTest::addRow("%s T=1", shape) << treeSettings(shape, 1.0, 1.0, ++seed);
            QTest::addRow("%s T=0.7", shape) << treeSettings(shape, 0.7, 1.0, ++seed);
            QTest::addRow("%s top-p=0.9", shape) << treeSettings(shape, 1.0, 0.9, ++seed);
        }
    }
    void treesAreLossless()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*m_target, decoding.target, m_prompt, 2),
            sampleContinuations(*m_target, m_draft.get(), decoding, DecodingMode::Speculative, m_prompt, 2,
                                onCi() ? 40000 : 100000));
        qInfo("chi2 %.1f dof %d p-value %.4f TV %.4f", fit.chi.statistic, fit.chi.degreesOfFreedom, fit.chi.pValue,
              fit.totalVariation);
        QVERIFY(fit.chi.degreesOfFreedom >= 8);
        QCOMPARE(fit.chi.impossible, std::int64_t(0));
        QVERIFY2(fit.chi.pValue > 1e-3, qPrintable(QStringLiteral("p-value %1").arg(fit.chi.pValue)));
    }

    void wrongTreeVariantsAreCaught_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addRow("no-residual-update 4") << treeSettings("4", 1.0, 1.0, 71, TreeVariant::NoResidualUpdate);
        QTest::addRow("no-residual-update 3,2") << treeSettings("3,2", 1.0, 1.0, 72, TreeVariant::NoResidualUpdate);
        QTest::addRow("no-residual-update 2,1") << treeSettings("2,1", 1.0, 1.0, 73, TreeVariant::NoResidualUpdate);
        QTest::addRow("typical-acceptance 2,1") << treeSettings("2,1", 1.0, 1.0, 74, TreeVariant::TypicalAcceptance);
        QTest::addRow("typical-acceptance 3,2 T=0.7") << treeSettings("3,2", 0.7, 1.0, 75, TreeVariant::TypicalAcceptance);
    }
    void wrongTreeVariantsAreCaught()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*m_target, decoding.target, m_prompt, 2),
            sampleContinuations(*m_target, m_draft.get(), decoding, DecodingMode::Speculative, m_prompt, 2,
                                onCi() ? 40000 : 100000));
        qInfo("chi2 %.1f dof %d p-value %.3g TV %.4f", fit.chi.statistic, fit.chi.degreesOfFreedom, fit.chi.pValue,
              fit.totalVariation);
        QVERIFY2(fit.chi.pValue < 1e-9, qPrintable(QStringLiteral("p-value %1").arg(fit.chi.pValue)));
    }

#ifdef SPECDEC_TREES_ONNX
    void onnxGreedyTreeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("draft");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("prompt");
        QTest::addRow("kjv draft-small 2,2,1") << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small") << QStringLiteral("2,2,1") << QStringLiteral("And God said");
        QTest::addRow("kjv ngram:4 3,1") << QStringLiteral("kjv") << QStringLiteral("ngram:4") << QStringLiteral("3,1") << QStringLiteral("In the beginning");
        QTest::addRow("tang-song draft-tiny 2,1") << QStringLiteral("tang-song") << QStringLiteral("onnx:draft-tiny") << QStringLiteral("2,1") << QStringLiteral("床前明月光");
    }
    void onnxGreedyTreeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, draft);
        QFETCH(QString, shape);
        QFETCH(QString, prompt);
        const std::string dir = std::string(SPECDEC_SOURCE_DIR) + "/corpora/" + corpus.toStdString() + "/models/";
        const Corpus text = test::builtCorpus(corpus.toStdString());
        auto target = OnnxLanguageModel::load(dir + "target.onnx", 0);
        std::string spec = draft.toStdString();
        if (spec.rfind("onnx:", 0) == 0)
            spec = "onnx:" + dir + spec.substr(5) + ".onnx";
        BuiltModel d = buildModel(ModelSpec::parse(spec), text, &target->vocabulary(), target.get());
        DecodingSettings s;
        s.tree = TreeShape::parse(shape.toStdString());
        s.target.temperature = 0.0;
        s.draft.temperature = 1.0;
        const auto ids = target->vocabulary().encode(decodeUtf8(prompt.toStdString()));
        // Past the context length too: every path is scored in the windows autoregressive decoding uses.
        const int tokens = target->contextLength() + 20;
        const Generation tree = generateSpeculative(*target, *d.model, s, ids, tokens);
        const Generation ar = generateAutoregressive(*target, s.target, 0, ids, tokens);
        QCOMPARE(tree.tokens, ar.tokens);
        QVERIFY(tree.target.calls < ar.target.calls);
    }

    void onnxBatchIsOneGraphRun()
    {
        // The shipped models take a batch: a tree's paths can run as one [B, T] batch, row for row the same
        // as one path at a time (before and past the context length, where the rows share one window).
        const std::string dir = std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/";
        auto target = OnnxLanguageModel::load(dir + "target.onnx", 0);
        QVERIFY(target->canBatchWindows());
        QVERIFY(!target->batchWindows()); // off by default (see setBatchWindows)
        target->setBatchWindows(true);
        for (int length : {5, target->contextLength() + 7}) {
            std::vector<std::vector<TokenId>> paths(3, std::vector<TokenId>(static_cast<std::size_t>(length), 3));
            paths[1].back() = 7;
            paths[2][static_cast<std::size_t>(length - 2)] = 11;
            std::vector<SequenceRequest> requests;
            for (const auto &path : paths)
                requests.push_back({path, 3});
            std::vector<DistributionMatrix> rows;
            const CallStats before = target->stats();
            target->batchDistributions(requests, rows);
            QCOMPARE(target->stats().calls - before.calls, std::int64_t(1));
            for (std::size_t i = 0; i < paths.size(); ++i) {
                DistributionMatrix single;
                target->distributions(paths[i], 3, single);
                QVERIFY2((rows[i] - single).cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString::number(length)));
            }
        }
    }
#endif
};

QTEST_APPLESS_MAIN(TestTrees)
#include "test_trees.moc"
