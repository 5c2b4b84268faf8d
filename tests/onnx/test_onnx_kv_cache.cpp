// SPDX-License-Identifier: GPL-3.0-or-later
// ONNX models in the decoder-with-past layout: a held-out GPT-2-style model exported by PyTorch (not one of
// ours; tests/data/onnx/make_gpt2_with_past.py) matches PyTorch's distributions cached and uncached; the KV
// state rolls back; broken layouts are refused at load with a one-line error. The shipped models and the held-out
// GPT-2 append their cache in place (nn::KvCache), with the same bits as the presents path on every instruction-set
// path, through rollbacks, multi-row extensions and refills past the context; a graph whose attention reads a copy
// of the Concat keeps the presents. Weights stored as float16 (a Cast to float of
// each initializer, as target-large.onnx has them) are widened exactly, once, at load.
#include "DecodingState.h"
#include "Error.h"
#include "onnx/InstructionSet.h"
#include "onnx/KvCache.h"
#include "onnx/ModelMemory.h"
#include "onnx/OnnxGraph.h"
#include "onnx/OnnxKvState.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/onnx_pb.h>

#include <QTemporaryDir>
#include <QtTest>

#include <bit>

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

/// The tensor memory one key/value cache of `model` (in place) holds.
std::size_t cacheBytesOf(const OnnxLanguageModel &model)
{
    const std::size_t before = tensorMemoryInUse();
    const nn::KvCache probe = model.newCache();
    return tensorMemoryInUse() - before;
}

