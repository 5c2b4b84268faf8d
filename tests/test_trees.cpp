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

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

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

#ifdef SPECDEC_TREES_ONNX
/// A model in front of an ONNX model with a key/value cache: its states' rows come from a real cached state of
/// the inner model (branch rows after the committed prefix's cache, as TreeDecoder asks for them), memoized
/// per sequence, so that 10^5 sampled continuations cost one inner run per distinct sequence.
class MemoizedKvModel final : public LanguageModel
{
public:
    explicit MemoizedKvModel(LanguageModel &inner)
        : LanguageModel(inner.vocabulary())
        , m_inner(inner)
        , m_state(inner.newState(true))
    {
    }
    std::string describe() const override { return m_inner.describe(); }
    bool hasKvCache() const override { return m_inner.hasKvCache(); }
    std::int64_t misses() const { return m_misses; }

protected:
    class State final : public DecodingState
    {
    public:
        State(MemoizedKvModel &model, LanguageModel &counter)
            : DecodingState(model, counter)
            , m_memo(model)
        {
        }

    protected:
        void compute(int added, int m, DistributionMatrix &out) override
        {
            m_stats.fed += added;
            const auto seq = tokens(); // the last m - 1 tokens as a branch: its m rows are the last m prefixes
            const auto split = seq.size() - static_cast<std::size_t>(m - 1);
            std::vector<std::vector<TokenId>> one{std::vector<TokenId>(seq.begin() + static_cast<std::ptrdiff_t>(split), seq.end())};
            std::vector<DistributionMatrix> rows(1);
            m_memo.branchRows(seq.first(split), one, m, rows);
            out = rows[0];
        }
        void computeBranches(int sharedAdded, std::span<const std::vector<TokenId>> branches, std::span<const int>,
                             int reused, int m, std::vector<DistributionMatrix> &out) override
        {
            m_stats.fed += sharedAdded + static_cast<std::int64_t>(branches.size()) * (static_cast<std::int64_t>(branches[0].size()) - reused);
            m_memo.branchRows(tokens(), branches, m, out);
        }

    private:
        MemoizedKvModel &m_memo;
    };

    std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache) override
    {
        if (kvCache && m_inner.hasKvCache())
            return std::make_unique<State>(*this, counter);
        return LanguageModel::makeState(counter, kvCache);
    }
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override
    {
        m_inner.distributions(sequence, m, out);
    }

private:
    using Key = std::pair<std::vector<TokenId>, int>;
    void branchRows(std::span<const TokenId> prefix, std::span<const std::vector<TokenId>> branches, int m,
                    std::vector<DistributionMatrix> &out)
    {
        std::vector<Key> keys;
        std::vector<std::vector<TokenId>> missing;
        for (const std::vector<TokenId> &branch : branches) {
            Key key{std::vector<TokenId>(prefix.begin(), prefix.end()), m};
            key.first.insert(key.first.end(), branch.begin(), branch.end());
            if (!m_rows.count(key) && std::find(missing.begin(), missing.end(), branch) == missing.end())
                missing.push_back(branch);
            keys.push_back(std::move(key));
        }
        if (!missing.empty()) { // the inner state: its cache up to the prefix, the missing rows after it
            m_state->syncTo(prefix);
            std::vector<DistributionMatrix> rows;
            m_state->extendBranches(prefix.subspan(static_cast<std::size_t>(m_state->length())), missing, m, rows);
            ++m_misses;
            for (std::size_t b = 0; b < missing.size(); ++b) {
                Key key{std::vector<TokenId>(prefix.begin(), prefix.end()), m};
                key.first.insert(key.first.end(), missing[b].begin(), missing[b].end());
                m_rows.emplace(std::move(key), std::move(rows[b]));
            }
        }
        for (std::size_t b = 0; b < keys.size(); ++b)
            out[b] = m_rows.at(keys[b]);
    }

    LanguageModel &m_inner;
    std::unique_ptr<DecodingState> m_state;
    std::map<Key, DistributionMatrix> m_rows;
    std::int64_t m_misses = 0;
};

