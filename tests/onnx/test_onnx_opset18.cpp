// SPDX-License-Identifier: GPL-3.0-or-later
// Opset 18 on ONNX 1.12 (engine/onnx/Opset18.h): the operators opset 18 changed run at version 18 (ReduceMean,
// ReduceMax, ReduceMin and ReduceProd with the axes as an input, Split with num_outputs, ScatterND with max/min), the
// others at their opset-17 schema; a changed operator the executor lacks at 18, opset 19 and ONNX Runtime's contrib
// operators are one-line errors. libonnx-testdata 1.12 has no opset-18 cases, so these single-node models are built
// here with values worked out by hand. The GPT-2 of tests/data/hf rewritten to opset 18 matches PyTorch.
#include "Error.h"
#include "onnx/OnnxGraph.h"
#include "onnx/Operator.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/onnx_pb.h>

#include <QtTest>

#include <cmath>

using namespace specdec;
using namespace specdec::nn;

namespace {

struct NodeModel
{
    onnx::ModelProto model;
    onnx::NodeProto *node;

    NodeModel(const std::string &op, const std::vector<std::string> &inputs, int outputs, int opset = 18,
              const std::string &domain = {}, int outputRank = 1)
    {
        model.set_ir_version(8);
        auto *import = model.add_opset_import();
        import->set_version(opset);
        if (!domain.empty()) {
            auto *foreign = model.add_opset_import();
            foreign->set_domain(domain);
            foreign->set_version(1);
        }
        auto *graph = model.mutable_graph();
        graph->set_name("g");
        node = graph->add_node();
        node->set_op_type(op);
        node->set_name("n");
        node->set_domain(domain);
        for (const auto &in : inputs)
            node->add_input(in);
        for (int k = 0; k < outputs; ++k) {
            std::string name = "y";
            name += std::to_string(k);
            node->add_output(name);
            declare(graph->add_output(), name, onnx::TensorProto::FLOAT, outputRank);
        }
    }
    /// A value of `rank` symbolic dimensions (the checker wants a shape on every graph input and output).
    static void declare(onnx::ValueInfoProto *vi, const std::string &name, int type, int rank)
    {
        vi->set_name(name);
        vi->mutable_type()->mutable_tensor_type()->set_elem_type(type);
        auto *shape = vi->mutable_type()->mutable_tensor_type()->mutable_shape();
        for (int d = 0; d < rank; ++d) {
            std::string symbol = name;
            symbol += std::to_string(d);
            shape->add_dim()->set_dim_param(symbol);
        }
    }
    void input(const std::string &name, int type, int rank = 1)
    {
        declare(model.mutable_graph()->add_input(), name, type, rank);
    }
    void constant(const std::string &name, const Tensor &t)
    {
        tensorToProto(t, name, *model.mutable_graph()->add_initializer());
    }
    void intAttribute(const std::string &name, std::int64_t v)
    {
        auto *a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(v);
    }
    void stringAttribute(const std::string &name, const std::string &v)
    {
        auto *a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(v);
    }
    OnnxGraph load() const { return OnnxGraph::fromBytes(model.SerializeAsString(), "opset18.onnx"); }
    std::string error() const
    {
        try {
            load();
        } catch (const Error &e) {
            return e.what();
        }
        return {};
    }
};

Tensor floats(Shape shape, std::vector<float> v)
{
    return Tensor::fromVector<float>(std::move(shape), v);
}

std::vector<float> valuesOf(const Tensor &t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

} // namespace

class TestOnnxOpset18 : public QObject
{
    Q_OBJECT
private slots:
    void reduceMeanAxesInput()
    {
        // Constant axes (lowered to the attribute for ONNX 1.12's inference) and axes fed at run time.
        for (const bool fed : {false, true}) {
            NodeModel m("ReduceMean", {"x", "axes"}, 1, 18, {}, 2);
            m.input("x", onnx::TensorProto::FLOAT, 2);
            if (fed)
                m.input("axes", onnx::TensorProto::INT64);
            else
                m.constant("axes", Tensor::fromVector<std::int64_t>({1}, {-1}));
            OnnxGraph g = m.load();
            std::map<std::string, Tensor> in{{"x", floats({2, 3}, {1, 2, 6, 0, 3, 9})}};
            if (fed)
                in["axes"] = Tensor::fromVector<std::int64_t>({1}, {1});
            const std::vector<Tensor> out = g.run(in);
            QCOMPARE(out[0].shape(), (Shape{2, 1}));
            QCOMPARE(valuesOf(out[0]), (std::vector<float>{3, 4}));
        }
    }

    void reduceMinProdAxesInput()
    {
        // ReduceMin-18 and ReduceProd-18 (torch.all / amin, prod): constant axes, as an export writes them.
        for (const char *op : {"ReduceMin", "ReduceProd"}) {
            NodeModel m(op, {"x", "axes"}, 1, 18, {}, 2);
            m.input("x", onnx::TensorProto::FLOAT, 2);
            m.constant("axes", Tensor::fromVector<std::int64_t>({1}, {-1}));
            const std::vector<Tensor> out = m.load().run({{"x", floats({2, 3}, {1, 2, 6, 0, 3, -9})}});
            QCOMPARE(out[0].shape(), (Shape{2, 1}));
            QCOMPARE(valuesOf(out[0]),
                     std::string(op) == "ReduceMin" ? (std::vector<float>{1, -9}) : (std::vector<float>{12, 0}));
        }
    }