/// Every distribution of a scripted run of a KV state: 1-token steps, K + 1 = 5 rows, rollbacks, rows that
/// reach back into the cache, and enough tokens to pass the context (refills).
std::vector<DistributionMatrix> scriptedRun(LanguageModel &model, int tokens, std::int64_t *refills)
{
    const auto state = model.newState(true);
    const std::int64_t V = model.tokenizer().size();
    std::vector<TokenId> ids{1, 2};
    std::vector<DistributionMatrix> rows;
    DistributionMatrix out;
    state->extend(ids, 2, out);
    rows.push_back(out);
    for (int step = 0; static_cast<int>(ids.size()) < tokens; ++step) {
        const int k = step % 3 == 0 ? 5 : 1;
        std::vector<TokenId> fresh;
        for (int i = 0; i < k; ++i)
            fresh.push_back(
                static_cast<TokenId>((ids.size() * 7 + static_cast<std::size_t>(i) * 3) % static_cast<std::size_t>(V)));
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

/// `model` with every float32 initializer of more than one element stored as float16 (rounded to nearest even
/// by the compiler's _Float16) and read by a Cast to float, as export_with_past.py --float16 writes it; with
/// `rounded`, the same float32 model with its initializers replaced by the rounded values instead.
onnx::ModelProto withFloat16Weights(const onnx::ModelProto &model, bool rounded, int *converted)
{
    onnx::ModelProto out = model;
    auto *graph = out.mutable_graph();
    std::vector<onnx::NodeProto> casts;
    *converted = 0;
    for (auto &init : *graph->mutable_initializer()) {
        const Tensor t = tensorFromProto(init, init.name());
        if (t.type() != DataType::Float32 || t.size() <= 1)
            continue;
        std::string half(static_cast<std::size_t>(t.size()) * 2, '\0');
        Tensor widened(DataType::Float32, t.shape());
        for (std::int64_t i = 0; i < t.size(); ++i) {
            const auto h = static_cast<_Float16>(t.data<float>()[i]);
            const auto bits = std::bit_cast<std::uint16_t>(h);
            half[static_cast<std::size_t>(2 * i)] = static_cast<char>(bits & 0xff);
            half[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>(bits >> 8);
            widened.mutableData<float>()[i] = static_cast<float>(h);
        }
        ++*converted;
        if (rounded) {
            const std::string name = init.name();
            tensorToProto(widened, name, init);
            continue;
        }
        onnx::NodeProto cast;
        cast.set_op_type("Cast");
        cast.add_input(init.name() + "_fp16");
        cast.add_output(init.name());
        auto *to = cast.add_attribute();
        to->set_name("to");
        to->set_type(onnx::AttributeProto::INT);
        to->set_i(onnx::TensorProto::FLOAT);
        casts.push_back(cast);
        init.set_name(init.name() + "_fp16");
        init.set_data_type(onnx::TensorProto::FLOAT16);
        init.set_raw_data(half);
    }
    if (!rounded) {
        std::vector<onnx::NodeProto> nodes(graph->node().begin(), graph->node().end());
        graph->clear_node();
        for (const auto &n : casts)
            *graph->add_node() = n;
        for (const auto &n : nodes)
            *graph->add_node() = n;
    }
    return out;
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
            t = (t + 1) % model->tokenizer().size();
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

    void aRollbackIntoTheWindowLeftTakesItsSpare()
    {
        // Context 48, stride 12: prefixes of 49-60 tokens use the window from 12, 61-72 the one from 24. A
        // verification straddles the boundary, is rolled back before it, and the next one straddles it again:
        // the window left stays as a spare, so the boundary costs one refill (three when each move refilled).
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        std::vector<TokenId> ids = referenceTokens();
        for (int i = 0; ids.size() < 72; ++i)
            ids.push_back(ids[static_cast<std::size_t>(i)]);
        const std::span<const TokenId> all(ids);
        for (const bool inPlace : {true, false}) {
            model->setCacheInPlace(inPlace);
            const auto cached = model->newState(true);
            const auto uncached = model->newState(false);
            DistributionMatrix a, b;
            double worst = 0.0;
            auto both = [&](std::span<const TokenId> fresh, int m) {
                cached->extend(fresh, m, a);
                uncached->extend(fresh, m, b);
                worst = std::max(worst, (a - b).cwiseAbs().maxCoeff());
            };
            both(all.first(59), 1);
            QCOMPARE(cached->stats().refills, std::int64_t(0)); // one window from 12: fed from its start
            both(all.subspan(59, 5), 6);                        // rows of 59..64 tokens: windows from 12 and from 24
            QCOMPARE(cached->stats().refills, std::int64_t(1));
            for (const auto &state : {cached.get(), uncached.get()})
                state->truncate(60);
            both(all.subspan(60, 5), 6); // rows of 60..65 tokens: the spare (12), then the window from 24 again
            QCOMPARE(cached->stats().refills, std::int64_t(1));
            both(all.subspan(65, 7), 3);
            QCOMPARE(cached->stats().refills, std::int64_t(1));
            QVERIFY2(worst <= 1e-5, qPrintable(QStringLiteral("max |diff| %1").arg(worst)));
            const auto *kv = dynamic_cast<const OnnxKvState *>(cached.get());
            QVERIFY(kv);
            QCOMPARE(kv->cacheStart(), std::int64_t(24));
            QCOMPARE(cached->cachedLength(), 72 - 24);
        }
        // One row a call (autoregressive decoding) never straddles a boundary: no second cache is made, each window
        // change refills (from 12 at 49 tokens, from 24 at 61).
        model->setCacheInPlace(true);
        const auto steps = model->newState(true);
        DistributionMatrix row;
        steps->extend(all.first(1), 1, row);
        const std::size_t held = tensorMemoryInUse();
        for (std::size_t i = 1; i < 64; ++i)
            steps->extend(all.subspan(i, 1), 1, row);
        QCOMPARE(steps->stats().refills, std::int64_t(2));
        const std::size_t cacheBytes = cacheBytesOf(*model);
        QVERIFY2(tensorMemoryInUse() < held + cacheBytes / 2, // (a few hundred bytes of shapes the graph memoises)
                 qPrintable(QStringLiteral("%1 -> %2 bytes").arg(held).arg(tensorMemoryInUse())));
    }

    void withoutRoomForASpareTheWindowLeftIsDropped()
    {
        // Where the memory limit has no room for a second cache, the window left is dropped and refilled when
        // wanted again (three refills where the spare makes one), with the same distributions. The kjv target
        // (context 128, stride 32): its cache is larger than a refill's tensors, so a limit can admit the one and
        // not the other.
        const auto model = OnnxLanguageModel::load(SPECDEC_SOURCE_DIR "/corpora/kjv/models/target.onnx", 1);
        QVERIFY(model->cachesInPlace());
        std::vector<TokenId> ids;
        for (int i = 0; i < 170; ++i)
            ids.push_back(static_cast<TokenId>((i * 7 + 3) % model->tokenizer().size()));
        const std::span<const TokenId> all(ids);
        const std::size_t cacheBytes = cacheBytesOf(*model);
        QVERIFY(cacheBytes > 0);
        const std::size_t limit = tensorMemoryLimit();
        const auto cached = model->newState(true);
        std::vector<DistributionMatrix> rows(3);
        cached->extend(all.first(159), 1, rows[0]);                 // prefixes of 129-160 tokens: the window from 32
        setTensorMemoryLimit(tensorMemoryInUse() + cacheBytes - 1); // a call's tensors fit, a second cache does not
        try {
            cached->extend(all.subspan(159, 5), 6, rows[1]); // rows of 159..164: windows from 32 and from 64
            cached->truncate(160);
            cached->extend(all.subspan(160, 5), 6, rows[2]); // 160..165: the window from 32 again, then from 64
        } catch (...) {
            setTensorMemoryLimit(limit);
            throw;
        }
        setTensorMemoryLimit(limit);
        QCOMPARE(cached->stats().refills, std::int64_t(3));
        const auto uncached = model->newState(false);
        DistributionMatrix b;
        uncached->extend(all.first(159), 1, b);
        QVERIFY((rows[0] - b).cwiseAbs().maxCoeff() <= 1e-5);
        uncached->extend(all.subspan(159, 5), 6, b);
        QVERIFY((rows[1] - b).cwiseAbs().maxCoeff() <= 1e-5);
        uncached->truncate(160);
        uncached->extend(all.subspan(160, 5), 6, b);
        QVERIFY((rows[2] - b).cwiseAbs().maxCoeff() <= 1e-5);
        // With room, the same calls refill once.
        const auto spared = model->newState(true);
        spared->extend(all.first(159), 1, b);
        spared->extend(all.subspan(159, 5), 6, b);
        spared->truncate(160);
        spared->extend(all.subspan(160, 5), 6, b);
        QCOMPARE(spared->stats().refills, std::int64_t(1));
    }

    void shippedModelsAppendInPlaceWithTheSameBits_data()
    {
        QTest::addColumn<QString>("model");
        const QString corpora = QStringLiteral(SPECDEC_SOURCE_DIR "/corpora/");
        QTest::addRow("kjv target") << corpora + QStringLiteral("kjv/models/target.onnx");
        QTest::addRow("kjv draft-tiny") << corpora + QStringLiteral("kjv/models/draft-tiny.onnx");
        QTest::addRow("tang-song target") << corpora + QStringLiteral("tang-song/models/target.onnx");
        // The held-out GPT-2 export: its attention divides by a scale computed from the shapes and masks with
        // Where(causal, scores, min) + the padding (GraphFusion.h), its presents are read by Shape nodes.
        QTest::addRow("held-out gpt2") << QString::fromStdString(kDir + "gpt2_with_past.onnx");
    }
    void shippedModelsAppendInPlaceWithTheSameBits()
    {
        QFETCH(QString, model);
        PathGuard guard;
        const auto onnx = OnnxLanguageModel::load(model.toStdString(), 1);
        QVERIFY(onnx->hasKvCache());
        QVERIFY2(onnx->cachesInPlace(),
                 "the model does not append in place (Concat(past, new) not fused, or the load probe differed)");
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
                                     static_cast<std::size_t>(rows[r].size()) * sizeof(double))
                             == 0,
                         qPrintable(QStringLiteral("%1: call %2 differs from the presents path")
                                        .arg(QString::fromLatin1(instructionSetName(isa).data()))
                                        .arg(r)));
            }
        }
    }

    void aCacheRefusesWhatDoesNotFit()
    {
        const auto onnx = OnnxLanguageModel::load(
            std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/draft-tiny.onnx", 1);
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
        const auto target = OnnxLanguageModel::load(std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/target.onnx",
                                                    1);
        KvCache other = target->newCache();
        QVERIFY(refused([&] { onnx->runCached(std::vector<TokenId>{1}, other); }, "cache"));
    }

    void aGraphWithoutThePatternKeepsThePresents()
    {
        // The held-out GPT-2 export with an Identity between the first layer's Concat(past_k, new_k) and the
        // attention (which then reads a copy, not the Concat): that pair cannot be appended in place
        // (GraphFusion.h), so the state keeps the presents, with the same distributions.
        onnx::ModelProto proto;
        QVERIFY(proto.ParseFromString(readWholeFile(kDir + "gpt2_with_past.onnx")));
        auto *nodes = proto.mutable_graph()->mutable_node();
        int concat = 0;
        while (concat < nodes->size()
               && !((*nodes)[concat].op_type() == "Concat" && (*nodes)[concat].input(0) == "past_key_values.0.key"))
            ++concat;
        QVERIFY(concat < nodes->size());
        const std::string keys = (*nodes)[concat].output(0);
        for (auto &n : *nodes)
            for (auto &in : *n.mutable_input())
                if (in == keys && n.op_type() != "Shape")
                    in = keys + "_copy";
        onnx::NodeProto copy;
        copy.set_op_type("Identity");
        copy.set_name("copy_of_keys");
        copy.add_input(keys);
        copy.add_output(keys + "_copy");
        nodes->Add(std::move(copy));
        std::rotate(nodes->begin() + concat + 1, nodes->end() - 1, nodes->end()); // right after the Concat
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("gpt2_copy.onnx")).toStdString();
        writeFileAtomically(path, proto.SerializeAsString());
        const auto model = OnnxLanguageModel::load(path, 1);
        QVERIFY(model->hasKvCache());
        for (const OnnxGraph::CachePair &p : model->graph().cachePairs())
            QVERIFY(p.pastKey != "past_key_values.0.key");
        QVERIFY(!model->cachesInPlace());
        const auto original = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        QVERIFY(original->cachesInPlace());
        const std::vector<TokenId> ids = referenceTokens();
        DistributionMatrix a, b;
        model->newState(true)->extend(ids, static_cast<int>(ids.size()), a);
        original->newState(true)->extend(ids, static_cast<int>(ids.size()), b);
        QVERIFY((a - b).cwiseAbs().maxCoeff() <= 1e-6);
    }

    void branchesAfterTheCacheEqualWholeSequences_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("inPlace");
        QTest::addColumn<bool>("batch");
        QTest::addColumn<int>("prefix");
        QTest::addColumn<int>("calls");
        const QString gpt2 = QString::fromStdString(kDir + "gpt2_with_past.onnx");
        const QString kjv = QStringLiteral(SPECDEC_SOURCE_DIR "/corpora/kjv/models/target.onnx");
        // The held-out GPT-2 (context 48, stride 12; the presents are its cache): one call; where the rows fall
        // in two windows (45: prefixes 45..48 start at 0, 49 at 12; 70: 70..72 at 24, 73..74 at 36) the second
        // window is refilled in a one-row run first: two more graph runs, counted.
        for (bool batch : {false, true})
            for (auto [prefix, calls] : {std::pair{9, 1}, std::pair{45, 3}, std::pair{70, 3}})
                QTest::addRow("gpt2, %s, prefix %d", batch ? "one [B, S] run" : "row by row", prefix)
                    << gpt2 << false << batch << prefix << calls;
        // The kjv target (context 128, stride 32) with its cache in place, and on its presents for comparison.
        for (bool inPlace : {true, false})
            for (auto [prefix, calls] : {std::pair{9, 1}, std::pair{126, 3}, std::pair{200, 1}})
                QTest::addRow("kjv target, %s, prefix %d", inPlace ? "in place" : "presents", prefix)
                    << kjv << inPlace << false << prefix << calls;
    }
    void branchesAfterTheCacheEqualWholeSequences()
    {
        // A token tree's rows: three branches of 4 tokens after the committed prefix's cache, each row the
        // distributions the windowed path gives for prefix + branch; then the next depth continues the rows,
        // and keeping one branch leaves a state that extends like a fresh one.
        QFETCH(QString, file);
        QFETCH(bool, inPlace);
        QFETCH(bool, batch);
        QFETCH(int, prefix);
        QFETCH(int, calls);
        const auto model = OnnxLanguageModel::load(file.toStdString(), 1);
        model->setBatchWindows(batch);
        model->setCacheInPlace(inPlace);
        QCOMPARE(model->batchWindows(), batch && model->canBatchWindows());
        QCOMPARE(model->cachesInPlace(), inPlace);
        const int V = model->tokenizer().size();
        std::vector<TokenId> ids = referenceTokens();
        for (TokenId &t : ids)
            t %= V;
        const std::size_t given = ids.size();
        while (ids.size() < 220)
            ids.push_back(ids[ids.size() % given]);
        const std::span<const TokenId> all(ids);
        std::vector<std::vector<TokenId>> branches(3);
        for (int b = 0; b < 3; ++b)
            for (int i = 0; i < 4; ++i)
                branches[static_cast<std::size_t>(b)].push_back(static_cast<TokenId>((7 * b + 3 * i + 1) % V));
        const auto state = model->newState(true);
        const auto plain = model->newState(false);
        DistributionMatrix rows, expected;
        state->extend(all.first(static_cast<std::size_t>(prefix - 1)), 1, rows);
        std::vector<DistributionMatrix> out;
        const CallStats before = model->stats();
        state->extendBranches(all.subspan(static_cast<std::size_t>(prefix - 1), 1), branches, 5, out);
        QCOMPARE(model->stats().calls - before.calls, std::int64_t(calls));
        QCOMPARE(state->stats().refills, std::int64_t(calls == 1 ? 0 : 1));
        QCOMPARE(state->length(), prefix);
        QCOMPARE(state->branchRows(), 3);
        auto wholeRows = [&](const std::vector<TokenId> &branch, int m) {
            std::vector<TokenId> whole(all.begin(), all.begin() + prefix);
            whole.insert(whole.end(), branch.begin(), branch.end());
            model->distributions(whole, m, expected);
            return expected;
        };
        for (std::size_t b = 0; b < 3; ++b)
            QVERIFY2((out[b] - wholeRows(branches[b], 5)).cwiseAbs().maxCoeff() <= 1e-5, qPrintable(QString::number(b)));
        // The next depth: each new branch continues a row (rows 2, 0, 2) by one token.
        std::vector<std::vector<TokenId>> deeper{branches[2], branches[0], branches[2]};
        deeper[0].push_back(5);
        deeper[1].push_back(6);
        deeper[2].push_back(7);
        const std::int64_t fed = state->stats().fed;
        state->extendBranches({}, deeper, 1, out);
        QCOMPARE(state->stats().fed - fed, std::int64_t(3)); // one new token per row, after its parent row
        for (std::size_t b = 0; b < 3; ++b)
            QVERIFY((out[b] - wholeRows(deeper[b], 1)).cwiseAbs().maxCoeff() <= 1e-5);
        const std::int64_t discardedBefore = state->stats().discarded;
        QCOMPARE(state->keepBranch(1, 2), 3 * 5 - 2);
        QCOMPARE(state->stats().discarded - discardedBefore, std::int64_t(13));
        QCOMPARE(state->length(), prefix + 2);
        QCOMPARE(state->branchRows(), 0);
        // The kept state extends as a fresh one does.
        std::vector<TokenId> next(deeper[1].begin(), deeper[1].begin() + 2);
        next.insert(next.end(), all.begin() + prefix, all.begin() + prefix + 6);
        state->extend(std::span<const TokenId>(next).subspan(2), 4, rows);
        std::vector<TokenId> whole(all.begin(), all.begin() + prefix);
        whole.insert(whole.end(), next.begin(), next.end());
        plain->extend(whole, 4, expected);
        QVERIFY((rows - expected).cwiseAbs().maxCoeff() <= 1e-5);
        QCOMPARE(state->length(), prefix + 8);
        // An extension in between discards the branch rows.
        state->extendBranches(all.subspan(static_cast<std::size_t>(prefix + 8), 1), branches, 1, out);
        const std::int64_t discarded = state->stats().discarded;
        state->extend(all.subspan(static_cast<std::size_t>(prefix + 9), 1), 1, rows);
        QCOMPARE(state->stats().discarded - discarded, std::int64_t(12));
    }

    void badBranchesAreErrors()
    {
        const auto model = OnnxLanguageModel::load(kDir + "gpt2_with_past.onnx", 1);
        const auto state = model->newState(true);
        DistributionMatrix rows;
        const std::vector<TokenId> ids = referenceTokens();
        state->extend(std::span<const TokenId>(ids).first(5), 1, rows);
        std::vector<DistributionMatrix> out;
        const std::vector<TokenId> shared{ids[5]};
        const std::vector<std::vector<TokenId>> uneven{{1, 2}, {3}};
        QVERIFY_THROWS_EXCEPTION(Error, state->extendBranches(shared, uneven, 1, out));
        const std::vector<std::vector<TokenId>> two{{1, 2}, {3, 4}};
        QVERIFY_THROWS_EXCEPTION(Error, state->extendBranches(shared, two, 4, out)); // at most 2 + 1 rows
        QVERIFY_THROWS_EXCEPTION(Error, state->extendBranches(shared, std::vector<std::vector<TokenId>>{}, 1, out));
        const std::vector<std::vector<TokenId>> bad{{1, model->tokenizer().size()}};
        QVERIFY_THROWS_EXCEPTION(Error, state->extendBranches(shared, bad, 1, out));
        QCOMPARE(state->length(), 5);
        QVERIFY_THROWS_EXCEPTION(Error, state->keepBranch(0, 1)); // no branches kept
        state->extendBranches(shared, two, 3, out);
        QVERIFY_THROWS_EXCEPTION(Error, state->keepBranch(2, 1));
        QVERIFY_THROWS_EXCEPTION(Error, state->keepBranch(0, 3));
        QCOMPARE(state->keepBranch(0, 2), 2);
        QCOMPARE(state->length(), 8);
        // A prompt-less model run is refused, not a crash.
        const auto empty = model->newState(true);
        QVERIFY_THROWS_EXCEPTION(Error, empty->extendBranches({}, two, 3, out));
        QCOMPARE(empty->length(), 0);
    }

    void halfToFloatIsExact()
    {
        // Every one of the 65536 float16 values (normals, subnormals, +-0, +-inf, NaNs with their payloads,
        // quieted) against the compiler's own widening of _Float16, bit for bit.
        int checked = 0;
        for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
            const float got = halfToFloat(static_cast<std::uint16_t>(bits));
            const float want = static_cast<float>(std::bit_cast<_Float16>(static_cast<std::uint16_t>(bits)));
            if (std::isnan(want)) {
                QVERIFY(std::isnan(got));
                QCOMPARE(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want));
            } else if (std::bit_cast<std::uint32_t>(got) != std::bit_cast<std::uint32_t>(want)) {
                QFAIL(qPrintable(
                    QStringLiteral("half 0x%1: %2, expected %3").arg(bits, 4, 16, QLatin1Char('0')).arg(got).arg(want)));
            }
            ++checked;
        }
        QCOMPARE(checked, 65536);
        QCOMPARE(halfToFloat(0x0001), std::ldexp(1.0f, -24)); // the smallest subnormal
        QCOMPARE(halfToFloat(0x7bff), 65504.0f);              // the largest finite half
    }

    void float16WeightsAreWidenedOnceAtLoad()
    {
        // A model whose weights are float16 initializers read by Cast(to=float) computes exactly (the same bits)
        // what the float32 model with the rounded weights computes, and keeps no Cast node to run: each Cast of
        // an initializer is folded into a float32 constant at load.
        onnx::ModelProto model;
        QVERIFY(model.ParseFromString(readWholeFile(kDir + "tiny_transformer.onnx")));
        int converted = 0, convertedRounded = 0;
        const onnx::ModelProto half = withFloat16Weights(model, false, &converted);
        const onnx::ModelProto rounded = withFloat16Weights(model, true, &convertedRounded);
        QVERIFY(converted >= 10);
        QCOMPARE(convertedRounded, converted);
        OnnxGraph halfGraph = OnnxGraph::fromBytes(half.SerializeAsString(), "half");
        OnnxGraph roundedGraph = OnnxGraph::fromBytes(rounded.SerializeAsString(), "rounded");
        OnnxGraph originalGraph = OnnxGraph::fromBytes(model.SerializeAsString(), "original");
        QCOMPARE(halfGraph.operatorCounts()["Cast"], roundedGraph.operatorCounts()["Cast"] + converted);
        QCOMPARE(halfGraph.nodeCount(), roundedGraph.nodeCount()); // no Cast left to run per call
        const Tensor tokens = Tensor::fromVector<std::int64_t>({1, 6}, {4, 5, 1, 8, 9, 2});
        const Tensor a = halfGraph.run({tokens})[0], b = roundedGraph.run({tokens})[0],
                     c = originalGraph.run({tokens})[0];
        QCOMPARE(a.shape(), b.shape());
        QVERIFY(std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0);
        QVERIFY(std::memcmp(a.bytes(), c.bytes(), a.byteSize()) != 0); // the rounding is real, so the test can fail
        // A float16 initializer read by anything but a Cast to float is refused at load, naming it.
        onnx::ModelProto bad = half;
        bad.mutable_graph()->mutable_node(0)->mutable_attribute(0)->set_i(onnx::TensorProto::DOUBLE);
        try {
            OnnxGraph::fromBytes(bad.SerializeAsString(), "bad");
            QFAIL("a float16 initializer read by a Cast to double loaded");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("float16")), e.what());
        }
    }

    void aContextBeyondThePositionsFailsAtLoad()
    {
        // The context probe of a model with a cache runs the last position after a past of context - 1: kjv
        // draft-tiny (32 positions) declared with a context of 33 fails at load, with 32 it loads.
        onnx::ModelProto model;
        QVERIFY(model.ParseFromString(
            readWholeFile(std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/draft-tiny.onnx")));
        QTemporaryDir dir;
        for (const char *context : {"32", "33"}) {
            for (auto &p : *model.mutable_metadata_props())
                if (p.key() == "specdec.context_length")
                    p.set_value(context);
            const std::string path = dir.filePath(QStringLiteral("draft-tiny.onnx")).toStdString();
            writeFileAtomically(path, model.SerializeAsString());
            std::string message;
            try {
                OnnxLanguageModel::load(path, 1);
            } catch (const Error &e) {
                message = e.what();
            }
            if (std::string(context) == "32")
                QVERIFY2(message.empty(), message.c_str());
            else
                QVERIFY2(message.find("'specdec.context_length' is 33 but a window of that many tokens fails")
                             != std::string::npos,
                         message.c_str());
        }
    }

    void brokenLayoutsAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::addRow("present without the past")
            << QStringLiteral("gpt2_bad_present.onnx") << QStringLiteral("past + seq positions");
        QTest::addRow("attention ignores the past")
            << QStringLiteral("gpt2_bad_ignores_past.onnx") << QStringLiteral("cached and uncached logits differ");
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
