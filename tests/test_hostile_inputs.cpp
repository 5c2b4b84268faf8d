// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile inputs found by sanitizers and fuzzing (issue 11): each one, made here, gives a clear one-line
// error and a non-zero exit status — no crash, no hang, no unbounded allocation, no sanitizer report.
// Models are written by small generators below, so every reproducer is readable in this file.
#include "Error.h"
#include "Experiment.h"
#include "NGramModel.h"
#include "Random.h"
#include "TestSupport.h"
#include "onnx/OnnxGraph.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/TensorProtoIo.h"
#include "onnx/ThreadPool.h"

#include <onnx/onnx_pb.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <fstream>
#include <thread>

using namespace specdec;
using namespace specdec::nn;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

struct Result
{
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

Result runCli(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"), arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), process.exitStatus() != QProcess::NormalExit,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

// A small ONNX model writer: a graph of nodes over int64 initializers.
class ModelWriter
{
public:
    explicit ModelWriter(int opset = 13)
    {
        m_model.set_ir_version(8);
        auto *import = m_model.add_opset_import();
        import->set_domain("");
        import->set_version(opset);
        m_model.mutable_graph()->set_name("hostile");
    }
    ModelWriter &int64s(const std::string &name, const std::vector<std::int64_t> &dims, const std::vector<std::int64_t> &values)
    {
        auto *t = m_model.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        for (std::int64_t d : dims)
            t->add_dims(d);
        for (std::int64_t v : values)
            t->add_int64_data(v);
        return *this;
    }
    ModelWriter &floats(const std::string &name, const std::vector<std::int64_t> &dims, const std::vector<float> &values)
    {
        auto *t = m_model.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        for (std::int64_t d : dims)
            t->add_dims(d);
        for (float v : values)
            t->add_float_data(v);
        return *this;
    }
    onnx::NodeProto &node(const std::string &op, const std::vector<std::string> &inputs, const std::vector<std::string> &outputs)
    {
        auto *n = m_model.mutable_graph()->add_node();
        n->set_op_type(op);
        for (const auto &i : inputs)
            n->add_input(i);
        for (const auto &o : outputs)
            n->add_output(o);
        return *n;
    }
    /// A tensor input or output; a dimension < 0 is symbolic ("d0", "d1", ...).
    ModelWriter &value(bool input, const std::string &name, int type, const std::vector<std::int64_t> &dims)
    {
        auto *vi = input ? m_model.mutable_graph()->add_input() : m_model.mutable_graph()->add_output();
        vi->set_name(name);
        auto *tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(type);
        auto *shape = tt->mutable_shape();
        for (std::size_t i = 0; i < dims.size(); ++i) {
            auto *d = shape->add_dim();
            if (dims[i] >= 0)
                d->set_dim_value(dims[i]);
            else
                d->set_dim_param("d" + std::to_string(i));
        }
        return *this;
    }
    ModelWriter &meta(const std::string &key, const std::string &value)
    {
        auto *p = m_model.add_metadata_props();
        p->set_key(key);
        p->set_value(value);
        return *this;
    }
    std::string bytes() const { return m_model.SerializeAsString(); }

private:
    onnx::ModelProto m_model;
};

// ConstantOfShape([2^62]) then Neg: 2^62 floats are 2^64 bytes, which wrapped to a 1-byte buffer.
std::string constantOfShape(std::int64_t elements)
{
    ModelWriter w;
    w.int64s("shape", {1}, {elements});
    w.node("ConstantOfShape", {"shape"}, {"c"});
    w.node("Neg", {"c"}, {"y"});
    w.value(false, "y", onnx::TensorProto::FLOAT, {elements});
    return w.bytes();
}

// "abc...l": twelve single-character tokens as the vocabulary metadata.
const char *kVocab = "[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\"]";

// A causal language model whose logits are a learned row per position: Gather(table, Range(0, T)).
// The table has `positions` rows, while the metadata claims `context`.
std::string positionTableModel(int positions, int context)
{
    ModelWriter w;
    std::vector<float> table(static_cast<std::size_t>(positions) * 12, 0.5f);
    w.floats("table", {positions, 12}, table);
    w.int64s("zero", {}, {0});
    w.int64s("one", {}, {1});
    w.int64s("axis0", {1}, {0});
    w.value(true, "tokens", onnx::TensorProto::INT64, {-1, -1});
    w.node("Shape", {"tokens"}, {"shape"});
    w.node("Gather", {"shape", "one"}, {"length"});
    w.node("Range", {"zero", "length", "one"}, {"positions"});
    w.node("Gather", {"table", "positions"}, {"rows"});
    w.node("Unsqueeze", {"rows", "axis0"}, {"logits"});
    w.value(false, "logits", onnx::TensorProto::FLOAT, {-1, -1, 12});
    w.meta("specdec.vocab", kVocab);
    w.meta("specdec.context_length", std::to_string(context));
    return w.bytes();
}

// The same contract-meeting shape, but the logits come from ConstantOfShape([2^62]): the load probe ran it.
std::string hugeContractModel()
{
    ModelWriter w;
    w.int64s("shape", {3}, {1, std::int64_t{1} << 31, std::int64_t{1} << 31});
    w.value(true, "tokens", onnx::TensorProto::INT64, {-1, -1});
    w.node("ConstantOfShape", {"shape"}, {"c"});
    w.node("Neg", {"c"}, {"n"});
    w.node("Identity", {"tokens"}, {"unused"});
    w.node("Identity", {"n"}, {"logits"});
    w.value(false, "logits", onnx::TensorProto::FLOAT, {-1, -1, 12});
    w.meta("specdec.vocab", kVocab);
    w.meta("specdec.context_length", "8");
    return w.bytes();
}

std::string errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const Error &e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestHostileInputs : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString file(const QString &name, const std::string &bytes)
    {
        const QString path = m_dir.filePath(name);
        writeFileAtomically(path.toStdString(), bytes);
        return path;
    }

    // The CLI fails with exit status != 0 and exactly one line "specdec: error: ..." containing `message`.
    void expectCliError(const QStringList &arguments, const QString &message)
    {
        const Result r = runCli(arguments);
        QVERIFY2(!r.crashed, qPrintable(r.err));
        QVERIFY2(r.exitCode != 0, qPrintable(r.out));
        QVERIFY2(r.err.startsWith(QStringLiteral("specdec: error: ")), qPrintable(r.err));
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    static QString tiny() { return QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt"); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // 1. add-k whose k V overflows: every row was zero and the draw returned token -1.
    void addKOverflowIsAnErrorAtLoad()
    {
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--target"),
                        QStringLiteral("ngram:1:addk=1e308"), QStringLiteral("--tokens"), QStringLiteral("5")},
                       QStringLiteral("not a finite, normalised distribution"));
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--draft"),
                        QStringLiteral("ngram:3:addk=1.7e308"), QStringLiteral("--tokens"), QStringLiteral("5")},
                       QStringLiteral("ngram:3:addk="));
        // A large k that does not overflow is still a proper (almost uniform) model.
        const Corpus corpus = test::tinyEnglish();
        const auto model = NGramModel::train(corpus.tokens(corpus.vocabulary), corpus.vocabulary,
                                             {2, Smoothing::AddK, 1e300});
        DistributionMatrix rows;
        model->distributions(std::vector<TokenId>{0, 1}, 3, rows);
        for (int r = 0; r < 3; ++r)
            QVERIFY(std::abs(rows.row(r).sum() - 1.0) < 1e-9);
    }

    // A draw from a distribution without mass is an error, never token id -1.
    void aDrawWithoutMassIsAnError()
    {
        Rng rng(1);
        QVERIFY(!errorOf([&] { rng.categorical(Eigen::VectorXd::Zero(4)); }).empty());
        QVERIFY(!errorOf([&] { rng.categorical(Eigen::VectorXd::Constant(4, std::nan(""))); }).empty());
    }

    // 2. A wrapping byte size: ConstantOfShape of 2^62 floats.
    void wrappingTensorSizeIsAnError()
    {
        const std::string bytes = constantOfShape(std::int64_t{1} << 62);
        QVERIFY2(bytes.size() < 200, "the reproducer is a tiny file");
        const std::string message = errorOf([&] { OnnxGraph::fromBytes(bytes, "cos.onnx").run(std::vector<Tensor>{}); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("more than 2^64 bytes")), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("ConstantOfShape")), message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
        // Element counts that overflow int64 are refused too.
        QVERIFY(!errorOf([] { Tensor(DataType::Float32, {std::int64_t{1} << 40, std::int64_t{1} << 40}); }).empty());
        // From the CLI: onnx-run, and a model meeting the contract whose load probe hit it.
        expectCliError({QStringLiteral("onnx-run"), file(QStringLiteral("cos.onnx"), bytes), QStringLiteral("--output-dir"),
                        m_dir.filePath(QStringLiteral("out"))},
                       QStringLiteral("ConstantOfShape"));
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--target"),
                        QStringLiteral("onnx:") + file(QStringLiteral("contract.onnx"), hugeContractModel())},
                       QStringLiteral("contract.onnx"));
    }

    // An initializer whose dims ask for exabytes but whose payload is empty: an error before allocating.
    void initializerDimsAreCheckedBeforeAllocating()
    {
        onnx::TensorProto proto;
        proto.set_data_type(onnx::TensorProto::FLOAT);
        proto.add_dims(std::int64_t{1} << 40);
        std::string message = errorOf([&] { tensorFromProto(proto, "big"); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("big: 0 values for shape")), message.c_str());
        proto.set_raw_data(std::string(8, '\0'));
        message = errorOf([&] { tensorFromProto(proto, "big"); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("raw_data holds 8 bytes")), message.c_str());
        proto.add_dims(std::int64_t{1} << 40); // 2^80 elements
        message = errorOf([&] { tensorFromProto(proto, "big"); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("too many elements")), message.c_str());
    }

    // 5. The bytes a model may allocate are capped: 24 GiB from one ConstantOfShape.
    void allocationsAreCapped()
    {
        const std::size_t before = tensorMemoryInUse();
        const std::string message = errorOf([] {
            OnnxGraph::fromBytes(constantOfShape(std::int64_t{6} << 30), "big.onnx").run(std::vector<Tensor>{});
        });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("models may allocate")), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("24.0 GiB")), message.c_str());
        QCOMPARE(tensorMemoryInUse(), before); // nothing leaked from the budget
        // The limit is a setting: a lower one refuses a 4 MiB tensor, the default allows it.
        const std::size_t limit = tensorMemoryLimit();
        setTensorMemoryLimit(std::size_t{1} << 20);
        QVERIFY(!errorOf([] { Tensor(DataType::Float32, {1 << 20}); }).empty());
        setTensorMemoryLimit(limit);
        QVERIFY(errorOf([] { Tensor(DataType::Float32, {1 << 20}); }).empty());
        QCOMPARE(tensorMemoryInUse(), before);
        // The setting from the environment, for the CLI and the window (the kjv target holds 5 MiB of weights).
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SPECDEC_MAX_MODEL_MEMORY"), QStringLiteral("1"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--target"),
                       QStringLiteral("onnx:" SPECDEC_SOURCE_DIR "/corpora/kjv/models/target.onnx"), QStringLiteral("--tokens"),
                       QStringLiteral("3")});
        process.waitForFinished(60000);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() != 0 && err.contains(QStringLiteral("1.0 MiB models may allocate")), qPrintable(err));
        env.insert(QStringLiteral("SPECDEC_MAX_MODEL_MEMORY"), QStringLiteral("lots"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--target"),
                       QStringLiteral("onnx:" SPECDEC_TEST_DATA_DIR "/onnx/tiny_transformer.onnx")});
        process.waitForFinished(60000);
        const QString err2 = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() != 0 && err2.contains(QStringLiteral("SPECDEC_MAX_MODEL_MEMORY")), qPrintable(err2));
        QCOMPARE(err2.count(QLatin1Char('\n')), 1);
    }

    // 3. Threads: a huge count is refused with the limit; a failed thread start is a clean error.
    void hugeThreadCountsAreRefused()
    {
        const QString limit = QString::number(ThreadPool::maxThreads());
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--threads"),
                        QStringLiteral("32444")},
                       QStringLiteral("threads must be between 0 (all cores) and ") + limit);
        expectCliError({QStringLiteral("onnx-run"), QStringLiteral(SPECDEC_TEST_DATA_DIR "/onnx/tiny_transformer.onnx"),
                        QStringLiteral("--threads"), QStringLiteral("100000"), QStringLiteral("--output-dir"),
                        m_dir.filePath(QStringLiteral("out"))},
                       QStringLiteral("at most ") + limit + QStringLiteral(" threads"));
        const QString session = file(QStringLiteral("threads.json"), R"({"format": "specdec-lab session", "version": 1,
            "setup": {"corpus": "kjv", "target": "ngram:3", "draft": "ngram:2", "prompt": "", "tokens": 5, "k": 4,
            "policy": "constant", "variant": "correct", "temperature": 1, "draft_temperature": 1, "top_k": 0,
            "top_p": 1, "seed": "1", "threads": 32444}})");
        expectCliError({QStringLiteral("run"), QStringLiteral("--session"), session}, QStringLiteral("threads must be between"));
        QVERIFY(!errorOf([] { ThreadPool pool(ThreadPool::maxThreads() + 1); }).empty());
        ThreadPool pool(ThreadPool::maxThreads());
        QCOMPARE(pool.threads(), ThreadPool::maxThreads());
    }

    void aFailedThreadStartIsAnError()
    {
        if (kSanitized)
            QSKIP("the sanitizers' own thread bookkeeping does not survive an address-space limit");
        // In a child process: an address-space limit just above what is mapped, so thread stacks fail.
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            std::ifstream statm("/proc/self/statm");
            long pages = 0;
            statm >> pages;
            const rlim_t now = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE));
            const rlimit limit{now + (rlim_t{16} << 20), now + (rlim_t{16} << 20)};
            setrlimit(RLIMIT_AS, &limit);
            int status = 1;
            try {
                ThreadPool pool(ThreadPool::maxThreads());
                status = 2; // every thread started: the limit did not bite
            } catch (const Error &e) {
                status = std::string(e.what()).find("could not start thread") != std::string::npos ? 0 : 3;
            }
            _exit(status);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status), "the child crashed or hung");
        if (WEXITSTATUS(status) == 2)
            QSKIP("this machine started all threads within 16 MiB");
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    // 4. Signed overflow in Slice (strides * step) and Reshape (known *= v).
    void sliceWithExtremeStepsIsExact()
    {
        ModelWriter w;
        w.int64s("starts", {2}, {0, -1});
        w.int64s("ends", {2}, {INT64_MAX, INT64_MIN});
        w.int64s("axes", {2}, {0, 1});
        w.int64s("steps", {2}, {INT64_MAX, INT64_MIN});
        w.value(true, "x", onnx::TensorProto::INT64, {3, 5});
        w.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"});
        w.value(false, "y", onnx::TensorProto::INT64, {-1, -1});
        OnnxGraph graph = OnnxGraph::fromBytes(w.bytes(), "slice.onnx");
        std::vector<std::int64_t> x(15);
        std::iota(x.begin(), x.end(), 0);
        const std::vector<Tensor> y = graph.run({Tensor::fromVector<std::int64_t>({3, 5}, x)});
        QCOMPARE(y[0].shape(), (Shape{1, 1}));
        QCOMPARE(y[0].intAt(0), std::int64_t{4}); // row 0, last column
    }

    void reshapeWithOverflowingDimensionsIsAnError()
    {
        ModelWriter w;
        w.int64s("shape", {3}, {std::int64_t{1} << 32, std::int64_t{1} << 32, -1});
        w.value(true, "x", onnx::TensorProto::FLOAT, {2});
        w.node("Reshape", {"x", "shape"}, {"y"});
        w.value(false, "y", onnx::TensorProto::FLOAT, {-1, -1, -1});
        OnnxGraph graph = OnnxGraph::fromBytes(w.bytes(), "reshape.onnx");
        const std::string message = errorOf([&] { graph.run({Tensor::fromVector<float>({2}, {1, 2})}); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("Reshape")), message.c_str());
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("out of range")), message.c_str());

        ModelWriter t;
        t.int64s("repeats", {1}, {INT64_MAX});
        t.value(true, "x", onnx::TensorProto::FLOAT, {2});
        t.node("Tile", {"x", "repeats"}, {"y"});
        t.value(false, "y", onnx::TensorProto::FLOAT, {-1});
        OnnxGraph tile = OnnxGraph::fromBytes(t.bytes(), "tile.onnx");
        QVERIFY(!errorOf([&] { tile.run({Tensor::fromVector<float>({2}, {1, 2})}); }).empty());
    }

    // 6. The ONNX checker writes several lines; the error is one.
    void checkerMessagesAreOneLine()
    {
        ModelWriter w;
        w.value(true, "x", onnx::TensorProto::FLOAT, {2});
        w.node("Neg", {"nowhere"}, {"y"});
        w.value(false, "y", onnx::TensorProto::FLOAT, {2});
        const std::string message = errorOf([&] { OnnxGraph::fromBytes(w.bytes(), "unsorted.onnx"); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("checker")), message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        expectCliError({QStringLiteral("onnx-run"), file(QStringLiteral("unsorted.onnx"), w.bytes()),
                        QStringLiteral("--output-dir"), m_dir.filePath(QStringLiteral("out"))},
                       QStringLiteral("checker"));
        QCOMPARE(oneLine("a\n\n  b \r\nc\n"), std::string("a; b; c"));
    }

    // 7. Minor ones.
    void sessionErrorsAreWrappedOnce()
    {
        const QString session = file(QStringLiteral("variant.json"), R"({"format": "specdec-lab session", "version": 1,
            "setup": {"corpus": "kjv", "target": "ngram:3", "draft": "ngram:2", "prompt": "", "tokens": 5, "k": 4,
            "policy": "constant", "variant": "bogus", "temperature": 1, "draft_temperature": 1, "top_k": 0,
            "top_p": 1, "seed": "1"}})");
        const Result r = runCli({QStringLiteral("run"), QStringLiteral("--session"), session});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains(QStringLiteral("unknown variant 'bogus'")), qPrintable(r.err));
        QCOMPARE(r.err.count(QStringLiteral("session file")), 1);
    }

    void sessionVersionAsTextIsNamed()
    {
        const QString session = file(QStringLiteral("version.json"), R"({"format": "specdec-lab session", "version": "1",
            "setup": {}})");
        expectCliError({QStringLiteral("run"), QStringLiteral("--session"), session},
                       QStringLiteral("'version' must be a number, got \"1\""));
        expectCliError({QStringLiteral("run"), QStringLiteral("--session"), QStringLiteral("/dev/zero")},
                       QStringLiteral("larger than 1 MiB"));
    }

    void negativeSeedIsRefused()
    {
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--seed"), QStringLiteral("-1")},
                       QStringLiteral("--seed expects a whole number from 0 to 18446744073709551615"));
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--seed"),
                        QStringLiteral("18446744073709551616")},
                       QStringLiteral("--seed"));
        const Result r = runCli({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--seed"),
                                  QStringLiteral("18446744073709551615"), QStringLiteral("--tokens"), QStringLiteral("5")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    void contextBeyondThePositionTableIsAnErrorAtLoad()
    {
        const QString fits = file(QStringLiteral("fits.onnx"), positionTableModel(8, 8));
        QVERIFY(errorOf([&] { OnnxLanguageModel::load(fits.toStdString(), 1); }).empty());
        const QString beyond = file(QStringLiteral("beyond.onnx"), positionTableModel(8, 32));
        const std::string message = errorOf([&] { OnnxLanguageModel::load(beyond.toStdString(), 1); });
        QVERIFY2(QString::fromStdString(message).contains(QStringLiteral("'specdec.context_length' is 32 but a window of that many tokens fails")),
                 message.c_str());
        QVERIFY(message.find('\n') == std::string::npos);
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), tiny(), QStringLiteral("--target"),
                        QStringLiteral("onnx:") + beyond},
                       QStringLiteral("context_length"));
    }

    void endlessCorpusIsCapped()
    {
        expectCliError({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("/dev/zero")},
                       QStringLiteral("larger than 256 MiB"));
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "test_hostile_inputs.moc"
