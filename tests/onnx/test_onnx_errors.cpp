// SPDX-License-Identifier: GPL-3.0-or-later
// Every way a model file can be wrong gives a clear specdec::Error naming the file and the problem —
// never a crash: missing, empty, garbage and truncated files, unsupported operators, and models that
// break the contract of docs/model-format.md (metadata, output shape, causality, inputs).
#include "Error.h"
#include "onnx/ElementTypes.h"
#include "onnx/OnnxGraph.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/Operator.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace specdec;
using namespace specdec::nn;

namespace {

const std::string kDir = SPECDEC_TEST_DATA_DIR "/onnx/";

// The message of the Error that loading `path` as a language model throws ("" if it loads).
std::string loadError(const std::string &path)
{
    try {
        OnnxLanguageModel::load(path, 1);
    } catch (const Error &e) {
        return e.what();
    }
    return {};
}

// tiny_transformer.onnx with its metadata changed: `value` empty removes the key.
std::string withMetadata(const QTemporaryDir &dir, const std::string &key, const std::string &value)
{
    onnx::ModelProto model;
    const std::string bytes = readWholeFile(kDir + "tiny_transformer.onnx");
    if (!model.ParseFromString(bytes))
        throw Error("cannot parse the test model");
    auto *props = model.mutable_metadata_props();
    for (int i = props->size() - 1; i >= 0; --i)
        if (props->Get(i).key() == key)
            props->DeleteSubrange(i, 1);
    if (!value.empty()) {
        auto *p = model.add_metadata_props();
        p->set_key(key);
        p->set_value(value);
    }
    const std::string path = dir.filePath(QString::fromStdString(key + ".onnx")).toStdString();
    writeFileAtomically(path, model.SerializeAsString());
    return path;
}

const char *kVocab12 =
    "[\"\\n\",\" \",\"\\\"\",\"\\\\\",\"a\",\"b\",\"c\",\"é\",\"中\",\"文\",\"\\ud83d\\ude00\",\"/\"]";

} // namespace

