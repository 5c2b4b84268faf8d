// SPDX-License-Identifier: GPL-3.0-or-later
// The tree view: its frames (nothing appears before its phase: the tree grows one depth per draft step, one
// sweep scores it, the dice go child by child down the accepted path, discarded subtrees fade, the
// correction or bonus comes last) and the widget drawing them (offscreen), with clicks on nodes.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "Acceptance.h"
#include "TreeDecoder.h"
#include "TreeFrame.h"
#include "TreeView.h"

#include "DistributionView.h"
#include "RoundHistory.h"
#include "RoundView.h"
#include "SessionRun.h"
#include "TheoryPanel.h"

#include <QSignalSpy>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// The tiny pair every tree test here plays (TestSupport's): ngram:3 against ngram:1:addk=1 on tiny-en.txt.
const test::TinyPair &tinyPair()
{
    static const test::TinyPair pair;
    return pair;
}

/// Rounds of the tree 3,2,1 on tiny-en.txt at T = 1 with distributions recorded.
std::vector<TreeTrace> playTrees(int rounds)
{
    const Corpus &corpus = tinyPair().corpus;
    const auto &target = tinyPair().target;
    const auto &draft = tinyPair().draft;
    DecodingSettings s;
    s.tree = TreeShape::parse("3,2,1");
    s.seed = 3;
    s.recordDistributions = true;
    TreeDecoder decoder(*target, *draft, s);
    std::vector<TokenId> sequence = corpus.vocabulary.encode(U"the ");
    std::vector<TreeTrace> out;
    for (int r = 0; r < rounds; ++r)
        out.push_back(decoder.round(sequence, 100));
    return out;
}

} // namespace

class TestGuiTreeView : public QObject
{
    Q_OBJECT
private:
    std::vector<TreeTrace> m_rounds = playTrees(60);

    const TreeTrace &find(bool stopped, int minTests = 1)
    {
        for (const TreeTrace &t : m_rounds)
            if ((t.stoppedAtDepth >= 0) == stopped && static_cast<int>(testOrder(t).size()) >= minTests)
                return t;
        qFatal("no such round");
    }

private slots:
    void draftGrowsDepthByDepth()
    {
        const TreeTrace &t = find(true);
        QCOMPARE(treeStepsOf(t, Phase::Draft), 3);
        for (int step = 0; step <= 3; ++step) {
            const TreeFrame f = treeFrameAt(t, Phase::Draft, step);
            for (std::size_t n = 0; n < t.nodes.size(); ++n) {
                const bool shown = t.nodes[n].depth <= step;
                QCOMPARE(f.nodes[n].state != TreeNodeFrame::State::Hidden, shown);
                QCOMPARE(f.nodes[n].q.has_value(), shown);
                QVERIFY(!f.nodes[n].p && !f.nodes[n].pUsed); // nothing of the target before the verify phase
            }
        }
    }

    void verifyIsOneSweep()
    {
        const TreeTrace &t = find(false);
        QCOMPARE(treeStepsOf(t, Phase::Verify), 1);
        const TreeFrame f = treeFrameAt(t, Phase::Verify, 1);
        QVERIFY(f.sweeping);
        for (std::size_t n = 0; n < t.nodes.size(); ++n) {
            QCOMPARE(f.nodes[n].state, TreeNodeFrame::State::Scored);
            QCOMPARE(*f.nodes[n].p, t.nodes[n].p);
            QVERIFY(!f.nodes[n].u);
        }
        QVERIFY(!f.outcomeShown);
    }

