// SPDX-License-Identifier: GPL-3.0-or-later
// OnnxLanguageModel on small committed models (tests/data/onnx, made by make_test_models.py with torch):
// the contract's metadata, parity with torch's logits, proper and causal rows, windows past the context,
// thread-count invariance of the executor, and the onnx-run file API; and a hand-built grouped-query attention whose
// fused path reads the kv heads unrepeated only when the graph's Expand really repeats them.
#include "Error.h"
#include "onnx/OnnxGraph.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/OnnxRun.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/onnx_pb.h>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <random>

using namespace specdec;
using namespace specdec::nn;

namespace {

const std::string kDir = SPECDEC_TEST_DATA_DIR "/onnx/";

double maxAbsDiff(const Tensor &a, const Tensor &b)
{
    double worst = 0;
    for (std::int64_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::abs(a.doubleAt(i) - b.doubleAt(i)));
    return worst;
}

std::vector<TokenId> randomTokens(int n, int vocabulary, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<TokenId> pick(0, vocabulary - 1);
    std::vector<TokenId> v(static_cast<std::size_t>(n));
    for (TokenId &t : v)
        t = pick(rng);
    return v;
}

// A one-node model built with the protobuf API: Y = A x B (MatMul) or Gemm(A, B^T, C).
std::string productModel(bool gemm)
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(17);
    onnx::GraphProto *g = model.mutable_graph();
    g->set_name("product");
    auto declare = [](onnx::ValueInfoProto *vi, const char *name, std::vector<const char *> dims) {
        vi->set_name(name);
        auto *type = vi->mutable_type()->mutable_tensor_type();
        type->set_elem_type(onnx::TensorProto::FLOAT);
        for (const char *d : dims)
            type->mutable_shape()->add_dim()->set_dim_param(d);
    };
    if (gemm) {
        declare(g->add_input(), "A", {"m", "k"});
        declare(g->add_input(), "B", {"n", "k"});
        declare(g->add_input(), "C", {"n"});
        declare(g->add_output(), "Y", {"m", "n"});
    } else {
        declare(g->add_input(), "A", {"b", "m", "k"});
        declare(g->add_input(), "B", {"k", "n"});
        declare(g->add_output(), "Y", {"b", "m", "n"});
    }
    onnx::NodeProto *node = g->add_node();
    node->set_op_type(gemm ? "Gemm" : "MatMul");
    node->set_name("product");
    for (std::string input : {"A", "B", "C"})
        if (input != "C" || gemm)
            node->add_input(std::move(input));
    if (gemm) {
        onnx::AttributeProto *t = node->add_attribute();
        t->set_name("transB");
        t->set_type(onnx::AttributeProto::INT);
        t->set_i(1);
    }
    node->add_output(std::string("Y"));
    return model.SerializeAsString();
}

/// Grouped-query attention as Llama exports it, with GPT-2's Div and Where: Q [1, 10, 3, 2], K and V [1, 2, 5, 2]
/// each repeated by Unsqueeze(axis 2) → Expand(E) → Reshape([1, 10, 5, 2]), then
/// Y = Softmax(Where(keep, Q Kᵀ / S, -1e9) + M) V; E (the Expand's shape) and S (a scalar) are inputs.
std::string groupedAttentionModel()
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(17);
    onnx::GraphProto *g = model.mutable_graph();
    g->set_name("gqa");
    auto declare = [](onnx::ValueInfoProto *vi, const char *name, int type, std::vector<std::int64_t> dims) {
        vi->set_name(name);
        auto *t = vi->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        t->mutable_shape(); // a scalar has a shape of no dimensions
        for (std::int64_t d : dims)
            t->mutable_shape()->add_dim()->set_dim_value(d);
    };
    const int f = onnx::TensorProto::FLOAT;
    declare(g->add_input(), "Q", f, {1, 10, 3, 2});
    declare(g->add_input(), "K", f, {1, 2, 5, 2});
    declare(g->add_input(), "V", f, {1, 2, 5, 2});
    declare(g->add_input(), "M", f, {1, 1, 3, 5});
    declare(g->add_input(), "keep", onnx::TensorProto::BOOL, {1, 1, 3, 5});
    declare(g->add_input(), "E", onnx::TensorProto::INT64, {5});
    declare(g->add_input(), "S", f, {});
    declare(g->add_output(), "Y", f, {1, 10, 3, 2});
    auto constant = [&](const char *name, std::vector<std::int64_t> values) {
        onnx::TensorProto *t = g->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(static_cast<std::int64_t>(values.size()));
        for (std::int64_t v : values)
            t->add_int64_data(v);
    };
    constant("axes", {2});
    constant("heads", {1, 10, 5, 2});
    onnx::TensorProto *fill = g->add_initializer();
    fill->set_name("fill");
    fill->set_data_type(f);
    fill->add_float_data(-1e9f);
    auto node = [&](const char *op, std::vector<std::string> in, std::string out) {
        onnx::NodeProto *n = g->add_node();
        n->set_op_type(op);
        n->set_name(out);
        for (std::string &i : in)
            n->add_input(std::move(i));
        n->add_output(std::move(out));
        return n;
    };
    for (std::string x : {"K", "V"}) {
        node("Unsqueeze", {x, "axes"}, x + "u");
        node("Expand", {x + "u", "E"}, x + "e");
        node("Reshape", {x + "e", "heads"}, x + "r");
    }
    onnx::AttributeProto *perm = node("Transpose", {"Kr"}, "Kt")->add_attribute();
    perm->set_name("perm");
    perm->set_type(onnx::AttributeProto::INTS);
    for (std::int64_t a : {0, 1, 3, 2})
        perm->add_ints(a);
    node("MatMul", {"Q", "Kt"}, "scores");
    node("Div", {"scores", "S"}, "scaled");
    node("Where", {"keep", "scaled", "fill"}, "kept");
    node("Add", {"kept", "M"}, "masked");
    onnx::AttributeProto *axis = node("Softmax", {"masked"}, "p")->add_attribute();
    axis->set_name("axis");
    axis->set_type(onnx::AttributeProto::INT);
    axis->set_i(-1);
    node("MatMul", {"p", "Vr"}, "Y");
    return model.SerializeAsString();
}