std::string kjvModel(const char *name)
{
    return std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/" + name + ".onnx";
}
#endif

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

    void statesKeepTheAcceptedPath()
    {
        // After each round both states hold the committed prefix + the accepted path; every other branch row's
        // entries are counted as discarded (rows x path length - kept); one target call per round.
        DecodingSettings s = treeSettings("3,2,1", 1.0, 1.0, 9);
        TreeDecoder decoder(*m_target, *m_draft, s);
        std::vector<TokenId> sequence = m_prompt;
        for (int r = 0; r < 40; ++r) {
            const TreeTrace t = decoder.round(sequence, 100);
            const int a = t.acceptedCount(), D = t.shape.depth();
            QCOMPARE(t.targetCache.before, r == 0 ? 0 : t.contextLength - 1); // the last round's correction or bonus is new
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
        QTest::addColumn<bool>("cache");
        for (bool cache : {true, false}) {
            const char *mode = cache ? "cache on" : "cache off";
            QTest::addRow("kjv draft-small 2,2,1, %s", mode) << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small") << QStringLiteral("2,2,1") << QStringLiteral("And God said") << cache;
            QTest::addRow("kjv draft-small 3,2,1, %s", mode) << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small") << QStringLiteral("3,2,1") << QStringLiteral("In the beginning") << cache;
            QTest::addRow("kjv ngram:4 3,1, %s", mode) << QStringLiteral("kjv") << QStringLiteral("ngram:4") << QStringLiteral("3,1") << QStringLiteral("In the beginning") << cache;
            QTest::addRow("tang-song draft-tiny 2,1, %s", mode) << QStringLiteral("tang-song") << QStringLiteral("onnx:draft-tiny") << QStringLiteral("2,1") << QStringLiteral("床前明月光") << cache;
        }
    }
    void onnxGreedyTreeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, draft);
        QFETCH(QString, shape);
        QFETCH(QString, prompt);
        QFETCH(bool, cache);
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
        s.kvCache = cache;
        const auto ids = target->vocabulary().encode(decodeUtf8(prompt.toStdString()));
        // Past the context length too: every path is scored in the windows autoregressive decoding uses (with
        // the cache: after the committed prefix's cache, refilled where the window start moves). 300 tokens
        // on kjv (the cache off: recomputed windows, slow; the context + 20 on CI).
        const int tokens = corpus == QStringLiteral("kjv") && (cache || !onCi()) ? 300 : target->contextLength() + 20;
        const Generation tree = generateSpeculative(*target, *d.model, s, ids, tokens);
        const Generation ar = generateAutoregressive(*target, s.target, 0, ids, tokens, {}, true);
        QCOMPARE(tree.tokens, ar.tokens); // (cached = uncached autoregressive text: test_shipped_models)
        QVERIFY(tree.target.calls < ar.target.calls);
        int refills = 0, discarded = 0;
        for (const TreeTrace &r : tree.treeRounds) {
            refills += r.targetCache.refills;
            discarded += r.targetCache.discarded;
            QCOMPARE(r.targetCache.after, r.contextLength + r.acceptedCount());
        }
        QCOMPARE(refills > 0, cache); // a state without a cache has no window to refill
        QVERIFY(discarded > 0);
    }

    void onnxChainTreeEqualsChainDecoder_data()
    {
        QTest::addColumn<bool>("cache");
        QTest::addColumn<double>("temperature");
        for (bool cache : {true, false})
            for (double temperature : {1.0, 0.0})
                QTest::addRow("%s, T=%g", cache ? "cache on" : "cache off", temperature) << cache << temperature;
    }
    void onnxChainTreeEqualsChainDecoder()
    {
        // The tree 1,1,1 on the ONNX states is the chain K = 3 round for round: tokens, dice, calls, and each
        // state's lengths (before, extended, after, discarded, refills, positions fed), past the context too.
        QFETCH(bool, cache);
        QFETCH(double, temperature);
        auto target = OnnxLanguageModel::load(kjvModel("target"), 1);
        auto draft = OnnxLanguageModel::load(kjvModel("draft-small"), 1);
        DecodingSettings chain;
        chain.draftLength = 3;
        chain.target.temperature = chain.draft.temperature = temperature;
        chain.seed = 11;
        chain.kvCache = cache;
        DecodingSettings tree = chain;
        tree.tree = TreeShape::parse("1,1,1");
        const auto ids = target->vocabulary().encode(U"And God said");
        const int tokens = cache ? 170 : 140;
        const Generation a = generateSpeculative(*target, *draft, chain, ids, tokens);
        const Generation b = generateSpeculative(*target, *draft, tree, ids, tokens);
        QCOMPARE(b.tokens, a.tokens);
        QCOMPARE(b.treeRounds.size(), a.rounds.size());
        for (std::size_t r = 0; r < a.rounds.size(); ++r) {
            const RoundTrace path = pathTrace(b.treeRounds[r]);
            QCOMPARE(path.committed, a.rounds[r].committed);
            for (int i = 0; i < a.rounds[r].testedCount(); ++i)
                QCOMPARE(path.positions[static_cast<std::size_t>(i)].u, a.rounds[r].positions[static_cast<std::size_t>(i)].u);
            for (const auto &[x, y] : {std::pair{path.targetCache, a.rounds[r].targetCache}, std::pair{path.draftCache, a.rounds[r].draftCache}}) {
                QCOMPARE(x.before, y.before);
                QCOMPARE(x.extended, y.extended);
                QCOMPARE(x.after, y.after);
                QCOMPARE(x.discarded, y.discarded);
                QCOMPARE(x.refills, y.refills);
                QCOMPARE(x.fed, y.fed);
            }
            QCOMPARE(path.targetCalls, a.rounds[r].targetCalls);
            QCOMPARE(path.draftCalls, a.rounds[r].draftCalls);
        }
        QCOMPARE(b.target.calls, a.target.calls);
        QCOMPARE(b.draft.calls, a.draft.calls);
    }

    void cachedTreesAreLossless_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addColumn<bool>("lossless");
        QTest::addRow("2,1 T=1") << treeSettings("2,1", 1.0, 1.0, 81) << true;
        QTest::addRow("3,2 T=0.7") << treeSettings("3,2", 0.7, 1.0, 82) << true;
        QTest::addRow("4 top-p=0.9") << treeSettings("4", 1.0, 0.9, 83) << true;
        QTest::addRow("no-residual-update 3,2") << treeSettings("3,2", 1.0, 1.0, 84, TreeVariant::NoResidualUpdate) << false;
        QTest::addRow("typical-acceptance 2,1") << treeSettings("2,1", 1.0, 1.0, 85, TreeVariant::TypicalAcceptance) << false;
    }
    void cachedTreesAreLossless()
    {
        // The chi-square of the first two tokens with ONNX models on their key/value caches (kjv target,
        // draft-tiny): every row after the committed prefix's cache, memoized per sequence.
        QFETCH(DecodingSettings, decoding);
        QFETCH(bool, lossless);
        auto targetModel = OnnxLanguageModel::load(kjvModel("target"), 1);
        auto draftModel = OnnxLanguageModel::load(kjvModel("draft-tiny"), 1);
        MemoizedKvModel target(*targetModel), draft(*draftModel);
        const auto prompt = target.vocabulary().encode(U"And the");
        const ContinuationFit fit = fitContinuations(
            exactContinuations(target, decoding.target, prompt, 2),
            sampleContinuations(target, &draft, decoding, DecodingMode::Speculative, prompt, 2, onCi() ? 40000 : 100000));
        qInfo("chi2 %.1f dof %d p-value %.3g TV %.4f (%lld target, %lld draft inner runs)", fit.chi.statistic,
              fit.chi.degreesOfFreedom, fit.chi.pValue, fit.totalVariation, static_cast<long long>(target.misses()),
              static_cast<long long>(draft.misses()));
        QVERIFY(fit.chi.degreesOfFreedom >= 8);
        QVERIFY(target.misses() > 0 && draft.misses() > 0);
        if (lossless) {
            QCOMPARE(fit.chi.impossible, std::int64_t(0));
            QVERIFY2(fit.chi.pValue > 1e-3, qPrintable(QStringLiteral("p-value %1").arg(fit.chi.pValue)));
        } else {
            QVERIFY2(fit.chi.pValue < 1e-9, qPrintable(QStringLiteral("p-value %1").arg(fit.chi.pValue)));
        }
    }

    void cachedTreesAreLosslessUnmemoized()
    {
        // The same on the decoder's own states, nothing memoized (fewer samples: every one runs the models).
        auto target = OnnxLanguageModel::load(kjvModel("draft-small"), 1);
        auto draft = OnnxLanguageModel::load(kjvModel("draft-tiny"), 1);
        const auto prompt = target->vocabulary().encode(U"And the");
        const DecodingSettings decoding = treeSettings("3,2", 1.0, 1.0, 86);
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*target, decoding.target, prompt, 2),
            sampleContinuations(*target, draft.get(), decoding, DecodingMode::Speculative, prompt, 2, onCi() ? 4000 : 20000));
        qInfo("chi2 %.1f dof %d p-value %.4f TV %.4f", fit.chi.statistic, fit.chi.degreesOfFreedom, fit.chi.pValue,
              fit.totalVariation);
        QVERIFY(fit.chi.degreesOfFreedom >= 8);
        QCOMPARE(fit.chi.impossible, std::int64_t(0));
        QVERIFY2(fit.chi.pValue > 1e-3, qPrintable(QStringLiteral("p-value %1").arg(fit.chi.pValue)));
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
