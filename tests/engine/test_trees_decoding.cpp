// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees, the decoder on n-gram models: one batched call, the tree 1,1,...,1 equal to the chain decoder
// round for round (and its path as a chain the chain's round), a tree's path as a chain, greedy tree decoding
// equal to greedy autoregressive decoding (both corpora, several shapes), the trace, both states keeping the
// accepted path, the budget, the policy and the metrics of a run.
#include "Acceptance.h"
#include "Error.h"
#include "Generation.h"
#include "TestSupport.h"
#include "TreeDecoder.h"
#include "TreePath.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace specdec;
using test::treeSettings;

class TestTreesDecoding : public QObject
{
    Q_OBJECT
private:
    test::TinyPair m_tiny;

private slots:
    void batchedCallIsOneCall()
    {
        const std::vector<TokenId> a = m_tiny.corpus.vocabulary.encode(U"the c"),
                                   b = m_tiny.corpus.vocabulary.encode(U"a do");
        const std::vector<SequenceRequest> requests{{a, 3}, {b, 1}};
        std::vector<DistributionMatrix> rows;
        m_tiny.target->resetStats();
        m_tiny.target->batchDistributions(requests, rows);
        QCOMPARE(m_tiny.target->stats().calls, std::int64_t(1));
        QCOMPARE(m_tiny.target->stats().positions, std::int64_t(4));
        DistributionMatrix single;
        m_tiny.target->distributions(a, 3, single);
        QCOMPARE(rows[0], single);
        m_tiny.target->distributions(b, 1, single);
        QCOMPARE(rows[1], single);
        QVERIFY_THROWS_EXCEPTION(Error, m_tiny.target->batchDistributions({}, rows));
        const std::vector<SequenceRequest> bad{{a, 7}};
        QVERIFY_THROWS_EXCEPTION(Error, m_tiny.target->batchDistributions(bad, rows));
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
            const Generation a = generateSpeculative(*m_tiny.target, *m_tiny.draft, chain, m_tiny.prompt, 120);
            const Generation b = generateSpeculative(*m_tiny.target, *m_tiny.draft, tree, m_tiny.prompt, 120);
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
        const Generation a = generateSpeculative(*m_tiny.target, *m_tiny.draft, chain, m_tiny.prompt, 100);
        const Generation b = generateSpeculative(*m_tiny.target, *m_tiny.draft, tree, m_tiny.prompt, 100);
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
        const Generation g = generateSpeculative(*m_tiny.target, *m_tiny.draft, s, m_tiny.prompt, 200);
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
                QCOMPARE(path.positions[static_cast<std::size_t>(path.rejectedAt)].overlap, t.exactNodeAcceptance.back());
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
        QTest::addRow("kjv 6/2 3,2,1") << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2")
                                       << QStringLiteral("3,2,1") << 1.0;
        QTest::addRow("kjv 6/2 2,2,1 greedy draft")
            << kjv << QStringLiteral("ngram:6") << QStringLiteral("ngram:2") << QStringLiteral("2,2,1") << 0.0;
        QTest::addRow("kjv 5/3 4") << kjv << QStringLiteral("ngram:5") << QStringLiteral("ngram:3:addk=0.2")
                                   << QStringLiteral("4") << 1.0;
        QTest::addRow("kjv 4/uniform 2,2,2,2")
            << kjv << QStringLiteral("ngram:4") << QStringLiteral("uniform") << QStringLiteral("2,2,2,2") << 1.0;
        QTest::addRow("kjv same 1,1,1,1,1")
            << kjv << QStringLiteral("ngram:4") << QStringLiteral("same") << QStringLiteral("1,1,1,1,1") << 0.0;
        QTest::addRow("poems 3/2 3,2,1") << poems << QStringLiteral("ngram:3:addk=0.2")
                                         << QStringLiteral("ngram:2:addk=0.2") << QStringLiteral("3,2,1") << 1.0;
        QTest::addRow("poems 4/1 2,1") << poems << QStringLiteral("ngram:4") << QStringLiteral("ngram:1")
                                       << QStringLiteral("2,1") << 0.7;
        QTest::addRow("poems 3/uniform 8")
            << poems << QStringLiteral("ngram:3") << QStringLiteral("uniform") << QStringLiteral("8") << 1.0;
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
        TreeDecoder decoder(*m_tiny.target, *m_tiny.draft, s);
        std::vector<TokenId> sequence = m_tiny.prompt;
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
                sequence.resize(m_tiny.prompt.size());
        }
        QVERIFY(bonuses > 0 && corrections > 0);
        // Same seed, same trees.
        TreeDecoder again(*m_tiny.target, *m_tiny.draft, s);
        std::vector<TokenId> a = m_tiny.prompt, b = m_tiny.prompt;
        TreeDecoder first(*m_tiny.target, *m_tiny.draft, s);
        for (int r = 0; r < 20; ++r) {
            const TreeTrace x = first.round(a, 100), y = again.round(b, 100);
            QCOMPARE(x.committed, y.committed);
            QCOMPARE(x.nodes.size(), y.nodes.size());
            for (std::size_t n = 0; n < x.nodes.size(); ++n)
                QVERIFY(x.nodes[n].token == y.nodes[n].token && x.nodes[n].u == y.nodes[n].u);
        }
    }

    void statesKeepTheAcceptedPath()
    {
        // After each round both states hold the committed prefix + the accepted path; every other branch row's
        // entries are counted as discarded (rows x path length - kept); one target call per round.
        DecodingSettings s = treeSettings("3,2,1", 1.0, 1.0, 9);
        TreeDecoder decoder(*m_tiny.target, *m_tiny.draft, s);
        std::vector<TokenId> sequence = m_tiny.prompt;
        for (int r = 0; r < 40; ++r) {
            const TreeTrace t = decoder.round(sequence, 100);
            const int a = t.acceptedCount(), D = t.shape.depth();
            QCOMPARE(t.targetCache.before,
                     r == 0 ? 0 : t.contextLength - 1); // the last round's correction or bonus is new
            QCOMPARE(t.targetCache.extended, t.contextLength + D);
            QCOMPARE(t.targetCache.after, t.contextLength + a);
            QCOMPARE(t.targetCache.discarded, t.shape.leafCount() * D - a);
            QCOMPARE(t.draftCache.extended, t.contextLength + D - 1);
            QCOMPARE(t.draftCache.after, t.contextLength + std::min(a, D - 1));
            QCOMPARE(t.draftCache.discarded, t.shape.truncated(D - 1).leafCount() * (D - 1) - std::min(a, D - 1));
            QCOMPARE(t.targetCalls, 1);
            QCOMPARE(t.draftCalls, D);
            QCOMPARE(decoder.targetState().length(), t.targetCache.after);
            QCOMPARE(decoder.draftState().length(), t.draftCache.after);
            QCOMPARE(decoder.targetState().branchRows(), 0);
        }
    }

    void budgetCutsTheTree()
    {
        const Generation g = generateSpeculative(*m_tiny.target, *m_tiny.draft, treeSettings("2,2,2", 1.0, 1.0, 3),
                                                 m_tiny.prompt, 1);
        QCOMPARE(g.tokens.size(), std::size_t(1));
        QCOMPARE(g.treeRounds.at(0).shape.describe(), std::string("2"));
    }

    void nonConstantPolicyIsAnError()
    {
        DecodingSettings s = treeSettings("2,1", 1.0, 1.0, 3);
        s.policy = DraftPolicy::parse("heuristic");
        QVERIFY_THROWS_EXCEPTION(Error, s.validate());
    }

    // A tree run's report is its accepted paths' metrics (one definition with chains) plus the tree's counts.
    void metricsOfARun()
    {
        const Generation g = generateSpeculative(*m_tiny.target, *m_tiny.draft, treeSettings("3,2,1", 1.0, 1.0, 9),
                                                 m_tiny.prompt, 3000);
        const RunReport &r = g.report;
        const RunMetrics &m = r.metrics;
        QCOMPARE(m.rounds, static_cast<int>(g.treeRounds.size()));
        QCOMPARE(m.targetCalls, g.target.calls);
        QCOMPARE(m.draftCalls, g.draft.calls);
        QCOMPARE(r.nodesDrafted,
                 std::int64_t(15) * m.rounds
                     - (g.treeRounds.back().shape.depth() < 3 ? 15 - g.treeRounds.back().shape.nodeCount() : 0));
        QVERIFY(std::abs(m.speedupForwardPasses - double(m.generatedTokens) / double(m.targetCalls)) < 1e-12);
        QVERIFY(std::abs(r.nodesPerAcceptedToken() - double(r.nodesDrafted) / m.accepted) < 1e-12);
        QCOMPARE(m.perPositionAcceptance.size(), std::size_t(3)); // per depth
        QCOMPARE(m.perPositionTested[0], m.rounds);
        int tested = 0, accepted = 0;
        double exact = 0.0;
        for (const TreeTrace &t : g.treeRounds) {
            tested += t.testedDepths();
            accepted += t.acceptedCount();
            for (double a : t.exactNodeAcceptance)
                exact += a;
        }
        QCOMPARE(m.tested, tested);
        QCOMPARE(m.accepted, accepted);
        QVERIFY(std::abs(m.meanOverlap - exact / tested) < 1e-12); // the exact one-node acceptance
        // The exact one-node acceptance, averaged over tested nodes, beside the measured fraction.
        const double se = std::sqrt(m.acceptanceRate * (1.0 - m.acceptanceRate) / m.tested);
        qInfo("one-node acceptance exact %.4f measured %.4f (se %.4f); tokens/call %.3f, nodes/accepted %.2f",
              m.meanOverlap, m.acceptanceRate, se, m.speedupForwardPasses, r.nodesPerAcceptedToken());
        QVERIFY(std::abs(m.meanOverlap - m.acceptanceRate) < 4.0 * se);
        QVERIFY(m.speedupForwardPasses > 1.0);
    }
};

QTEST_APPLESS_MAIN(TestTreesDecoding)
#include "test_trees_decoding.moc"