Tensor randomTensor(Shape shape, unsigned seed)
{
    Tensor t(DataType::Float32, std::move(shape));
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    float *p = t.mutableData<float>();
    for (std::int64_t i = 0; i < t.size(); ++i)
        p[i] = normal(rng);
    return t;
}

bool bitIdentical(const Tensor &a, const Tensor &b)
{
    return a.shape() == b.shape() && a.byteSize() == b.byteSize() && std::memcmp(a.bytes(), b.bytes(), a.byteSize()) == 0;
}

} // namespace

class TestOnnxModel : public QObject
{
    Q_OBJECT
private slots:
    void readsTheContractMetadata()
    {
        const auto model = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        QCOMPARE(model->tokenizer().size(), 12);
        QCOMPARE(model->tokenizer().characters()->token(2), U'"');
        QCOMPARE(model->tokenizer().characters()->token(3), U'\\');
        QCOMPARE(model->tokenizer().characters()->token(7), U'é');
        QCOMPARE(model->tokenizer().characters()->token(8), U'中');
        QCOMPARE(model->tokenizer().characters()->token(10), char32_t(0x1F600)); // a surrogate pair in the JSON
        QCOMPARE(model->contextLength(), 8);
        QCOMPARE(model->windowStride(), 2);
        QCOMPARE(model->corpus(), std::string("test"));
        QVERIFY(!model->description().empty());
        QCOMPARE(model->describe(), "onnx:" + kDir + "tiny_transformer.onnx");
    }

