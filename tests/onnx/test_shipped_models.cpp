// SPDX-License-Identifier: GPL-3.0-or-later
// The ONNX models shipped under corpora/*/models: parity with the logits saved at export, the corpus's
// vocabulary, and speculative decoding with them — lossless (chi-square) and greedy-exact. kjv target-large
// (90 MB of weights, loaded once for the suite): PyTorch's distributions at every position of a 300-token run,
// cached and uncached, greedy speculative = greedy autoregressive past its context, and the chi-square on its
// cache.
#include "Continuations.h"
#include "DecodingState.h"
#include "Generation.h"
#include "Statistics.h"
#include "TestSupport.h"
#include "Utf8.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/TensorProtoIo.h"

#include <QtTest>

#include <filesystem>
#include <map>

using namespace specdec;

namespace {

const std::string kModels = std::string(SPECDEC_SOURCE_DIR) + "/corpora/";

std::string modelPath(const std::string &corpus, const std::string &name)
{
    return kModels + corpus + "/models/" + name + ".onnx";
}

/// Remembers each (sequence, m) call of a model, so that a statistical test needing 10^5 generations makes
/// each distinct forward pass once. Every row still comes from a real call of the same shape: through the
/// windowed path (distributions()) or, for a decoding state with the cache on, through one real KV state of
/// the inner model (shared by all states, made at the first miss: a state of target-large holds a 16 MB
/// cache), synchronised to the sequence and extended by the new tokens.
class MemoizedModel final : public LanguageModel
{
public:
    explicit MemoizedModel(LanguageModel &inner)
        : LanguageModel(inner.tokenizer())
        , m_inner(inner)
    {
    }
    std::string describe() const override { return m_inner.describe(); }
    bool hasKvCache() const override { return m_inner.hasKvCache(); }
    std::int64_t cachedMisses() const { return m_cachedMisses; }

protected:
    class State final : public DecodingState
    {
    public:
        State(MemoizedModel &model, LanguageModel &counter)
            : DecodingState(model, counter)
            , m_memo(model)
        {
        }

    protected:
        void compute(int added, int m, DistributionMatrix &out) override
        {
            m_stats.fed += added;
            const auto seq = tokens();
            auto key = std::make_pair(std::vector<TokenId>(seq.begin(), seq.end()), m);
            auto it = m_memo.m_cachedRows.find(key);
            if (it == m_memo.m_cachedRows.end()) {
                if (!m_memo.m_innerState)
                    m_memo.m_innerState = m_memo.m_inner.newState(true);
                DecodingState &inner = *m_memo.m_innerState;
                inner.syncTo(seq);
                DistributionMatrix rows;
                inner.extend(seq.subspan(static_cast<std::size_t>(inner.length())), m, rows);
                ++m_memo.m_cachedMisses;
                it = m_memo.m_cachedRows.emplace(std::move(key), std::move(rows)).first;
            }
            out = it->second;
        }

    private:
        MemoizedModel &m_memo;
    };

    std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache) override
    {
        if (kvCache && m_inner.hasKvCache())
            return std::make_unique<State>(*this, counter);
        return LanguageModel::makeState(counter, kvCache);
    }

    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override
    {
        auto key = std::make_pair(std::vector<TokenId>(sequence.begin(), sequence.end()), m);
        auto it = m_cache.find(key);
        if (it == m_cache.end()) {
            DistributionMatrix rows;
            m_inner.distributions(sequence, m, rows);
            it = m_cache.emplace(std::move(key), std::move(rows)).first;
        }
        out = it->second;
    }

private:
    LanguageModel &m_inner;
    std::unique_ptr<DecodingState> m_innerState; // the real KV state behind every State's misses
    std::map<std::pair<std::vector<TokenId>, int>, DistributionMatrix> m_cache;
    std::map<std::pair<std::vector<TokenId>, int>, DistributionMatrix> m_cachedRows;
    std::int64_t m_cachedMisses = 0;
};

/// Max over positions and tokens of |softmax(logits row) - p|, with p the rows of a state or softmax(expected).
double maxSoftmaxDiff(const DistributionMatrix &rows, const nn::Tensor &expected, std::int64_t firstRow)
{
    const std::int64_t V = expected.dim(2);
    double worst = 0.0;
    for (Eigen::Index r = 0; r < rows.rows(); ++r) {
        const std::int64_t at = (firstRow + r) * V;
        double top = -1e300, sum = 0.0;
        for (std::int64_t v = 0; v < V; ++v)
            top = std::max(top, expected.doubleAt(at + v));
        for (std::int64_t v = 0; v < V; ++v)
            sum += std::exp(expected.doubleAt(at + v) - top);
        for (std::int64_t v = 0; v < V; ++v)
            worst = std::max(worst, std::abs(rows(r, v) - std::exp(expected.doubleAt(at + v) - top) / sum));
    }
    return worst;
}

} // namespace