    void reduceMaxNoAxesNoop()
    {
        NodeModel m("ReduceMax", {"x"}, 1, 18, {}, 0);
        m.input("x", onnx::TensorProto::FLOAT, 2);
        m.intAttribute("keepdims", 0);
        OnnxGraph all = m.load();
        const std::vector<Tensor> reduced = all.run({{"x", floats({2, 2}, {1, 7, -2, 4})}});
        QCOMPARE(reduced[0].rank(), 0);
        QCOMPARE(valuesOf(reduced[0]), (std::vector<float>{7}));
        m.intAttribute("noop_with_empty_axes", 1);
        const std::vector<Tensor> same = m.load().run({{"x", floats({2, 2}, {1, 7, -2, 4})}});
        QCOMPARE(valuesOf(same[0]), (std::vector<float>{1, 7, -2, 4}));
    }

    void reduceAxesAttributeIsAnError()
    {
        NodeModel m("ReduceMean", {"x"}, 1, 18, {}, 1);
        m.input("x", onnx::TensorProto::FLOAT, 2);
        auto *a = m.node->add_attribute();
        a->set_name("axes");
        a->set_type(onnx::AttributeProto::INTS);
        a->add_ints(0);
        const std::string e = m.error();
        QVERIFY2(e.find("ReduceMean, opset 18") != std::string::npos && e.find("axes") != std::string::npos, e.c_str());
    }

    void splitNumOutputs()
    {
        // 7 along the axis in 3 parts: ceil(7/3) = 3, 3, then the last part 1.
        NodeModel m("Split", {"x"}, 3);
        m.input("x", onnx::TensorProto::FLOAT);
        m.intAttribute("num_outputs", 3);
        const std::vector<Tensor> out = m.load().run({{"x", floats({7}, {0, 1, 2, 3, 4, 5, 6})}});
        QCOMPARE(out.size(), std::size_t(3));
        QCOMPARE(valuesOf(out[0]), (std::vector<float>{0, 1, 2}));
        QCOMPARE(valuesOf(out[1]), (std::vector<float>{3, 4, 5}));
        QCOMPARE(valuesOf(out[2]), (std::vector<float>{6}));
        NodeModel wrong("Split", {"x"}, 2);
        wrong.input("x", onnx::TensorProto::FLOAT);
        wrong.intAttribute("num_outputs", 3);
        QVERIFY(wrong.error().find("num_outputs 3 differs from the node's 2 outputs") != std::string::npos);
    }

    void scatterNdMaxMin()
    {
        for (const auto &[how, expected] : {std::pair{std::string("max"), std::vector<float>{1, 5, 3, 9}},
                                            std::pair{std::string("min"), std::vector<float>{1, 2, 3, -1}}}) {
            NodeModel m("ScatterND", {"x", "i", "u"}, 1);
            m.input("x", onnx::TensorProto::FLOAT);
            m.constant("i", Tensor::fromVector<std::int64_t>({3, 1}, {1, 3, -1}));
            m.constant("u", floats({3}, {5, 9, -1}));
            m.stringAttribute("reduction", how);
            QCOMPARE(valuesOf(m.load().run({{"x", floats({4}, {1, 2, 3, 4})}})[0]), expected);
        }
        NodeModel old("ScatterND", {"x", "i", "u"}, 1, 16);
        old.input("x", onnx::TensorProto::FLOAT);
        old.constant("i", Tensor::fromVector<std::int64_t>({1, 1}, {0}));
        old.constant("u", floats({1}, {5}));
        old.stringAttribute("reduction", "max");
        QVERIFY2(old.error().find("ScatterND-16 has no reduction 'max'") != std::string::npos, old.error().c_str());
    }

