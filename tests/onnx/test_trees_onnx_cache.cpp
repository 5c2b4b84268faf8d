// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees on the ONNX models' key/value caches: the tree 1,1,1 equal to the chain decoder round for round
// (tokens, dice, calls and each state's lengths, cache on and off), and the lossless claim by chi-square with
// the rows computed on the caches (memoized per sequence, and on the decoder's own states), both wrong variants
// caught by the same test.
#include "Continuations.h"
#include "Generation.h"
#include "TestSupport.h"
#include "TreePath.h"
#include "onnx/OnnxLanguageModel.h"

#include <QtTest>

#include <algorithm>
#include <map>

using namespace specdec;
using test::onCi;
using test::treeSettings;

namespace {

/// A model in front of an ONNX model with a key/value cache: its states' rows come from a real cached state of
/// the inner model (branch rows after the committed prefix's cache, as TreeDecoder asks for them), memoized
/// per sequence, so that 10^5 sampled continuations cost one inner run per distinct sequence.
class MemoizedKvModel final : public LanguageModel
{
public:
    explicit MemoizedKvModel(LanguageModel &inner)
        : LanguageModel(inner.tokenizer())
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
            std::vector<std::vector<TokenId>> one{
                std::vector<TokenId>(seq.begin() + static_cast<std::ptrdiff_t>(split), seq.end())};
            std::vector<DistributionMatrix> rows(1);
            m_memo.branchRows(seq.first(split), one, m, rows);
            out = rows[0];
        }
        void computeBranches(int sharedAdded, std::span<const std::vector<TokenId>> branches, std::span<const int>,
                             int reused, int m, std::vector<DistributionMatrix> &out) override
        {
            m_stats.fed += sharedAdded
                + static_cast<std::int64_t>(branches.size()) * (static_cast<std::int64_t>(branches[0].size()) - reused);
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

} // namespace

Q_DECLARE_METATYPE(specdec::DecodingSettings)

class TestTreesOnnxCache : public QObject
{
    Q_OBJECT
private slots:
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
        const auto ids = target->tokenizer().encode(U"And God said");
        const int tokens = cache ? 170 : 140;
        const Generation a = generateSpeculative(*target, *draft, chain, ids, tokens);
        const Generation b = generateSpeculative(*target, *draft, tree, ids, tokens);
        QCOMPARE(b.tokens, a.tokens);
        QCOMPARE(b.treeRounds.size(), a.rounds.size());
        for (std::size_t r = 0; r < a.rounds.size(); ++r) {
            const RoundTrace path = pathTrace(b.treeRounds[r]);
            QCOMPARE(path.committed, a.rounds[r].committed);
            for (int i = 0; i < a.rounds[r].testedCount(); ++i)
                QCOMPARE(path.positions[static_cast<std::size_t>(i)].u,
                         a.rounds[r].positions[static_cast<std::size_t>(i)].u);
            for (const auto &[x, y] : {std::pair{path.targetCache, a.rounds[r].targetCache},
                                       std::pair{path.draftCache, a.rounds[r].draftCache}}) {
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
        QTest::addRow("no-residual-update 3,2")
            << treeSettings("3,2", 1.0, 1.0, 84, TreeVariant::NoResidualUpdate) << false;
        QTest::addRow("typical-acceptance 2,1")
            << treeSettings("2,1", 1.0, 1.0, 85, TreeVariant::TypicalAcceptance) << false;
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
        const auto prompt = target.tokenizer().encode(U"And the");
        const ContinuationFit fit = fitContinuations(
            exactContinuations(target, decoding.target, prompt, 2),
            sampleContinuations(target, &draft, decoding, DecodingMode::Speculative, prompt, 2, onCi() ? 40000 : 100000));
        qInfo("%lld target, %lld draft inner runs", static_cast<long long>(target.misses()),
              static_cast<long long>(draft.misses()));
        QVERIFY(target.misses() > 0 && draft.misses() > 0);
        const QString why = test::losslessVerdict(fit, lossless, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void cachedTreesAreLosslessUnmemoized()
    {
        // The same on the decoder's own states, nothing memoized (fewer samples: every one runs the models).
        auto target = OnnxLanguageModel::load(kjvModel("draft-small"), 1);
        auto draft = OnnxLanguageModel::load(kjvModel("draft-tiny"), 1);
        const auto prompt = target->tokenizer().encode(U"And the");
        const DecodingSettings decoding = treeSettings("3,2", 1.0, 1.0, 86);
        const ContinuationFit fit = fitContinuations(exactContinuations(*target, decoding.target, prompt, 2),
                                                     sampleContinuations(*target, draft.get(), decoding,
                                                                         DecodingMode::Speculative, prompt, 2,
                                                                         onCi() ? 4000 : 20000));
        const QString why = test::losslessVerdict(fit, true, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_APPLESS_MAIN(TestTreesOnnxCache)
#include "test_trees_onnx_cache.moc"