class TestOnnxErrors : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    std::string writeFile(const std::string &name, const std::string &bytes)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        writeFileAtomically(path, bytes);
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Element types without ONNX's inference functions (ElementTypes.h): a type constraint shared with an input
    // (Where's T from x, not from the bool condition), a constraint of one type (Shape, Equal), a fixed type
    // (TopK's indices), the type an attribute names (Cast, ConstantOfShape, Constant), and a declared type kept.
    void elementTypesFollowTheSchemas()
    {
        onnx::GraphProto g;
        auto input = [&](const char *name, int type) {
            auto *vi = g.add_input();
            vi->set_name(name);
            vi->mutable_type()->mutable_tensor_type()->set_elem_type(type);
        };
        input("x", onnx::TensorProto::DOUBLE);
        input("k", onnx::TensorProto::INT64);
        auto node = [&](const char *op, std::vector<std::string> in, std::vector<std::string> out) {
            auto *n = g.add_node();
            n->set_op_type(op);
            for (const auto &i : in)
                n->add_input(i);
            for (const auto &o : out)
                n->add_output(o);
            return n;
        };
        node("Shape", {"x"}, {"shape"});
        auto *cast = node("Cast", {"shape"}, {"cast"});
        auto *to = cast->add_attribute();
        to->set_name("to");
        to->set_type(onnx::AttributeProto::INT);
        to->set_i(onnx::TensorProto::FLOAT16);
        node("Equal", {"x", "x"}, {"equal"});
        node("Where", {"equal", "x", "x"}, {"where"});
        node("TopK", {"x", "k"}, {"values", "indices"});
        auto *fill = node("ConstantOfShape", {"shape"}, {"filled"});
        auto *value = fill->add_attribute();
        value->set_name("value");
        value->set_type(onnx::AttributeProto::TENSOR);
        value->mutable_t()->set_data_type(onnx::TensorProto::INT32);
        value->mutable_t()->add_dims(1);
        value->mutable_t()->add_int32_data(7);
        node("ConstantOfShape", {"shape"}, {"zeros"});
        auto *ints = node("Constant", {}, {"ints"})->add_attribute();
        ints->set_name("value_ints");
        ints->set_type(onnx::AttributeProto::INTS);
        ints->add_ints(1);
        node("Neg", {"x"}, {"declared"});
        auto *declared = g.add_value_info();
        declared->set_name("declared");
        declared->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT8);
        node("NoSuchOperator", {"x"}, {"unknown"});

        const auto types = elementTypes(g, [](const onnx::NodeProto &n) {
            return onnx::OpSchemaRegistry::Schema(n.op_type(), 17, onnx::ONNX_DOMAIN);
        });
        auto typeOf = [&](const char *name) {
            const auto it = types.find(name);
            return it == types.end() ? 0 : it->second;
        };
        QCOMPARE(typeOf("shape"), int(onnx::TensorProto::INT64));
        QCOMPARE(typeOf("cast"), int(onnx::TensorProto::FLOAT16));
        QCOMPARE(typeOf("equal"), int(onnx::TensorProto::BOOL));
        QCOMPARE(typeOf("where"), int(onnx::TensorProto::DOUBLE));
        QCOMPARE(typeOf("values"), int(onnx::TensorProto::DOUBLE));
        QCOMPARE(typeOf("indices"), int(onnx::TensorProto::INT64));
        QCOMPARE(typeOf("filled"), int(onnx::TensorProto::INT32));
        QCOMPARE(typeOf("zeros"), int(onnx::TensorProto::FLOAT));
        QCOMPARE(typeOf("ints"), int(onnx::TensorProto::INT64));
        QCOMPARE(typeOf("declared"), int(onnx::TensorProto::INT8));
        QCOMPARE(typeOf("unknown"), 0);
        QCOMPARE(dataTypeOfTypeString("tensor(bfloat16)"), int(onnx::TensorProto::BFLOAT16));
        QCOMPARE(dataTypeOfTypeString("seq(tensor(float))"), 0);
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::addRow("missing") << QStringLiteral("missing") << QStringLiteral("cannot open");
        QTest::addRow("empty") << QStringLiteral("empty") << QStringLiteral("empty");
        QTest::addRow("garbage") << QStringLiteral("garbage") << QStringLiteral("not an ONNX model");
        QTest::addRow("text") << QStringLiteral("text") << QStringLiteral("not an ONNX model");
        QTest::addRow("truncated half") << QStringLiteral("half") << QStringLiteral("truncated");
        QTest::addRow("truncated 100 bytes") << QStringLiteral("100") << QStringLiteral("not an ONNX model");
        QTest::addRow("directory") << QStringLiteral("directory") << QStringLiteral("directory");
    }
    void badFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        const std::string model = readWholeFile(kDir + "tiny_transformer.onnx");
        std::string path;
        if (kind == QStringLiteral("missing"))
            path = m_dir.filePath(QStringLiteral("no-such-model.onnx")).toStdString();
        else if (kind == QStringLiteral("empty"))
            path = writeFile("empty.onnx", "");
        else if (kind == QStringLiteral("garbage")) {
            std::string bytes(4096, '\0');
            for (std::size_t i = 0; i < bytes.size(); ++i)
                bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
            path = writeFile("garbage.onnx", bytes);
        } else if (kind == QStringLiteral("text"))
            path = writeFile("text.onnx", "this is a text file, not a model\n");
        else if (kind == QStringLiteral("half"))
            path = writeFile("half.onnx", model.substr(0, model.size() / 2));
        else if (kind == QStringLiteral("100"))
            path = writeFile("short.onnx", model.substr(0, 100));
        else
            path = m_dir.path().toStdString();
        const std::string message = loadError(path);
        QVERIFY2(!message.empty(), "the bad file loaded");
        const QString text = QString::fromStdString(message);
        QVERIFY2(text.startsWith(QString::fromStdString(path)), message.c_str());
        QVERIFY2(text.contains(expected), message.c_str());
    }

    // Cutting the file anywhere must never crash: an Error (or, rarely, a still-valid prefix).
    void everyTruncationIsAnErrorNotACrash()
    {
        const std::string model = readWholeFile(kDir + "tiny_transformer.onnx");
        int errors = 0;
        for (std::size_t cut = 0; cut < model.size(); cut += 397) {
            try {
                OnnxGraph::fromBytes(model.substr(0, cut), "cut.onnx");
            } catch (const Error &e) {
                ++errors;
                QVERIFY2(QString::fromUtf8(e.what()).startsWith(QStringLiteral("cut.onnx: ")), e.what());
            }
        }
        QVERIFY(errors > 0);
    }

    void unsupportedOperatorNamesNodeOperatorAndOpset()
    {
        try {
            OnnxGraph::load(kDir + "unsupported_op.onnx");
            QFAIL("Einsum was accepted");
        } catch (const UnsupportedError &e) {
            QCOMPARE(e.kind(), UnsupportedError::Kind::Operator);
            const QString text = QString::fromUtf8(e.what());
            for (const char *part : {"unsupported_op.onnx", "'outer_product'", "Einsum", "opset 13"})
                QVERIFY2(text.contains(QString::fromUtf8(part)), e.what());
        }
    }

    void contractViolations_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no vocab") << QStringLiteral("specdec.vocab") << QString() << QStringLiteral("no 'specdec.vocab'");
        QTest::addRow("vocab not JSON") << QStringLiteral("specdec.vocab") << QStringLiteral("[\"a\", b]")
                                        << QStringLiteral("invalid JSON at byte 6");
        QTest::addRow("vocab unterminated")
            << QStringLiteral("specdec.vocab") << QStringLiteral("[\"a\"") << QStringLiteral("invalid JSON");
        QTest::addRow("lone surrogate") << QStringLiteral("specdec.vocab") << QStringLiteral("[\"\\ud83d\"]")
                                        << QStringLiteral("surrogate");
        QTest::addRow("vocab too short") << QStringLiteral(
            "specdec.vocab") << QStringLiteral("[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]")
                                         << QStringLiteral("lists 11 tokens");
        QTest::addRow("multi-character token")
            << QStringLiteral("specdec.vocab")
            << QStringLiteral("[\"ab\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\"]")
            << QStringLiteral("single-character tokens");
        QTest::addRow("duplicate token") << QStringLiteral(
            "specdec.vocab") << QStringLiteral("[\"a\",\"a\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\"]")
                                         << QStringLiteral("twice");
        QTest::addRow("no context") << QStringLiteral("specdec.context_length") << QString()
                                    << QStringLiteral("no 'specdec.context_length'");
        QTest::addRow("bad context") << QStringLiteral("specdec.context_length") << QStringLiteral("128k")
                                     << QStringLiteral("expected a positive integer");
        QTest::addRow("zero context") << QStringLiteral("specdec.context_length") << QStringLiteral("0")
                                      << QStringLiteral("expected a positive integer");
    }
    void contractViolations()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const std::string path = withMetadata(m_dir, key.toStdString(), value.toStdString());
        const std::string message = loadError(path);
        QVERIFY2(!message.empty(), "the model loaded");
        QVERIFY2(QString::fromStdString(message).startsWith(QString::fromStdString(path)), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(expected), message.c_str());
    }

    void theUnchangedVocabularyLoads() { QVERIFY(loadError(withMetadata(m_dir, "specdec.vocab", kVocab12)).empty()); }

    void nonCausalModelIsRejected()
    {
        const std::string message = loadError(kDir + "noncausal.onnx");
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("not causal")), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("noncausal.onnx")), message.c_str());
    }

    void lastPositionOnlyModelIsRejected()
    {
        const std::string message = loadError(kDir + "last_position.onnx");
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("[batch, sequence, vocabulary]")),
                 message.c_str());
    }

    void modelWithOtherInputsIsRejected()
    {
        const std::string message = loadError(kDir + "unsupported_op.onnx");
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("Einsum")), message.c_str());
        // A valid graph that is not a language model: float input, no metadata.
        const std::string path = withMetadata(m_dir, "specdec.vocab", kVocab12);
        QVERIFY(loadError(path).empty());
    }

    void runtimeInputErrorsNameTheInput()
    {
        OnnxGraph graph = OnnxGraph::load(kDir + "tiny_transformer.onnx");
        try {
            graph.run({Tensor::fromVector<float>({1, 2}, {1.0f, 2.0f})});
            QFAIL("float tokens were accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("input 'tokens' must be int64")), e.what());
        }
        try {
            graph.run(std::map<std::string, Tensor>{});
            QFAIL("a missing input was accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("'tokens'")), e.what());
        }
        // A token id beyond the embedding table is an error of the Gather node, not a crash.
        try {
            graph.run({Tensor::fromVector<std::int64_t>({1, 2}, {1, 99})});
            QFAIL("an out-of-range token was accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("Gather")), e.what());
        }
    }

    void badTensorFiles()
    {
        const std::string garbage = writeFile("garbage.pb", std::string("\xff\xff\xff\xff garbage", 12));
        QVERIFY_THROWS_EXCEPTION(Error, readTensorFile(garbage));
        onnx::TensorProto proto;
        proto.set_data_type(onnx::TensorProto::FLOAT);
        proto.add_dims(3);
        proto.set_raw_data(std::string(8, '\0')); // 2 floats for 3 elements
        const std::string shortRaw = writeFile("short.pb", proto.SerializeAsString());
        try {
            readTensorFile(shortRaw);
            QFAIL("a short raw_data was accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("raw_data holds 8 bytes")), e.what());
        }
        proto.set_data_type(onnx::TensorProto::FLOAT16);
        const std::string half = writeFile("half.pb", proto.SerializeAsString());
        try {
            readTensorFile(half);
            QFAIL("float16 was accepted");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("float16")), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnxErrors)
#include "test_onnx_errors.moc"