    void unchangedOperatorsKeepTheirSchema()
    {
        NodeModel m("Add", {"a", "b"}, 1);
        m.input("a", onnx::TensorProto::FLOAT);
        m.input("b", onnx::TensorProto::FLOAT);
        QCOMPARE(valuesOf(m.load().run({{"a", floats({2}, {1, 2})}, {"b", floats({2}, {10, 20})}})[0]),
                 (std::vector<float>{11, 22}));
        bool reduceMean = false, add = false;
        for (const SupportedOperator &op : supportedOperators()) {
            if (op.name == "ReduceMean")
                reduceMean = op.lastOpset == 18 && op.versions.back() == 18;
            if (op.name == "Add")
                add = op.lastOpset == 18;
        }
        QVERIFY(reduceMean);
        QVERIFY(add);
        QCOMPARE(newestRunnableOpset(), 18);
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("opset");
        QTest::addColumn<QString>("domain");
        QTest::addColumn<QString>("expected");
        QTest::addRow("changed at 18, not run") << "Pad" << 18 << ""
                                                << "operator Pad is not supported";
        QTest::addRow("opset 19") << "Add" << 19 << ""
                                  << "the executor runs opsets up to 18";
        for (const char *contrib :
             {"GroupQueryAttention", "MatMulNBits", "SkipSimplifiedLayerNormalization", "RotaryEmbedding"})
            QTest::addRow("%s", contrib) << contrib << 17 << "com.microsoft"
                                         << QStringLiteral("operator com.microsoft.%1 is an ONNX Runtime contrib "
                                                           "operator")
                                                .arg(QLatin1String(contrib));
    }
    void refusals()
    {
        QFETCH(QString, op);
        QFETCH(int, opset);
        QFETCH(QString, domain);
        QFETCH(QString, expected);
        NodeModel m(op.toStdString(), {"a", "b"}, 1, opset, domain.toStdString());
        m.input("a", onnx::TensorProto::FLOAT);
        m.input("b", onnx::TensorProto::FLOAT);
        const std::string e = m.error();
        QVERIFY2(e.find(expected.toStdString()) != std::string::npos, e.c_str());
        QVERIFY2(e.find('\n') == std::string::npos, e.c_str());
        if (!domain.isEmpty())
            QVERIFY2(e.find("text-generation-with-past") != std::string::npos, e.c_str());
    }
    // onnxruntime-genai's builder writes a node before the contrib node it reads (the ONNX checker rejects that
    // order, ONNX Runtime sorts): the refusal still names the contrib operator, not the order.
    void contribBeforeOrder()
    {
        NodeModel m("Add", {"c", "a"}, 1, 14);
        m.input("a", onnx::TensorProto::FLOAT);
        m.input("b", onnx::TensorProto::FLOAT);
        auto *foreign = m.model.add_opset_import();
        foreign->set_domain("com.microsoft");
        foreign->set_version(1);
        auto *contrib = m.model.mutable_graph()->add_node();
        contrib->set_op_type("SkipSimplifiedLayerNormalization");
        contrib->set_domain("com.microsoft");
        contrib->set_name("norm");
        contrib->add_input("a");
        contrib->add_input("b");
        contrib->add_output("c");
        const std::string e = m.error();
        QVERIFY2(e.find("operator com.microsoft.SkipSimplifiedLayerNormalization is an ONNX Runtime contrib operator")
                     != std::string::npos,
                 e.c_str());
        QVERIFY2(e.find("node 'norm'") != std::string::npos, e.c_str());
        QVERIFY2(e.find("checker") == std::string::npos, e.c_str());
    }

    void gpt2AtOpset18MatchesPyTorch()
    {
        // tests/hf/make_models.py: the opset-14 GPT-2 with ReduceMean's axes as an input and Split by num_outputs.
        const std::string dir = SPECDEC_TEST_DATA_DIR "/hf/gpt2-op18/";
        OnnxGraph g = OnnxGraph::load(dir + "model.onnx");
        QCOMPARE(g.opset(), 18);
        onnx::TensorProto proto;
        QVERIFY(proto.ParseFromString(readWholeFile(dir + "reference/tokens.pb")));
        const Tensor tokens = tensorFromProto(proto, "tokens");
        QVERIFY(proto.ParseFromString(readWholeFile(dir + "reference/probs.pb")));
        const Tensor probs = tensorFromProto(proto, "probs");
        const std::int64_t T = tokens.dim(1), V = probs.dim(1);
        std::map<std::string, Tensor> in{{"input_ids", tokens},
                                         {"attention_mask", Tensor::zeros(DataType::Int64, {1, T})}};
        Tensor positions(DataType::Int64, {1, T});
        for (std::int64_t t = 0; t < T; ++t) {
            positions.mutableData<std::int64_t>()[t] = t;
            in["attention_mask"].mutableData<std::int64_t>()[t] = 1;
        }
        in["position_ids"] = positions;
        for (const ValueInfo &vi : g.inputs())
            if (vi.name.rfind("past_key_values.", 0) == 0)
                in[vi.name] = Tensor(DataType::Float32, {1, vi.shape[1].value, 0, vi.shape[3].value});
        const Tensor logits = g.run(in)[0];
        QCOMPARE(logits.shape(), (Shape{1, T, V}));
        double worst = 0;
        for (std::int64_t t = 0; t < T; ++t) {
            const float *z = logits.data<float>() + t * V;
            const double top = *std::max_element(z, z + V);
            double sum = 0;
            for (std::int64_t v = 0; v < V; ++v)
                sum += std::exp(z[v] - top);
            for (std::int64_t v = 0; v < V; ++v)
                worst = std::max(worst, std::abs(std::exp(z[v] - top) / sum - probs.data<float>()[t * V + v]));
        }
        qInfo("gpt2-op18: max |p - p_torch| = %.2e over %lld positions", worst, static_cast<long long>(T));
        QVERIFY(worst < 1e-4);
    }
};

QTEST_GUILESS_MAIN(TestOnnxOpset18)
#include "test_onnx_opset18.moc"
