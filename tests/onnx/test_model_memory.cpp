// SPDX-License-Identifier: GPL-3.0-or-later
// The model memory limit (onnx/ModelMemory.h): its default follows the machine, a model's weights are checked
// against it before anything is read, and the packed weight matrices and mapped external data count against it
// like tensors do.
#include "TestSupport.h"
#include "onnx/Gemm.h"
#include "onnx/ModelMemory.h"
#include "onnx/OnnxGraph.h"

#include <onnx/onnx_pb.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

#include <fstream>

using namespace specdec;
using namespace specdec::nn;

namespace {

/// A model whose one initializer, float32 of `elements` values, lies in an external file "w.bin" (which need
/// not exist): Identity(w) -> y.
std::string externalWeightModel(std::int64_t elements)
{
    onnx::ModelProto model;
    model.set_ir_version(8);
    model.add_opset_import()->set_version(13);
    onnx::GraphProto *graph = model.mutable_graph();
    graph->set_name("g");
    onnx::TensorProto *w = graph->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(elements);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    const std::string key = "location", file = "w.bin";
    onnx::StringStringEntryProto *location = w->add_external_data();
    location->set_key(key);
    location->set_value(file);
    onnx::NodeProto *node = graph->add_node();
    node->set_op_type("Identity");
    node->add_input(std::string("w"));
    node->add_output(std::string("y"));
    onnx::ValueInfoProto *y = graph->add_output();
    y->set_name("y");
    y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    y->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(elements);
    return model.SerializeAsString();
}

std::string errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const std::exception &e) {
        return e.what();
    }
    return {};
}

/// Sets the limit for one scope and puts the previous one back.
struct LimitScope
{
    std::size_t previous = tensorMemoryLimit();
    explicit LimitScope(std::size_t bytes) { setTensorMemoryLimit(bytes); }
    ~LimitScope() { setTensorMemoryLimit(previous); }
};

} // namespace

class TestModelMemory : public QObject
{
    Q_OBJECT

private slots:
    // Without the setting the limit is 3/4 of this machine's memory, and a message says so; a model whose weights
    // need more is refused from its declared shapes, before a byte of them is read (here 4 TiB in a file that
    // does not exist).
    void defaultFollowsTheMachine()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("huge.onnx"));
        {
            std::ofstream out(path.toStdString(), std::ios::binary);
            out << externalWeightModel(std::int64_t{1} << 40);
        }
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("SPECDEC_MAX_MODEL_MEMORY"));
        process.setProcessEnvironment(env);
        process.start(
            QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
            {QStringLiteral("onnx-run"), path, QStringLiteral("--output-dir"), dir.filePath(QStringLiteral("o"))});
        QVERIFY(process.waitForFinished(60000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() != 0, qPrintable(err));
        QCOMPARE(err.count(QLatin1Char('\n')), 1);
        QVERIFY2(err.contains(QStringLiteral("loading its weights needs 4.0 TiB")), qPrintable(err));
        const double machine = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
        QVERIFY2(err.contains(QStringLiteral("3/4 of this machine's ") + QString::fromStdString(formatBytes(machine))),
                 qPrintable(err));
        QVERIFY2(err.contains(QString::fromStdString(
                     formatBytes(static_cast<double>(static_cast<std::size_t>(machine) / 4 * 3)))),
                 qPrintable(err));
    }

    // In the process: the weights are checked against what is left of the limit, and nothing stays counted.
    void weightsAreCheckedBeforeLoading()
    {
        const LimitScope scope(std::size_t{64} << 20);
        const std::size_t before = tensorMemoryInUse();
        const std::string message = errorOf(
            [] { OnnxGraph::fromBytes(externalWeightModel(std::int64_t{1} << 25), "m.onnx"); });
        QVERIFY2(
            QString::fromStdString(message).startsWith(QStringLiteral("m.onnx: loading its weights needs 128.0 MiB")),
            message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("64.0 MiB")), message.c_str());
        QCOMPARE(tensorMemoryInUse(), before);
        // Within the limit the check passes, and the load stops where the weights are read (no file).
        const std::string absent = errorOf([] { OnnxGraph::fromBytes(externalWeightModel(1024), "m.onnx"); });
        QVERIFY2(QString::fromStdString(absent).contains(QStringLiteral("not read from a file")), absent.c_str());
        QCOMPARE(tensorMemoryInUse(), before);
    }

    // A packed matrix holds its bytes against the limit until it is gone.
    void packedWeightsCount()
    {
        const std::size_t before = tensorMemoryInUse();
        std::vector<float> w(512 * 256, 0.5f);
        {
            const PackedMatrix packed(w.data(), 512, 256, 256, 1);
            QVERIFY(tensorMemoryInUse() >= before + 512 * 256 * sizeof(float));
        }
        QCOMPARE(tensorMemoryInUse(), before);
        const LimitScope scope(before + (std::size_t{256} << 10));
        const std::string message = errorOf([&] { PackedMatrix(w.data(), 512, 256, 256, 1); });
        QVERIFY2(QString::fromStdString(message).contains(
                     QStringLiteral("a packed 512 x 256 weight matrix needs 512.0 KiB")),
                 message.c_str());
        QCOMPARE(tensorMemoryInUse(), before);
    }

    // A Hugging Face folder's model.onnx_data is mapped, not copied; the mapping counts against the limit, and a
    // limit below it is one line naming the file.
    void mappedExternalDataCounts()
    {
        const std::string model = SPECDEC_SOURCE_DIR "/tests/data/hf/llama-op17-external/onnx/model.onnx";
        const auto mapped = static_cast<std::size_t>(
            QFileInfo(QString::fromStdString(model) + QStringLiteral("_data")).size());
        QVERIFY(mapped > 0);
        const std::size_t before = tensorMemoryInUse();
        {
            const OnnxGraph graph = OnnxGraph::load(model);
            QVERIFY(tensorMemoryInUse() >= before + mapped);
        }
        QCOMPARE(tensorMemoryInUse(), before);
        const LimitScope scope(before + mapped / 2);
        const std::string message = errorOf([&] { OnnxGraph::load(model); });
        QVERIFY2(!message.empty(), "a limit below the mapped file loaded it");
        QCOMPARE(QString::fromStdString(message).count(QLatin1Char('\n')), 0);
        QCOMPARE(tensorMemoryInUse(), before);
    }
};

QTEST_GUILESS_MAIN(TestModelMemory)
#include "test_model_memory.moc"