    void matchesTorchLogits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("transformer") << QStringLiteral("tiny_transformer");
        QTest::addRow("gru") << QStringLiteral("tiny_gru");
    }
    void matchesTorchLogits()
    {
        QFETCH(QString, name);
        const std::string base = kDir + name.toStdString();
        const auto model = OnnxLanguageModel::load(base + ".onnx", 1);
        const Tensor tokens = readTensorFile(base + ".parity/input_0.pb");
        const Tensor expected = readTensorFile(base + ".parity/output_0.pb");
        std::vector<TokenId> ids;
        for (std::int64_t v : tokens.toInt64Vector())
            ids.push_back(static_cast<TokenId>(v));
        const Tensor logits = model->windowLogits(ids);
        QCOMPARE(logits.shape(), (Shape{expected.dim(1), expected.dim(2)}));
        const double diff = maxAbsDiff(expected, logits);
        QVERIFY2(diff < 1e-4, qPrintable(QStringLiteral("max |diff| %1").arg(diff)));
    }

    void rowsAreDistributions()
    {
        const auto model = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        const std::vector<TokenId> seq = randomTokens(6, 12, 1);
        DistributionMatrix out;
        model->distributions(seq, 6, out);
        QCOMPARE(out.rows(), 6);
        QCOMPARE(out.cols(), 12);
        for (int j = 0; j < 6; ++j) {
            QVERIFY(std::abs(out.row(j).sum() - 1.0) < 1e-12);
            QVERIFY(out.row(j).minCoeff() >= 0.0);
        }
        QCOMPARE(model->stats().calls, std::int64_t(1));
    }

    void changingALaterTokenLeavesEarlierRows()
    {
        const auto model = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        std::vector<TokenId> seq = randomTokens(7, 12, 2);
        DistributionMatrix a, b;
        model->distributions(seq, 7, a);
        seq[4] = (seq[4] + 5) % 12;
        model->distributions(seq, 7, b);
        // Rows 0..3 score prefixes that end before token 4.
        for (int j = 0; j < 4; ++j)
            QVERIFY2((a.row(j) - b.row(j)).cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString::number(j)));
        QVERIFY((a.row(4) - b.row(4)).cwiseAbs().maxCoeff() > 1e-6);
    }

    void emptyPrefixIsAnError()
    {
        const auto model = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        const std::vector<TokenId> seq = {4, 5};
        DistributionMatrix out;
        try {
            model->distributions(seq, 3, out);
            QFAIL("an empty prefix was accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("at least one prompt token")), e.what());
        }
    }

    // Past the context a row depends on its prefix alone: asked among many rows or alone, the same window.
    void rowsDependOnThePrefixAlone()
    {
        const auto model = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        const std::vector<TokenId> seq = randomTokens(30, 12, 3);
        const int C = model->contextLength();
        for (int m : {1, 3, 5, 9}) {
            DistributionMatrix many;
            model->distributions(seq, m, many);
            for (int j = 0; j < m; ++j) {
                const std::size_t L = seq.size() - static_cast<std::size_t>(m) + 1 + static_cast<std::size_t>(j);
                DistributionMatrix alone;
                model->distributions(std::span<const TokenId>(seq).first(L), 1, alone);
                QVERIFY2((many.row(j) - alone.row(0)).cwiseAbs().maxCoeff() < 1e-6,
                         qPrintable(QStringLiteral("m %1 row %2").arg(m).arg(j)));
            }
        }
        // The window keeps the last tokens: between C - S + 1 and C of them, and all C when aligned.
        QCOMPARE(model->windowStart(8), std::int64_t(0));
        QCOMPARE(model->windowStart(9), std::int64_t(2));
        QCOMPARE(model->windowStart(10), std::int64_t(2));
        QCOMPARE(model->windowStart(30), std::int64_t(22));
        DistributionMatrix full, suffix;
        model->distributions(seq, 1, full);
        model->distributions(std::span<const TokenId>(seq).last(static_cast<std::size_t>(C)), 1, suffix);
        QVERIFY(full == suffix); // 30 - 8 = 22 is a multiple of the stride: exactly the last C tokens
    }

    void threadCountDoesNotChangeResults_data()
    {
        QTest::addColumn<bool>("gemm");
        QTest::addRow("MatMul") << false;
        QTest::addRow("Gemm transB") << true;
    }
    void threadCountDoesNotChangeResults()
    {
        QFETCH(bool, gemm);
        OnnxGraph graph = OnnxGraph::fromBytes(productModel(gemm), "product.onnx");
        std::vector<Tensor> inputs = {randomTensor({3, 130, 256}, 4), randomTensor({256, 600}, 5)};
        if (gemm)
            inputs = {randomTensor({390, 256}, 4), randomTensor({600, 256}, 5), randomTensor({600}, 6)};
        Tensor reference;
        for (int threads : {1, 2, 3, 4}) {
            graph.setThreads(threads);
            QCOMPARE(graph.threads(), threads);
            const Tensor y = graph.run(inputs).at(0);
            if (!reference.defined())
                reference = y;
            QVERIFY2(bitIdentical(reference, y), qPrintable(QStringLiteral("%1 threads").arg(threads)));
        }
        // And the product is right: one element by hand.
        const Tensor &a = inputs[0], &b = inputs[1];
        double expected = gemm ? inputs[2].doubleAt(7) : 0.0;
        const std::int64_t row = 200, col = 7, k = 256;
        for (std::int64_t i = 0; i < k; ++i)
            expected += a.doubleAt(row * k + i) * (gemm ? b.doubleAt(col * k + i) : b.doubleAt(i * 600 + col));
        QVERIFY(std::abs(reference.doubleAt(row * 600 + col) - expected) < 1e-3);
    }

    void languageModelIsThreadInvariant()
    {
        const auto one = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 1);
        const auto two = OnnxLanguageModel::load(kDir + "tiny_transformer.onnx", 2);
        const std::vector<TokenId> seq = randomTokens(20, 12, 8);
        DistributionMatrix a, b;
        one->distributions(seq, 5, a);
        two->distributions(seq, 5, b);
        QVERIFY(a == b);
    }

    void groupedQueryAttentionIsReadUnrepeatedOnlyWhenItRepeats()
    {
        // The fusion takes the whole pattern (one node: the repeats are read unrepeated, query head h reading
        // key/value head h / 5, in tasks of at most 4 query heads) and checks the Expand's shape at every run:
        // E = [1, 2, 5, 5, 2] repeats each head 5 times (Llama's repeat_kv); E = [5, 2, 1, 5, 2] copies the batch
        // instead, which the Reshape turns into heads 0, 1, 0, 1, ... (not a repeat: the original nodes run). Both
        // give the direct computation.
        OnnxGraph graph = OnnxGraph::fromBytes(groupedAttentionModel(), "gqa.onnx");
        QCOMPARE(graph.nodeCount(), std::size_t(1));
        const Tensor q = randomTensor({1, 10, 3, 2}, 1), k = randomTensor({1, 2, 5, 2}, 2);
        const Tensor v = randomTensor({1, 2, 5, 2}, 3), m = randomTensor({1, 1, 3, 5}, 4);
        Tensor keep(DataType::Bool, {1, 1, 3, 5});
        for (std::int64_t i = 0; i < keep.size(); ++i)
            keep.mutableData<bool>()[i] = i % 4 != 1; // some of every row dropped, none causal
        const float scale = 1.5f;
        for (const bool repeat : {true, false}) {
            const std::vector<std::int64_t> e = repeat ? std::vector<std::int64_t>{1, 2, 5, 5, 2}
                                                       : std::vector<std::int64_t>{5, 2, 1, 5, 2};
            const Tensor y = graph
                                 .run({{"Q", q},
                                       {"K", k},
                                       {"V", v},
                                       {"M", m},
                                       {"keep", keep},
                                       {"E", Tensor::fromVector<std::int64_t>({5}, e)},
                                       {"S", Tensor::scalar(scale)}})
                                 .at(0);
            QCOMPARE(y.shape(), (Shape{1, 10, 3, 2}));
            double worst = 0;
            for (int h = 0; h < 10; ++h) {
                const int g = repeat ? h / 5 : h % 2;
                for (int i = 0; i < 3; ++i) {
                    double s[5], max = -1e300, sum = 0;
                    for (int j = 0; j < 5; ++j) {
                        const double dot = q.data<float>()[(h * 3 + i) * 2] * k.data<float>()[(g * 5 + j) * 2]
                            + q.data<float>()[(h * 3 + i) * 2 + 1] * k.data<float>()[(g * 5 + j) * 2 + 1];
                        s[j] = (keep.data<bool>()[i * 5 + j] ? dot / scale : -1e9) + m.data<float>()[i * 5 + j];
                        max = std::max(max, s[j]);
                    }
                    for (double &x : s)
                        sum += x = std::exp(x - max);
                    for (int d = 0; d < 2; ++d) {
                        double want = 0;
                        for (int j = 0; j < 5; ++j)
                            want += s[j] / sum * v.data<float>()[(g * 5 + j) * 2 + d];
                        worst = std::max(worst, std::abs(want - y.data<float>()[(h * 3 + i) * 2 + d]));
                    }
                }
            }
            QVERIFY2(worst < 1e-5,
                     qPrintable(QStringLiteral("%1: max |diff| %2")
                                    .arg(repeat ? QStringLiteral("repeat") : QStringLiteral("batch copy"))
                                    .arg(worst)));
        }
    }

    void runsModelFilesAndWritesOutputs()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string out = dir.filePath(QStringLiteral("out/nested")).toStdString();
        const auto [name, file] = parseNamedInput("tokens=" + kDir + "tiny_transformer.parity/input_0.pb");
        QCOMPARE(name, std::string("tokens"));
        const std::vector<std::string> written = runModelOnFiles(kDir + "tiny_transformer.onnx", {{name, file}}, out, 2);
        QCOMPARE(written.size(), std::size_t(1));
        QCOMPARE(written[0], out + "/logits.pb");
        std::string tensorName;
        const Tensor logits = readTensorFile(written[0], &tensorName);
        QCOMPARE(tensorName, std::string("logits"));
        QVERIFY(maxAbsDiff(logits, readTensorFile(kDir + "tiny_transformer.parity/output_0.pb")) < 1e-4);
        // No temporary files are left behind.
        QCOMPARE(QDir(QString::fromStdString(out)).entryList(QDir::Files).size(), 1);
        QVERIFY_THROWS_EXCEPTION(Error, runModelOnFiles(kDir + "tiny_transformer.onnx", {{"nope", file}}, out));
        QVERIFY_THROWS_EXCEPTION(Error, parseNamedInput("tokens"));
    }
};

QTEST_GUILESS_MAIN(TestOnnxModel)
#include "test_onnx_model.moc"