class TestShippedModels : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<OnnxLanguageModel> m_large; // kjv target-large, loaded once

private slots:
    void initTestCase()
    {
        const std::string path = modelPath("kjv", "target-large");
        QVERIFY2(std::filesystem::exists(path), path.c_str());
        const std::size_t before = nn::tensorMemoryInUse();
        m_large = OnnxLanguageModel::load(path, 0);
        // The chef is memory-bound on a CPU: its float32 weights are at least twice a large L3 cache.
        QVERIFY2(nn::tensorMemoryInUse() - before >= std::size_t(64) << 20,
                 nn::formatBytes(static_cast<double>(nn::tensorMemoryInUse() - before)).c_str());
        QVERIFY(std::filesystem::file_size(path) <= std::uintmax_t(60) << 20); // float16 in the repository
        QCOMPARE(m_large->contextLength(), 512);
        QCOMPARE(m_large->parameterCount(), std::int64_t(22475583)); // corpora/README.md: float16 file, same count
        QVERIFY(m_large->hasKvCache());
    }

    void largeTargetMatchesPyTorchEverywhere()
    {
        // The parity data of target-large is a 300-token held-out run with PyTorch's logits at every position:
        // the windowed path (one uncached call), and the KV state fed one token per call and five per call,
        // give its softmax within 1e-5. 300 < 512 tokens: the cache never refills.
        const std::string parity = kModels + "kjv/models/target-large.parity/";
        const nn::Tensor tokens = nn::readTensorFile(parity + "input_0.pb");
        const nn::Tensor expected = nn::readTensorFile(parity + "output_0.pb");
        std::vector<TokenId> ids;
        for (std::int64_t v : tokens.toInt64Vector())
            ids.push_back(static_cast<TokenId>(v));
        QCOMPARE(ids.size(), std::size_t(300));
        const std::span<const TokenId> all(ids);
        DistributionMatrix rows;
        m_large->distributions(all, static_cast<int>(ids.size()), rows);
        const double uncached = maxSoftmaxDiff(rows, expected, 0);
        double cached = 0.0;
        for (std::size_t step : {std::size_t(1), std::size_t(5)}) {
            const auto state = m_large->newState(true);
            for (std::size_t at = 0; at < ids.size(); at += step) {
                state->extend(all.subspan(at, step), static_cast<int>(step), rows);
                cached = std::max(cached, maxSoftmaxDiff(rows, expected, static_cast<std::int64_t>(at)));
            }
            QCOMPARE(state->stats().refills, std::int64_t(0));
        }
        qInfo("max |p - p_torch|: uncached %.2e, cached %.2e", uncached, cached);
        QVERIFY2(uncached <= 1e-5, qPrintable(QString::number(uncached)));
        QVERIFY2(cached <= 1e-5, qPrintable(QString::number(cached)));
    }

    void largeTargetGreedySpeculativeEqualsAutoregressive()
    {
        // kjv target-large with draft-small on their caches, greedy, past the small target's 128 tokens and
        // past target-large's own context of 512 (where its cache refills from a new window start).
        const Corpus text = test::builtCorpus("kjv");
        BuiltModel d = buildModel(ModelSpec::parse("onnx:" + modelPath("kjv", "draft-small")), text,
                                  &m_large->tokenizer(), m_large.get());
        DecodingSettings s;
        s.draftLength = 4;
        s.target.temperature = s.draft.temperature = 0.0;
        const auto ids = m_large->tokenizer().encode(U"And I saw a new heaven");
        const int tokens = m_large->contextLength() + 20;
        const Generation spec = generateSpeculative(*m_large, *d.model, s, ids, tokens);
        const Generation ar = generateAutoregressive(*m_large, s.target, 0, ids, tokens, {}, true);
        QCOMPARE(spec.tokens, ar.tokens);
        QVERIFY(spec.target.calls < ar.target.calls);
        std::int64_t refills = 0;
        for (const RoundTrace &r : spec.rounds)
            refills += r.targetCache.refills;
        QVERIFY(refills > 0);
    }

    void matchExportedLogits_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("name");
        for (const char *corpus : {"kjv", "tang-song"})
            for (const char *name : {"target", "draft-small", "draft-tiny"})
                QTest::addRow("%s %s", corpus, name) << QString::fromLatin1(corpus) << QString::fromLatin1(name);
    }
    void matchExportedLogits()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, name);
        const std::string path = modelPath(corpus.toStdString(), name.toStdString());
        QVERIFY2(std::filesystem::exists(path), path.c_str());
        const auto model = OnnxLanguageModel::load(path, 1);
        const std::string parity = path.substr(0, path.size() - 5) + ".parity/";
        const nn::Tensor tokens = nn::readTensorFile(parity + "input_0.pb");
        const nn::Tensor expected = nn::readTensorFile(parity + "output_0.pb");
        std::vector<TokenId> ids;
        for (std::int64_t v : tokens.toInt64Vector())
            ids.push_back(static_cast<TokenId>(v));
        const nn::Tensor logits = model->windowLogits(ids);
        QCOMPARE(logits.size(), expected.size());
        // |ours - PyTorch's| <= 1e-4 (1 + |logit|): float32 roundoff of two different summation orders is about
        // 1e-5 at logits of 10-20 (measured: at most 1.5e-5), and any wrong operation is far above it.
        double worst = 0.0;
        for (std::int64_t i = 0; i < logits.size(); ++i)
            worst = std::max(
                worst, std::abs(logits.doubleAt(i) - expected.doubleAt(i)) / (1.0 + std::abs(expected.doubleAt(i))));
        QVERIFY2(worst < 1e-4, qPrintable(QStringLiteral("worst scaled difference %1").arg(worst)));
        // Its parameters are PyTorch's count of the trained module (the training metadata's "params"): every
        // float initializer is a weight, and nothing else (shapes, the causal mask) counts.
        const std::string training = model->graph().metadata().at("specdec.training");
        const std::size_t at = training.find("\"params\": ");
        QVERIFY(at != std::string::npos);
        QCOMPARE(model->parameterCount(), std::stoll(training.substr(at + 10)));
        // The model's vocabulary is the corpus's, so n-gram drafts map onto it completely.
        const Corpus c = test::builtCorpus(corpus.toStdString());
        QVERIFY(*model->tokenizer().characters() == c.vocabulary);
        QCOMPARE(model->corpus(), corpus.toStdString());
    }

    void cachedEqualsUncached_data() { matchExportedLogits_data(); }
    void cachedEqualsUncached()
    {
        // Every position of a 300-token run (past the context): the KV state, fed one token per call and
        // K + 1 = 5 per call, gives the windowed path's distributions.
        QFETCH(QString, corpus);
        QFETCH(QString, name);
        const auto model = OnnxLanguageModel::load(modelPath(corpus.toStdString(), name.toStdString()), 1);
        QVERIFY(model->hasKvCache());
        const Corpus c = test::builtCorpus(corpus.toStdString());
        const std::vector<TokenId> ids = c.tokens(model->tokenizer());
        const std::vector<TokenId> text(ids.begin() + 5000, ids.begin() + 5300);
        for (TokenId t : text)
            QVERIFY(t >= 0);
        const std::span<const TokenId> all(text);
        const auto uncached = model->newState(false);
        const auto oneByOne = model->newState(true);
        const auto fiveByFive = model->newState(true);
        DistributionMatrix u, a, b;
        double worst = 0.0;
        for (std::size_t at = 0; at < text.size(); at += 5) {
            fiveByFive->extend(all.subspan(at, 5), 5, b);
            for (std::size_t i = 0; i < 5; ++i) {
                uncached->extend(all.subspan(at + i, 1), 1, u);
                oneByOne->extend(all.subspan(at + i, 1), 1, a);
                worst = std::max({worst, (u - a).cwiseAbs().maxCoeff(),
                                  (u.row(0) - b.row(static_cast<Eigen::Index>(i))).cwiseAbs().maxCoeff()});
            }
        }
        QVERIFY2(worst <= 1e-5, qPrintable(QStringLiteral("max |p_cached - p_uncached| %1").arg(worst)));
        QVERIFY(oneByOne->stats().refills > 0); // 300 tokens outgrow every shipped context
        QVERIFY(oneByOne->cachedLength() <= model->contextLength());
    }

    void greedySpeculativeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("draft");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<bool>("cache");
        for (bool cache : {true, false}) {
            const char *mode = cache ? "cache on" : "cache off";
            QTest::addRow("kjv draft-small, %s", mode) << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small")
                                                       << QStringLiteral("And God said") << cache;
            QTest::addRow("kjv ngram:4, %s", mode)
                << QStringLiteral("kjv") << QStringLiteral("ngram:4") << QStringLiteral("In the beginning") << cache;
            QTest::addRow("kjv lookup:3, %s", mode)
                << QStringLiteral("kjv") << QStringLiteral("lookup:3") << QStringLiteral("Jesus") << cache;
            QTest::addRow("tang-song draft-tiny, %s", mode)
                << QStringLiteral("tang-song") << QStringLiteral("onnx:draft-tiny") << QStringLiteral("床前明月光")
                << cache;
        }
    }
    void greedySpeculativeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, draft);
        QFETCH(QString, prompt);
        QFETCH(bool, cache);
        const std::string c = corpus.toStdString();
        const Corpus text = test::builtCorpus(c);
        auto target = OnnxLanguageModel::load(modelPath(c, "target"), 0);
        std::string spec = draft.toStdString();
        if (spec.rfind("onnx:", 0) == 0)
            spec = "onnx:" + modelPath(c, spec.substr(5));
        BuiltModel d = buildModel(ModelSpec::parse(spec), text, &target->tokenizer(), target.get());
        QVERIFY(d.unmapped.empty());
        DecodingSettings s;
        s.draftLength = 4;
        s.kvCache = cache;
        s.target.temperature = s.draft.temperature = 0.0;
        const auto ids = target->tokenizer().encode(decodeUtf8(prompt.toStdString()));
        // Past the context length too: the windows must score each prefix as autoregressive decoding does.
        const int tokens = target->contextLength() + 40;
        const Generation spec1 = generateSpeculative(*target, *d.model, s, ids, tokens);
        const Generation ar = generateAutoregressive(*target, s.target, 0, ids, tokens, {}, cache);
        QCOMPARE(spec1.tokens, ar.tokens);
        QVERIFY(spec1.target.calls < ar.target.calls);
        if (cache) { // and the same text as without the cache
            const Generation plain = generateAutoregressive(*target, s.target, 0, ids, tokens, {}, false);
            QCOMPARE(plain.tokens, ar.tokens);
            std::int64_t refills = 0;
            for (const RoundTrace &r : spec1.rounds)
                refills += r.targetCache.refills;
            QVERIFY(refills > 0);
        }
    }

    void speculativeIsLossless_data()
    {
        QTest::addColumn<QString>("targetName");
        QTest::addColumn<bool>("cache");
        QTest::addRow("target, cache on") << QStringLiteral("target") << true;
        QTest::addRow("target, cache off") << QStringLiteral("target") << false;
        QTest::addRow("target-large, cache on") << QStringLiteral("target-large") << true;
    }
    void speculativeIsLossless()
    {
        QFETCH(QString, targetName);
        QFETCH(bool, cache);
        std::unique_ptr<OnnxLanguageModel> loaded;
        if (targetName != QStringLiteral("target-large"))
            loaded = OnnxLanguageModel::load(modelPath("kjv", targetName.toStdString()), 0);
        OnnxLanguageModel &targetModel = loaded ? *loaded : *m_large;
        auto draftModel = OnnxLanguageModel::load(modelPath("kjv", "draft-tiny"), 0);
        MemoizedModel target(targetModel);
        MemoizedModel draft(*draftModel);
        const auto prompt = target.tokenizer().encode(U"And");
        for (Variant variant : {Variant::Correct, Variant::AcceptAll}) {
            DecodingSettings s;
            s.draftLength = 2;
            s.seed = 7;
            s.variant = variant;
            s.kvCache = cache;
            const ChiSquareResult chi = fitContinuations(exactContinuations(target, s.target, prompt, 2),
                                                         sampleContinuations(target, &draft, s, DecodingMode::Speculative,
                                                                             prompt, 2, 100000))
                                            .chi;
            qInfo("%s: chi2 %.1f dof %d p-value %.4g", variantName(variant).c_str(), chi.statistic,
                  chi.degreesOfFreedom, chi.pValue);
            QVERIFY(chi.degreesOfFreedom >= 20);
            QCOMPARE(target.cachedMisses() > 0, cache); // with the cache on, rows come from real KV states
            if (variant == Variant::Correct)
                QVERIFY2(chi.pValue > 1e-3, qPrintable(QString::number(chi.pValue)));
            else
                QVERIFY2(chi.pValue < 1e-9, qPrintable(QString::number(chi.pValue)));
        }
    }
};

QTEST_APPLESS_MAIN(TestShippedModels)
#include "test_shipped_models.moc"
