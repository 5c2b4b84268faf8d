// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX models in the decoder-with-past layout: a held-out GPT-2-style model exported by PyTorch (not one of
// ours; tests/data/onnx/make_gpt2_with_past.py) matches PyTorch's distributions cached and uncached; the KV
// state rolls back; broken layouts are refused at load with a one-line error. The shipped models append their
// cache in place (nn::KvCache), with the same bits as the presents path on every instruction-set path, through
// rollbacks, multi-row extensions and refills past the context.
#include "DecodingState.h"
#include "Error.h"
#include "onnx/InstructionSet.h"
#include "onnx/OnnxKvState.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/TensorProtoIo.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <functional>

using namespace specdec;
using namespace specdec::nn;

namespace {

const std::string kDir = SPECDEC_TEST_DATA_DIR "/onnx/";

double maxDiff(const DistributionMatrix &rows, const Tensor &reference, std::int64_t firstRow)
{
    double worst = 0.0;
    const std::int64_t V = reference.dim(1);
    for (Eigen::Index r = 0; r < rows.rows(); ++r)
        for (std::int64_t v = 0; v < V; ++v)
            worst = std::max(worst, std::abs(rows(r, v) - reference.doubleAt((firstRow + r) * V + v)));
    return worst;
}

std::vector<TokenId> referenceTokens()
{
    std::vector<TokenId> ids;
    for (std::int64_t v : readTensorFile(kDir + "gpt2_with_past.reference/tokens.pb").toInt64Vector())
        ids.push_back(static_cast<TokenId>(v));
    return ids;
}

/// Restores the instruction-set path in use when a test ends.
struct PathGuard
{
    InstructionSet saved = activeInstructionSet();
    ~PathGuard() { setInstructionSet(saved); }
};

/// Every distribution of a scripted run of a KV state: 1-token steps, K + 1 = 5 rows, rollbacks, rows that
/// reach back into the cache, and enough tokens to pass the context (refills).
std::vector<DistributionMatrix> scriptedRun(LanguageModel &model, int tokens, std::int64_t *refills)
{
    const auto state = model.newState(true);
    const std::int64_t V = model.vocabulary().size();
    std::vector<TokenId> ids{1, 2};
    std::vector<DistributionMatrix> rows;
    DistributionMatrix out;
    state->extend(ids, 2, out);
    rows.push_back(out);
    for (int step = 0; static_cast<int>(ids.size()) < tokens; ++step) {
        const int k = step % 3 == 0 ? 5 : 1;
        std::vector<TokenId> fresh;
        for (int i = 0; i < k; ++i)
            fresh.push_back(static_cast<TokenId>((ids.size() * 7 + static_cast<std::size_t>(i) * 3) % static_cast<std::size_t>(V)));
        state->extend(fresh, k, out);
        ids.insert(ids.end(), fresh.begin(), fresh.end());
        rows.push_back(out);
        if (k == 5) { // reject the last two, as a verification would
            state->truncate(static_cast<int>(ids.size()) - 2);
            ids.resize(ids.size() - 2);
        }
        if (step % 7 == 6) { // rows reaching back before the extension
            state->extend(std::span<const TokenId>(ids).last(0), 3, out);
            rows.push_back(out);
        }
    }
    *refills = state->stats().refills;
    return rows;
}

} // namespace

