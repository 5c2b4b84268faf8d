// SPDX-License-Identifier: GPL-3.0-or-later
// The executor gives the same bits on every instruction-set path it dispatches to (baseline, AVX2,
// AVX-512 where the CPU has them) and for any thread count: the matrix product against the plain
// ascending-k sum (exactly), the shipped models (kjv target-large, ~100 MB of weights, when it is there) at
// several lengths, cached steps (1, 5 and 8 new rows) and batches (all
// outputs, bit for bit, which also covers the fused products, GELU and attention), Hugging Face test folders (the
// attention's Div scale, Where mask and grouped-query heads; cached steps in place too), and the MatMul, Gemm and
// Softmax cases of the official conformance data. The fusion pass is checked to have fused the shipped models, packing
// each weight matrix once.
#include "onnx/Gemm.h"
#include "onnx/InstructionSet.h"
#include "onnx/OnnxGraph.h"
#include "onnx/TensorProtoIo.h"
#include "onnx/ThreadPool.h"

#include <QtTest>

#include <onnx/onnx_pb.h>

#include <map>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>

using namespace specdec;
using namespace specdec::nn;
namespace fs = std::filesystem;

namespace {

bool bitIdentical(const Tensor &a, const Tensor &b)
{
    return a.type() == b.type() && a.shape() == b.shape() && std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

QString isaName(InstructionSet isa)
{
    return QString::fromLatin1(instructionSetName(isa).data(), static_cast<qsizetype>(instructionSetName(isa).size()));
}

/// Restores the path in use when a test ends.
struct PathGuard
{
    InstructionSet saved = activeInstructionSet();
    ~PathGuard() { setInstructionSet(saved); }
};

std::vector<fs::path> sortedEntries(const fs::path &dir, const std::string &prefix)
{
    std::vector<fs::path> found;
    for (const auto &entry : fs::directory_iterator(dir))
        if (entry.path().filename().string().rfind(prefix, 0) == 0)
            found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found;
}

/// The reference product, C[i, j] = s_k with s_0 = 0, s_{q+1} = fma(a_iq, b_qj, s_q): A m x k, B k x n, row-major.
std::vector<float> fusedProduct(const std::vector<float> &a, const std::vector<float> &b, int m, int k, int n)
{
    std::vector<float> c(static_cast<std::size_t>(m * n));
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (int q = 0; q < k; ++q)
                acc = std::fma(a[static_cast<std::size_t>(i * k + q)], b[static_cast<std::size_t>(q * n + j)], acc);
            c[static_cast<std::size_t>(i * n + j)] = acc;
        }
    return c;
}

} // namespace

class TestOnnxPaths : public QObject
{
    Q_OBJECT
private slots:
    void listsThePaths()
    {
        const auto all = supportedInstructionSets();
        QVERIFY(!all.empty());
        QCOMPARE(all.front(), InstructionSet::Baseline);
        qInfo("paths on this CPU: %s", qPrintable([&] {
                  QStringList names;
                  for (InstructionSet isa : all)
                      names << isaName(isa);
                  return names.join(QStringLiteral(", "));
              }()));
    }