    void diceRollChildByChild()
    {
        const TreeTrace &t = find(true, 3);
        const std::vector<int> order = testOrder(t);
        QCOMPARE(treeStepsOf(t, Phase::Dice), static_cast<int>(order.size()));
        for (int step = 1; step <= static_cast<int>(order.size()); ++step) {
            const TreeFrame f = treeFrameAt(t, Phase::Dice, step);
            QCOMPARE(f.currentNode, order[static_cast<std::size_t>(step - 1)]);
            for (std::size_t i = 0; i < order.size(); ++i) {
                const TreeNodeFrame &nf = f.nodes[static_cast<std::size_t>(order[i])];
                const TreeNode &node = t.nodes[static_cast<std::size_t>(order[i])];
                if (static_cast<int>(i) < step) {
                    QCOMPARE(*nf.pUsed, node.pUsed);
                    QCOMPARE(*nf.u, node.u);
                    QCOMPARE(nf.state == TreeNodeFrame::State::Accepted, node.verdict == Verdict::Accepted);
                } else {
                    QVERIFY(!nf.pUsed && !nf.u);
                }
            }
            QVERIFY(!f.outcomeShown);
            // A rejected node's subtree is faded as soon as its verdict is shown.
            for (std::size_t n = 0; n < t.nodes.size(); ++n) {
                const int parent = t.nodes[n].parent;
                if (parent >= 0 && f.nodes[static_cast<std::size_t>(parent)].state == TreeNodeFrame::State::Rejected)
                    QCOMPARE(f.nodes[n].state, TreeNodeFrame::State::Faded);
            }
        }
        // Once the outcome is shown, the accepted path is marked and everything never tested has faded.
        const TreeFrame last = treeFrameAt(t, Phase::Residual);
        QVERIFY(last.outcomeShown);
        for (std::size_t n = 0; n < t.nodes.size(); ++n) {
            const TreeNodeFrame &nf = last.nodes[n];
            QCOMPARE(nf.onPath, t.nodes[n].verdict == Verdict::Accepted);
            if (t.nodes[n].verdict == Verdict::Discarded)
                QCOMPARE(nf.state, TreeNodeFrame::State::Faded);
        }
    }

    void pPrimeIsTheEnginesResidualChain()
    {
        // p' of each tested child, recomputed from the node's p and q: p_1 = p, p_{j+1} = norm(max(0, p_j - q)).
        int checked = 0;
        for (const TreeTrace &t : m_rounds) {
            const TreeFrame f = treeFrameAt(t, Phase::Dice);
            for (const TreeExpansion &e : t.expansions) {
                Eigen::VectorXd pj = e.p;
                for (std::size_t n = 0; n < t.nodes.size(); ++n) {
                    const TreeNode &node = t.nodes[n];
                    if (node.parent != e.node || node.verdict == Verdict::Discarded)
                        continue;
                    QVERIFY(f.nodes[n].pUsed.has_value());
                    QVERIFY(qAbs(*f.nodes[n].pUsed - pj(node.token)) < 1e-12);
                    QVERIFY(qAbs(*f.nodes[n].threshold - std::min(1.0, pj(node.token) / e.q(node.token))) < 1e-12);
                    ++checked;
                    if (node.verdict == Verdict::Rejected && node.sibling + 1 < t.shape.branching(node.depth))
                        pj = residualDistribution(pj, e.q);
                }
            }
        }
        QVERIFY(checked > 50);
    }

    void phasesOfARound()
    {
        QCOMPARE(treePhasesOf(find(true)),
                 (std::vector<Phase>{Phase::Draft, Phase::Verify, Phase::Dice, Phase::Residual, Phase::Commit}));
        QCOMPARE(treePhasesOf(find(false)),
                 (std::vector<Phase>{Phase::Draft, Phase::Verify, Phase::Dice, Phase::Bonus, Phase::Commit}));
        QVERIFY(treeFrameAt(find(false), Phase::Commit).committed);
    }