class TestOnnxKvCache : public QObject
{
    Q_OBJECT
private slots:
    void heldOutGpt2MatchesTorch_data()
    {
        QTest::addColumn<bool>("cache");
        QTest::addColumn<int>("step");
        QTest::addRow("cached, 1 token per call") << true << 1;
        QTest::addRow("cached, 5 tokens per call") << true << 5;
        QTest::addRow("uncached, 1 token per call") << false << 1;
        QTest::addRow("uncached, 5 tokens per call") << false << 5;
    }
    void heldOutGpt2MatchesTorch()
    {
        QFETCH(bool, cache);
        QFETCH(int, step);
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        QVERIFY(model->hasKvCache());
        QCOMPARE(model->cacheLayers(), 2);
        const Tensor probs = readTensorFile(kDir + "gpt2_with_past.reference/probs.pb");
        const Tensor probsK4 = readTensorFile(kDir + "gpt2_with_past.reference/probs_k4.pb");
        const std::vector<TokenId> ids = referenceTokens();
        const auto state = model->newState(cache);
        QCOMPARE(state->hasCache(), cache);
        DistributionMatrix rows;
        double worst = 0.0, worstK4 = 0.0;
        std::size_t at = 0;
        for (int size = 1; at < ids.size(); size = step) {
            const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(size), ids.size() - at);
            state->extend(std::span<const TokenId>(ids).subspan(at, k), static_cast<int>(k), rows);
            worst = std::max(worst, maxDiff(rows, probs, static_cast<std::int64_t>(at)));
            worstK4 = std::max(worstK4, maxDiff(rows, probsK4, static_cast<std::int64_t>(at)));
            at += k;
        }
        QVERIFY2(worst <= 1e-4, qPrintable(QStringLiteral("max |p - p_torch| %1").arg(worst)));
        QVERIFY2(worstK4 <= 1e-4, qPrintable(QStringLiteral("max |p - p_torch(cached)| %1").arg(worstK4)));
        if (cache)
            QCOMPARE(state->cachedLength(), static_cast<int>(ids.size()));
    }

    void rollbackThenExtendEqualsAFreshState()
    {
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        const std::vector<TokenId> ids = referenceTokens();
        const std::span<const TokenId> all(ids);
        const auto state = model->newState();
        DistributionMatrix rows, fresh;
        state->extend(all.first(20), 1, rows);
        std::vector<TokenId> wrong(all.begin() + 20, all.begin() + 25);
        for (TokenId &t : wrong)
            t = (t + 1) % model->vocabulary().size();
        state->extend(wrong, 5, rows);
        QCOMPARE(state->cachedLength(), 25);
        QCOMPARE(state->truncate(22), 3);
        QCOMPARE(state->cachedLength(), 22);
        QCOMPARE(state->truncate(20), 2);
        state->extend(all.subspan(20, 8), 8, rows);
        const auto other = model->newState(false);
        other->extend(all.first(28), 8, fresh);
        QVERIFY((rows - fresh).cwiseAbs().maxCoeff() < 1e-6);
        // Rows reaching back before the extension recompute cached positions.
        state->extend(all.subspan(28, 1), 4, rows);
        other->extend(all.subspan(28, 1), 4, fresh);
        QVERIFY((rows - fresh).cwiseAbs().maxCoeff() < 1e-6);
        QCOMPARE(state->stats().discarded, std::int64_t(5));
    }

    void pastTheContextTheCacheRefills()
    {
        // Context 48, stride 12: prefixes longer than 48 use windows starting at 12, 24, ...
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        std::vector<TokenId> ids = referenceTokens();
        for (int i = 0; i < 80; ++i)
            ids.push_back(ids[static_cast<std::size_t>(i)]);
        const std::span<const TokenId> all(ids);
        const auto cached = model->newState(true);
        const auto uncached = model->newState(false);
        DistributionMatrix a, b;
        double worst = 0.0;
        for (std::size_t at = 0; at + 3 <= ids.size(); at += 3) {
            cached->extend(all.subspan(at, 3), 3, a);
            uncached->extend(all.subspan(at, 3), 3, b);
            worst = std::max(worst, (a - b).cwiseAbs().maxCoeff());
        }
        QVERIFY2(worst <= 1e-5, qPrintable(QStringLiteral("max |diff| %1").arg(worst)));
        QVERIFY(cached->stats().refills >= 5);
        QVERIFY(cached->cachedLength() <= model->contextLength());
        const auto *kv = dynamic_cast<const OnnxKvState *>(cached.get());
        QVERIFY(kv);
        QCOMPARE(kv->cacheStart(), model->windowStart(cached->length()));
    }

    void shippedModelsAppendInPlaceWithTheSameBits_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addRow("kjv target") << QStringLiteral("kjv/models/target");
        QTest::addRow("kjv draft-tiny") << QStringLiteral("kjv/models/draft-tiny");
        QTest::addRow("tang-song target") << QStringLiteral("tang-song/models/target");
    }
    void shippedModelsAppendInPlaceWithTheSameBits()
    {
        QFETCH(QString, model);
        PathGuard guard;
        const auto onnx = OnnxLanguageModel::load(std::string(SPECDEC_SOURCE_DIR) + "/corpora/" + model.toStdString() + ".onnx", 1);
        QVERIFY(onnx->hasKvCache());
        QVERIFY2(onnx->cachesInPlace(), "the shipped model does not append in place (Concat(past, new) not fused, or the load probe differed)");
        const int tokens = onnx->contextLength() + onnx->contextLength() / 2 + 3;
        setInstructionSet(InstructionSet::Baseline);
        onnx->setCacheInPlace(false);
        QVERIFY(!onnx->cachesInPlace());
        std::int64_t refills = 0;
        const std::vector<DistributionMatrix> reference = scriptedRun(*onnx, tokens, &refills);
        QVERIFY(refills >= 1);
        onnx->setCacheInPlace(true);
        for (InstructionSet isa : supportedInstructionSets()) {
            setInstructionSet(isa);
            std::int64_t inPlaceRefills = 0;
            const std::vector<DistributionMatrix> rows = scriptedRun(*onnx, tokens, &inPlaceRefills);
            QCOMPARE(inPlaceRefills, refills);
            QCOMPARE(rows.size(), reference.size());
            for (std::size_t r = 0; r < rows.size(); ++r) {
                QCOMPARE(rows[r].rows(), reference[r].rows());
                QVERIFY2(std::memcmp(rows[r].data(), reference[r].data(),
                                     static_cast<std::size_t>(rows[r].size()) * sizeof(double)) == 0,
                         qPrintable(QStringLiteral("%1: call %2 differs from the presents path")
                                        .arg(QString::fromLatin1(instructionSetName(isa).data()))
                                        .arg(r)));
            }
        }
    }

    void aCacheRefusesWhatDoesNotFit()
    {
        const auto onnx = OnnxLanguageModel::load(std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/draft-tiny.onnx", 1);
        QVERIFY(onnx->cachesInPlace());
        KvCache cache = onnx->newCache();
        QCOMPARE(cache.capacity(), static_cast<std::int64_t>(onnx->contextLength()));
        const std::vector<TokenId> ids(static_cast<std::size_t>(onnx->contextLength()), 1);
        const Tensor logits = onnx->runCached(ids, cache);
        QCOMPARE(logits.dim(0), static_cast<std::int64_t>(ids.size()));
        QCOMPARE(cache.length(), static_cast<std::int64_t>(ids.size()));
        auto refused = [](const std::function<void()> &f, const char *needle) {
            try {
                f();
            } catch (const Error &e) {
                return std::string(e.what()).find(needle) != std::string::npos
                       && std::string(e.what()).find('\n') == std::string::npos;
            }
            return false;
        };
        QVERIFY(refused([&] { onnx->runCached(std::vector<TokenId>{1}, cache); }, "context"));
        QCOMPARE(cache.length(), static_cast<std::int64_t>(ids.size())); // unchanged
        QVERIFY(refused([&] { cache.truncate(cache.length() + 1); }, "cannot cut"));
        cache.truncate(3);
        QCOMPARE(cache.length(), std::int64_t(3));
        // The graph itself refuses a cache of another graph.
        const auto target = OnnxLanguageModel::load(std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/target.onnx", 1);
        KvCache other = target->newCache();
        QVERIFY(refused([&] { onnx->runCached(std::vector<TokenId>{1}, other); }, "cache"));
    }

    void aGraphWithoutThePatternKeepsThePresents()
    {
        // The held-out GPT-2 export's attention does not take the pattern the fusion appends in place
        // (GraphFusion.h): its state keeps the presents, and the parity tests above cover it.
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        QVERIFY(model->hasKvCache());
        QVERIFY(!model->cachesInPlace());
    }

    void brokenLayoutsAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::addRow("present without the past") << QStringLiteral("gpt2_bad_present.onnx")
                                                  << QStringLiteral("past + seq positions");
        QTest::addRow("attention ignores the past") << QStringLiteral("gpt2_bad_ignores_past.onnx")
                                                    << QStringLiteral("cached and uncached logits differ");
    }
    void brokenLayoutsAreRefused()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        try {
            OnnxLanguageModel::load(kDir + file.toStdString(), 1);
            QFAIL("the broken model loaded");
        } catch (const Error &e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(message), qPrintable(what));
            QVERIFY2(!what.contains(QLatin1Char('\n')), qPrintable(what));
        }
    }
};

QTEST_APPLESS_MAIN(TestOnnxKvCache)
#include "test_onnx_kv_cache.moc"