    // Every path equals the plain sum s_0 = 0, s_{q+1} = fma(a_iq, b_qj, s_q), C[i,j] = s_k + bias_j (+ r_ij), one
    // rounding per fused multiply-add, bit for bit (a kernel that rounds the product apart, or sums along k in
    // vectors, fails this).
    void productIsTheAscendingSum()
    {
        PathGuard guard;
        std::mt19937 rng(7);
        std::normal_distribution<float> normal;
        ThreadPool one(1), three(3);
        const int shapes[][3] = {{1, 160, 480},
                                 {2, 64, 200},
                                 {5, 160, 480},
                                 {7, 33, 37},
                                 {16, 640, 160},
                                 {13, 1, 17},
                                 {9, 40, 100},
                                 {24, 30, 50},
                                 {33, 20, 70},
                                 {128, 64, 63},
                                 {3, 5, 2841},
                                 {1, 7, 2841},
                                 {1, 9, 40},
                                 {2, 3, 50},
                                 {4, 11, 60},
                                 // the products of a memory-bound model's cached steps (d 512: qkv, fc2, fc1 at
                                 // K + 1 = 5 .. 8 rows): tiles that take turns over chunks of k, a k that is not a
                                 // multiple of the chunk, and a window's 25 rows
                                 {5, 512, 1536},
                                 {7, 2048, 96},
                                 {8, 512, 2048},
                                 {6, 300, 200},
                                 {8, 1000, 40},
                                 {3, 2048, 64},
                                 {25, 640, 50}};
        for (const auto &s : shapes) {
            const int m = s[0], k = s[1], n = s[2];
            std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
                bias(static_cast<std::size_t>(n));
            for (float &x : a)
                x = normal(rng);
            for (float &x : b)
                x = normal(rng);
            for (float &x : bias)
                x = normal(rng);
            std::vector<float> residual(static_cast<std::size_t>(m * n));
            for (float &x : residual)
                x = normal(rng);
            std::vector<float> expected = fusedProduct(a, b, m, k, n), withResidual(expected.size());
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    const auto at = static_cast<std::size_t>(i * n + j);
                    expected[at] = expected[at] + bias[static_cast<std::size_t>(j)];
                    withResidual[at] = expected[at] + residual[at];
                }
            const PackedMatrix packed(b.data(), k, n, n, 1);
            for (InstructionSet isa : supportedInstructionSets())
                for (ThreadPool *pool : {&one, &three}) {
                    setInstructionSet(isa);
                    std::vector<float> c(static_cast<std::size_t>(m * n), -1.0f);
                    gemmPacked(a.data(), k, packed, bias.data(), c.data(), n, m, *pool);
                    const QString where = QStringLiteral("%1 x %2 x %3 on %4, %5 threads")
                                              .arg(m)
                                              .arg(k)
                                              .arg(n)
                                              .arg(isaName(isa))
                                              .arg(pool->threads());
                    QVERIFY2(std::memcmp(c.data(), expected.data(), c.size() * sizeof(float)) == 0, qPrintable(where));
                    gemmPacked(a.data(), k, packed, bias.data(), c.data(), n, m, *pool, GemmEpilogue::None,
                               residual.data(), n);
                    QVERIFY2(std::memcmp(c.data(), withResidual.data(), c.size() * sizeof(float)) == 0,
                             qPrintable(where + QStringLiteral(", with a residual")));
                }
        }
    }

    // Each step of a sum rounds once: s + a·b where rounding a·b first, or rounding the exact sum to double and
    // then to float, gives another float. Row 0, column 0: s = 1 + 2^-23, then a·b = 2^-24 - 2^-70; the exact sum
    // lies just below the midpoint 1 + 2^-23 + 2^-24, so one rounding gives 1 + 2^-23, and mul then add (a·b
    // rounds to 2^-24) or a double sum (it rounds to the midpoint) gives 1 + 2^-22. Row 2, column 1, the same at
    // subnormal size: s = 513 · 2^-149, then a·b = 2^-150 - 2^-196 (the double sum lands on a subnormal midpoint,
    // which no mantissa pattern shows). Other columns random; all against std::fma in ascending k.
    void eachStepRoundsOnce()
    {
        PathGuard guard;
        ThreadPool one(1);
        const int k = 3, n = 40, m = 3;
        std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
        std::mt19937 rng(11);
        std::normal_distribution<float> normal;
        for (float &x : a)
            x = normal(rng);
        for (float &x : b)
            x = normal(rng);
        const float up = 1.0f + std::ldexp(1.0f, -23), down = 1.0f - std::ldexp(1.0f, -23);
        a[0] = up; // row 0: 1 · (1 + 2^-23), then (2^-12 (1 + 2^-23)) (2^-12 (1 - 2^-23)), then 0
        a[1] = std::ldexp(up, -12);
        a[2] = 0.0f;
        b[0 * n] = 1.0f;
        b[1 * n] = std::ldexp(down, -12);
        a[6] = 1.0f; // row 2: 1 · 513 · 2^-149, then (2^-75 (1 + 2^-23)) (2^-75 (1 - 2^-23)), then 0
        a[7] = std::ldexp(up, -75);
        a[8] = 0.0f;
        const float tiny = std::ldexp(513.0f, -149);
        b[0 * n + 1] = tiny;
        b[1 * n + 1] = std::ldexp(down, -75);
        QCOMPARE(std::fma(a[1], b[static_cast<std::size_t>(n)], std::fma(a[0], b[0], 0.0f)), up);
        QVERIFY(a[0] * b[0] + a[1] * b[static_cast<std::size_t>(n)] != up); // mul then add misses it
        QCOMPARE(std::fma(a[7], b[static_cast<std::size_t>(n + 1)], tiny), tiny);
        QVERIFY(static_cast<float>(static_cast<double>(a[7]) * b[static_cast<std::size_t>(n + 1)] + tiny) != tiny);
        const std::vector<float> expected = fusedProduct(a, b, m, k, n);
        const PackedMatrix packed(b.data(), k, n, n, 1);
        for (InstructionSet isa : supportedInstructionSets()) {
            setInstructionSet(isa);
            for (int rows = 1; rows <= m; ++rows) {
                std::vector<float> c(static_cast<std::size_t>(rows * n), -1.0f);
                gemmPacked(a.data(), k, packed, nullptr, c.data(), n, rows, one);
                QVERIFY2(c[0] == up, qPrintable(isaName(isa)));
                QVERIFY2(rows < 3 || c[static_cast<std::size_t>(2 * n + 1)] == tiny, qPrintable(isaName(isa)));
                QVERIFY2(std::memcmp(c.data(), expected.data(), c.size() * sizeof(float)) == 0,
                         qPrintable(QStringLiteral("%1, %2 rows").arg(isaName(isa)).arg(rows)));
            }
        }
    }

    /// The inputs of a model for `tokens` [B, T]: the decoder-with-past layout gets past tensors of `past`
    /// positions (normal values from `rng`; none when past is 0), a Hugging Face export its attention_mask (ones
    /// over past + T) and position_ids (past .. past + T - 1).
    static std::map<std::string, Tensor> feedOf(const OnnxGraph &graph, const Tensor &tokens, std::int64_t past = 0,
                                                std::mt19937 *rng = nullptr)
    {
        std::map<std::string, Tensor> feed;
        std::normal_distribution<float> normal;
        const std::int64_t B = tokens.dim(0), T = tokens.dim(1);
        for (const ValueInfo &in : graph.inputs()) {
            if (in.name == "attention_mask") {
                feed[in.name] = Tensor::fromVector<std::int64_t>(
                    {B, past + T}, std::vector<std::int64_t>(static_cast<std::size_t>(B * (past + T)), 1));
                continue;
            }
            if (in.name == "position_ids") {
                std::vector<std::int64_t> positions(static_cast<std::size_t>(B * T));
                for (std::int64_t i = 0; i < B * T; ++i)
                    positions[static_cast<std::size_t>(i)] = past + i % T;
                feed[in.name] = Tensor::fromVector<std::int64_t>({B, T}, positions);
                continue;
            }
            if (in.name.rfind("past_key_values.", 0) != 0) {
                feed[in.name] = tokens;
                continue;
            }
            Tensor t = Tensor::zeros(DataType::Float32, {tokens.dim(0), in.shape[1].value, past, in.shape[3].value});
            float *x = t.mutableData<float>();
            for (std::int64_t i = 0; rng && i < t.size(); ++i)
                x[i] = normal(*rng);
            feed[in.name] = std::move(t);
        }
        return feed;
    }

    void shippedModels_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : {"kjv/models/target", "kjv/models/draft-small", "kjv/models/draft-tiny",
                              "tang-song/models/target", "tang-song/models/draft-small", "tang-song/models/draft-tiny"})
            QTest::newRow(m) << QString::fromLatin1(m);
        // The memory-bound target (8 layers, ~100 MB of float32 weights): its products of 5 and 8 rows take
        // the chunked tiles, its context of 512 the long attention rows.
        if (fs::exists(std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/target-large.onnx"))
            QTest::newRow("kjv/models/target-large") << QStringLiteral("kjv/models/target-large");
    }

    // All outputs (logits and presents) of windows, cached steps (a past of context - T positions, T = 1 and
    // the K + 1 = 5 of a verification) and batches, bit for bit on every path and thread count.
    void shippedModels()
    {
        QFETCH(QString, model);
        PathGuard guard;
        const std::string path = std::string(SPECDEC_SOURCE_DIR) + "/corpora/" + model.toStdString() + ".onnx";
        const std::int64_t packedBefore = PackedMatrix::liveFloats();
        OnnxGraph graph = OnnxGraph::load(path);
        // Each constant matrix is packed once (a fused product shares its MatMul's packed weights): the packed
        // floats fit in the file's bytes / 4, or in its weights widened to float32 (a file of float16 weights),
        // with 10 % to spare for padded panels (packing each twice would need about twice that).
        const auto packedBytes = static_cast<std::uintmax_t>(PackedMatrix::liveFloats() - packedBefore) * sizeof(float);
        onnx::ModelProto proto;
        QVERIFY(proto.ParseFromString(readWholeFile(path)));
        std::uintmax_t weightFloats = 0;
        for (const onnx::TensorProto &t : proto.graph().initializer()) {
            std::uintmax_t count = 1;
            for (std::int64_t d : t.dims())
                count *= static_cast<std::uintmax_t>(d);
            weightFloats += count;
        }
        const std::uintmax_t bound = std::max<std::uintmax_t>(fs::file_size(path),
                                                              weightFloats * sizeof(float) * 11 / 10);
        QVERIFY2(
            packedBytes > 0 && packedBytes <= bound,
            qPrintable(
                QStringLiteral("%1 bytes packed, file %2, bound %3").arg(packedBytes).arg(fs::file_size(path)).arg(bound)));
        // The fusion pass ran: fewer nodes than the file's (non-Constant) nodes.
        std::size_t fileNodes = 0;
        for (const auto &[op, count] : graph.operatorCounts())
            if (op != "Constant")
                fileNodes += static_cast<std::size_t>(count);
        QVERIFY2(graph.nodeCount() < fileNodes - 20,
                 qPrintable(QStringLiteral("%1 of %2 nodes").arg(graph.nodeCount()).arg(fileNodes)));
        const std::int64_t context = std::stoll(graph.metadata().at("specdec.context_length"));
        const bool withPast = graph.inputs().size() > 1;
        struct Case
        {
            std::int64_t batch, past, length;
        };
        std::vector<Case> cases{{1, 0, context}, {1, 0, 16}, {1, 0, 5}, {1, 0, 1}, {3, 0, 5}};
        if (withPast)
            cases.insert(cases.end(), {{1, context - 1, 1}, {1, context - 5, 5}, {3, context - 5, 5}});
        if (withPast && context >= 256) // a verification of K + 1 = 8 rows (two tiles taking turns on AVX2)
            cases.push_back({1, context - 8, 8});
        for (const Case &c : cases) {
            std::vector<std::int64_t> ids(static_cast<std::size_t>(c.batch * c.length));
            for (std::int64_t i = 0; i < c.batch * c.length; ++i)
                ids[static_cast<std::size_t>(i)] = (i * 7 + 3) % 23;
            const Tensor tokens = Tensor::fromVector<std::int64_t>({c.batch, c.length}, ids);
            std::mt19937 rng(11);
            const std::map<std::string, Tensor> feed = feedOf(graph, tokens, c.past, &rng);
            setInstructionSet(InstructionSet::Baseline);
            graph.setThreads(1);
            const std::vector<Tensor> reference = graph.run(feed);
            for (InstructionSet isa : supportedInstructionSets())
                for (int threads : {1, 3}) {
                    setInstructionSet(isa);
                    graph.setThreads(threads);
                    const std::vector<Tensor> outputs = graph.run(feed);
                    for (std::size_t k = 0; k < outputs.size(); ++k)
                        QVERIFY2(bitIdentical(reference[k], outputs[k]),
                                 qPrintable(QStringLiteral("%1 x (past %2 + %3), output %4 on %5, %6 threads")
                                                .arg(c.batch)
                                                .arg(c.past)
                                                .arg(c.length)
                                                .arg(k)
                                                .arg(isaName(isa))
                                                .arg(threads)));
                }
        }
    }

    void verificationRowsAreSteps_data()
    {
        QTest::addColumn<QString>("path");
        const std::string corpora = std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/";
        QTest::newRow("kjv/target") << QString::fromStdString(corpora + "target.onnx");
        if (fs::exists(corpora + "target-large.onnx"))
            QTest::newRow("kjv/target-large") << QString::fromStdString(corpora + "target-large.onnx");
        for (const char *name : {"gpt2-op17", "llama-op17"})
            QTest::newRow(name) << QString::fromStdString(std::string(SPECDEC_TEST_DATA_DIR) + "/hf/" + name
                                                          + "/model.onnx");
    }
    // The rows of a verification (K + 1 = 5 and 8 new tokens) share each load of a weight and of a key; each row's
    // logits are still, bit for bit, those of a one-token step on the same past, on every path.
    void verificationRowsAreSteps()
    {
        QFETCH(QString, path);
        PathGuard guard;
        OnnxGraph graph = OnnxGraph::load(path.toStdString());
        graph.setThreads(1);
        std::size_t logits = graph.outputs().size();
        for (std::size_t k = 0; k < graph.outputs().size(); ++k)
            if (graph.outputs()[k].name == "logits")
                logits = k;
        QVERIFY(logits < graph.outputs().size());
        const std::int64_t past = 40;
        for (InstructionSet isa : supportedInstructionSets()) {
            setInstructionSet(isa);
            for (const std::int64_t m : {5, 8}) {
                std::vector<std::int64_t> ids(static_cast<std::size_t>(m));
                for (std::int64_t i = 0; i < m; ++i)
                    ids[static_cast<std::size_t>(i)] = (i * 7 + 3) % 23;
                std::mt19937 rng(5);
                const std::vector<Tensor> rows = graph.run(
                    feedOf(graph, Tensor::fromVector<std::int64_t>({1, m}, ids), past, &rng));
                const Tensor &all = rows[logits];
                const std::int64_t vocab = all.dim(2);
                for (std::int64_t r = 0; r < m; ++r) {
                    std::map<std::string, Tensor> feed = feedOf(
                        graph, Tensor::fromVector<std::int64_t>({1, 1}, {ids[static_cast<std::size_t>(r)]}), past + r);
                    // The past of row r: the first past + r positions of the verification's presents.
                    for (std::size_t k = 0; k < graph.outputs().size(); ++k) {
                        std::string name = graph.outputs()[k].name;
                        if (name.rfind("present", 0) != 0)
                            continue;
                        name.replace(0, name.find('.'), "past_key_values");
                        QVERIFY2(feed.count(name), name.c_str());
                        const Tensor &present = rows[k];
                        Tensor cut = Tensor::zeros(DataType::Float32, {1, present.dim(1), past + r, present.dim(3)});
                        float *to = cut.mutableData<float>();
                        for (std::int64_t h = 0; h < present.dim(1); ++h)
                            std::memcpy(to + h * (past + r) * present.dim(3),
                                        present.data<float>() + h * present.dim(2) * present.dim(3),
                                        static_cast<std::size_t>((past + r) * present.dim(3)) * sizeof(float));
                        feed[name] = std::move(cut);
                    }
                    const Tensor one = graph.run(feed)[logits];
                    QCOMPARE(one.size(), vocab);
                    QVERIFY2(std::memcmp(one.data<float>(), all.data<float>() + r * vocab,
                                         static_cast<std::size_t>(vocab) * sizeof(float))
                                 == 0,
                             qPrintable(QStringLiteral("row %1 of %2 on %3").arg(r).arg(m).arg(isaName(isa))));
                }
            }
        }
    }

    // The conformance cases of the kernels that dispatch: every path gives the baseline path's bits.
    void hfFolders_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"gpt2-op17", "llama-op17", "qwen2-op14-fp16"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    // Hugging Face exports (GPT-2's Div scale and Where mask, Llama's and Qwen2's grouped-query heads read unrepeated
    // by the fused attention): windows, cached steps and a batch through the presents, and cached steps in place
    // (whose logits are the presents path's), bit for bit on every path and thread count.
    void hfFolders()
    {
        QFETCH(QString, name);
        PathGuard guard;
        OnnxGraph graph = OnnxGraph::load(std::string(SPECDEC_TEST_DATA_DIR) + "/hf/" + name.toStdString()
                                          + "/model.onnx");
        QVERIFY(!graph.cachePairs().empty());
        auto tokensOf = [](std::int64_t batch, std::int64_t length, std::int64_t from) {
            std::vector<std::int64_t> ids(static_cast<std::size_t>(batch * length));
            for (std::int64_t i = 0; i < batch * length; ++i)
                ids[static_cast<std::size_t>(i)] = ((from + i) * 7 + 3) % 283;
            return Tensor::fromVector<std::int64_t>({batch, length}, ids);
        };
        auto everyPath = [&](const QString &what, const std::function<std::vector<Tensor>()> &run) -> QString {
            setInstructionSet(InstructionSet::Baseline);
            graph.setThreads(1);
            const std::vector<Tensor> reference = run();
            for (InstructionSet isa : supportedInstructionSets())
                for (int threads : {1, 3}) {
                    setInstructionSet(isa);
                    graph.setThreads(threads);
                    const std::vector<Tensor> outputs = run();
                    for (std::size_t k = 0; k < outputs.size(); ++k)
                        if (!bitIdentical(reference[k], outputs[k]))
                            return what
                                + QStringLiteral(", output %1 on %2, %3 threads").arg(k).arg(isaName(isa)).arg(threads);
                }
            return QString();
        };
        struct Case
        {
            std::int64_t batch, past, length;
        };
        for (const Case &c : {Case{1, 0, 16}, Case{1, 15, 1}, Case{1, 11, 5}, Case{3, 11, 5}}) {
            std::mt19937 rng(11);
            const std::map<std::string, Tensor> feed = feedOf(graph, tokensOf(c.batch, c.length, 0), c.past, &rng);
            const QString why = everyPath(QStringLiteral("%1 x (past %2 + %3)").arg(c.batch).arg(c.past).arg(c.length),
                                          [&] { return graph.run(feed); });
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        for (const std::int64_t length : {1, 5}) {
            // The past of 11 tokens: the presents of a first run, or the cache of a first cached run.
            auto withoutPasts = [](std::map<std::string, Tensor> feed) {
                std::erase_if(feed, [](const auto &e) { return e.first.rfind("past_key_values.", 0) == 0; });
                return feed;
            };
            setInstructionSet(InstructionSet::Baseline);
            graph.setThreads(1);
            std::map<std::string, Tensor> next = feedOf(graph, tokensOf(1, length, 11), 11);
            const std::vector<Tensor> first = graph.run(feedOf(graph, tokensOf(1, 11, 0)));
            for (std::size_t k = 0; k < graph.outputs().size(); ++k)
                if (graph.outputs()[k].name.rfind("present.", 0) == 0)
                    next["past_key_values." + graph.outputs()[k].name.substr(8)] = first[k];
            const Tensor presents = graph.run(next).at(0);
            const QString why = everyPath(QStringLiteral("in place, past 11 + %1").arg(length), [&] {
                KvCache cache = graph.newCache(32);
                graph.runCached(withoutPasts(feedOf(graph, tokensOf(1, 11, 0))), cache);
                return std::vector<Tensor>{graph.runCached(withoutPasts(next), cache).at(0)};
            });
            QVERIFY2(why.isEmpty(), qPrintable(why));
            setInstructionSet(InstructionSet::Baseline);
            graph.setThreads(1);
            KvCache cache = graph.newCache(32);
            graph.runCached(withoutPasts(feedOf(graph, tokensOf(1, 11, 0))), cache);
            QVERIFY(bitIdentical(graph.runCached(withoutPasts(next), cache).at(0), presents));
        }
    }

    void conformanceSubset()
    {
        PathGuard guard;
        const fs::path root(SPECDEC_ONNX_TESTDATA_DIR "/node");
        if (!fs::is_directory(root))
            QSKIP("libonnx-testdata is not installed");
        int compared = 0;
        for (const fs::path &dir : sortedEntries(root, "test_")) {
            const std::string name = dir.filename().string();
            if (name.find("matmul") == std::string::npos && name.find("gemm") == std::string::npos
                && name.find("softmax") == std::string::npos)
                continue;
            std::optional<OnnxGraph> graph;
            try {
                graph.emplace(OnnxGraph::load((dir / "model.onnx").string()));
            } catch (const Error &) {
                continue; // not supported: test_onnx_conformance accounts for it
            }
            for (const fs::path &set : sortedEntries(dir, "test_data_set_")) {
                std::vector<Tensor> inputs;
                for (const fs::path &file : sortedEntries(set, "input_"))
                    inputs.push_back(readTensorFile(file.string()));
                setInstructionSet(InstructionSet::Baseline);
                const std::vector<Tensor> reference = graph->run(inputs);
                for (InstructionSet isa : supportedInstructionSets()) {
                    setInstructionSet(isa);
                    const std::vector<Tensor> outputs = graph->run(inputs);
                    for (std::size_t k = 0; k < outputs.size(); ++k)
                        QVERIFY2(bitIdentical(reference[k], outputs[k]),
                                 qPrintable(QString::fromStdString(name) + QStringLiteral(" on ") + isaName(isa)));
                }
            }
            ++compared;
        }
        qInfo("%d conformance cases compared across paths", compared);
        QVERIFY(compared >= 10);
    }

    void environmentNamesAPath()
    {
        // What SPECDEC_ISA may say: each path by name; anything else is refused with the value named.
        for (InstructionSet isa : supportedInstructionSets())
            QCOMPARE(parseInstructionSet(instructionSetName(isa)), isa);
        try {
            parseInstructionSet("sse9");
            QFAIL("sse9 was accepted");
        } catch (const Error &e) {
            QVERIFY2(std::string(e.what()).find("SPECDEC_ISA=sse9") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnxPaths)
#include "test_onnx_paths.moc"