    void widgetDrawsAndClicks()
    {
        TreeView view;
        view.resize(720, 300);
        view.setVocabulary(std::make_shared<const Tokenizer>(Tokenizer::chars(test::tinyEnglish().vocabulary)));
        auto trace = std::make_shared<const TreeTrace>(find(true, 2));
        view.setRound(trace, Phase::Draft, 1);
        QVERIFY(!view.nodeRect(0).isEmpty());
        QVERIFY(view.nodeRect(3).isEmpty()); // depth 2 not drafted yet
        view.setRound(trace, Phase::Residual);
        const QImage image = view.grab().toImage();
        QVERIFY(!image.isNull());
        // Node rectangles are inside the widget and do not overlap.
        for (int a = 0; a < static_cast<int>(trace->nodes.size()); ++a) {
            QVERIFY(view.rect().contains(view.nodeRect(a).toRect()));
            for (int b = a + 1; b < static_cast<int>(trace->nodes.size()); ++b)
                QVERIFY(!view.nodeRect(a).intersects(view.nodeRect(b)));
        }
        // The dotted line to the correction runs beside the nodes below the path's end, never through one
        // (it was drawn straight down through the rejected child's token and numbers).
        const QPainterPath connector = view.outcomeConnector();
        QVERIFY(!connector.isEmpty());
        const int end = trace->acceptedPath.empty() ? -1 : trace->acceptedPath.back();
        for (int n = 0; n < static_cast<int>(trace->nodes.size()); ++n) {
            const QRectF r = view.nodeRect(n).adjusted(1, 1, -1, -1);
            if (n == end || r.isEmpty())
                continue;
            for (int i = 0; i <= 200; ++i)
                QVERIFY2(!r.contains(connector.pointAtPercent(i / 200.0)),
                         qPrintable(QStringLiteral("through node %1").arg(n)));
        }
        QVERIFY(QFontInfo(view.numbersFont()).pixelSize() >= 10); // the numbers read from the back row
        QSignalSpy clicked(&view, &TreeView::nodeClicked);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.nodeRect(4).center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toInt(), 4);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.outcomeRect().center().toPoint());
        QCOMPARE(clicked.last().first().toInt(), TreeFrame::kOutcome);
        view.clear();
        QVERIFY(view.nodeRect(0).isEmpty());
    }

    void numbersFitTheNodesAt720p()
    {
        // The tree's area in the 1280x720 window is about 630 x 280 px: the tree 3,2,1 (6 leaves) and the
        // widest shape a class uses, 2,2,2 (8 leaves), show their nodes' numbers, and the numbers fit.
        for (const char *shape : {"3,2,1", "2,2,2"}) {
            const Corpus corpus = test::tinyEnglish();
            const auto target = test::model("ngram:3", corpus);
            const auto draft = test::model("ngram:1:addk=1", corpus);
            DecodingSettings s;
            s.tree = TreeShape::parse(shape);
            s.seed = 9;
            TreeDecoder decoder(*target, *draft, s);
            std::vector<TokenId> sequence = corpus.vocabulary.encode(U"the ");
            auto trace = std::make_shared<const TreeTrace>(decoder.round(sequence, 10));
            TreeView view;
            view.resize(630, 280);
            for (Phase phase : {Phase::Draft, Phase::Verify, Phase::Dice}) {
                view.setRound(trace, phase);
                const QFontMetricsF metrics(view.numbersFont());
                for (int n = 0; n < static_cast<int>(trace->nodes.size()); ++n) {
                    const QRectF r = view.nodeRect(n);
                    if (r.isEmpty())
                        continue;
                    QVERIFY2(view.numbersShown(), shape); // the numbers are drawn
                    QVERIFY2(metrics.horizontalAdvance(view.nodeNumbers(n)) <= r.width() - 2,
                             qPrintable(QStringLiteral("%1: '%2' in %3 px")
                                            .arg(QLatin1String(shape), view.nodeNumbers(n))
                                            .arg(r.width())));
                }
            }
        }
    }

    void theoryPanelShowsTheTreesFormulas()
    {
        // A tree session's theory panel shows the tree's rule and numbers, not a chain's E[N] and Thm 3.8; the
        // exact one-node acceptance shown is the last round's, to the digits shown.
        const test::TinyPair &pair = tinyPair();
        DecodingSettings s;
        s.tree = TreeShape::parse("3,2,1");
        s.seed = 5;
        SessionRun run(*pair.target, *pair.draft, s, pair.corpus.vocabulary.encode(U"the "), 1000);
        std::shared_ptr<const RoundRecord> record;
        for (int r = 0; r < 8; ++r)
            record = run.playRound();
        QVERIFY(record && record->tree && !record->tree->exactNodeAcceptance.empty());
        TheoryPanel panel;
        panel.setTree(s.tree);
        panel.setTreeMetrics(record->cumulative, record->tree->exactNodeAcceptance, record->nodesDrafted);
        const QString text = panel.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("3,2,1: 15 nodes")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("1 − Πj=1..k (1 − βj)")));
        QVERIFY(text.contains(QString::number(record->tree->exactNodeAcceptance.front(), 'f', 2)));
        const double perAccepted = static_cast<double>(record->nodesDrafted) / record->cumulative.accepted;
        QVERIFY(text.contains(QString::number(perAccepted, 'f', 2)));
        QVERIFY(text.contains(QString::number(record->cumulative.tokensPerRound, 'f', 2)));
        QVERIFY2(!text.contains(QStringLiteral("1 + K·c")), qPrintable(text)); // no chain speedup formula
        // The same numbers in a chain session: the chain's formulas again.
        panel.setTree(TreeShape());
        panel.setMetrics(record->cumulative, 3);
        QVERIFY(panel.toPlainText().contains(QStringLiteral("1 + K·c")));
        QVERIFY(!panel.toPlainText().contains(QStringLiteral("15 nodes")));
    }

    void sessionRunPlaysTreesIntoTheWindow()
    {
        // A session with a tree shape: the record keeps the tree and its path as a chain; the round view shows
        // the tree instead of the cards; the distribution view shows q, p and p' of a node, each from its phase.
        const Corpus corpus = test::tinyEnglish();
        const auto target = test::model("ngram:3", corpus);
        const auto draft = test::model("ngram:1:addk=1", corpus);
        DecodingSettings s;
        s.tree = TreeShape::parse("3,2,1");
        s.seed = 5;
        s.recordDistributions = true;
        SessionRun run(*target, *draft, s, corpus.vocabulary.encode(U"the "), 1000);
        RoundHistory history(4);
        std::int64_t nodes = 0;
        for (int r = 0; r < 12; ++r) {
            auto record = run.playRound();
            QVERIFY(record && record->tree);
            QCOMPARE(record->trace.committed, record->tree->committed);
            QCOMPARE(record->trace.targetCalls, 1);
            nodes += record->tree->draftedCount();
            QCOMPARE(record->nodesDrafted, nodes);
            history.append({record});
        }
        // Rounds that left the window keep their tree's numbers, not its vectors.
        QVERIFY(!history.hasDistributions(0));
        QCOMPARE(history.at(0).tree->nodes.size(), std::size_t(15));
        QVERIFY(history.at(0).tree->expansions.empty());
        QVERIFY(history.hasDistributions(11));

        int round = 11;
        while (round >= 8 && history.at(round).tree->stoppedAtDepth < 0)
            --round;
        const auto record = history.shared(round);
        const TreeTrace &t = *record->tree;
        SessionInfo info;
        info.vocabulary = std::make_shared<const Tokenizer>(Tokenizer::chars(corpus.vocabulary));
        RoundView roundView;
        roundView.resize(800, 600);
        roundView.setSession(info);
        roundView.showPosition(history, round, Phase::Dice, false);
        QVERIFY(!roundView.tree()->isHidden());
        QVERIFY(roundView.cards()->isHidden());

        DistributionView dist;
        dist.resize(500, 400);
        dist.setSession(info);
        const int node = testOrder(t).front();
        dist.showTreeNode(record, node, Phase::Draft);
        QVERIFY(!test::allZero(dist.qValues()));
        QVERIFY(test::allZero(dist.pValues()) && test::allZero(dist.residualValues())); // p only from the verify sweep
        dist.showTreeNode(record, node, Phase::Verify);
        QVERIFY(!test::allZero(dist.pValues()) && test::allZero(dist.residualValues())); // p' only with the node's test
        dist.showTreeNode(record, node, Phase::Dice);
        const int i = static_cast<int>(dist.tokens().indexOf(t.nodes[static_cast<std::size_t>(node)].token));
        QVERIFY(i >= 0);
        QVERIFY(qAbs(dist.residualValues()[i] - t.nodes[static_cast<std::size_t>(node)].pUsed) < 1e-12);
        QVERIFY(dist.numbersText().contains(QStringLiteral("p′(x)")));
        // The correction: nothing before its phase, then the final p'.
        dist.showTreeNode(record, TreeFrame::kOutcome, Phase::Dice);
        QVERIFY(test::allZero(dist.residualValues()));
        dist.showTreeNode(record, TreeFrame::kOutcome, Phase::Residual);
        const int c = static_cast<int>(dist.tokens().indexOf(t.correction));
        QVERIFY(c >= 0);
        QVERIFY(qAbs(dist.residualValues()[c] - t.residual(t.correction)) < 1e-12);
    }
};

QTEST_MAIN(TestGuiTreeView)
#include "test_gui_tree_view.moc"
