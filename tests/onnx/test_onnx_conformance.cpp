// SPDX-License-Identifier: GPL-3.0-or-later
// Conformance of the ONNX executor against the official ONNX backend test data (libonnx-testdata):
// every case whose operators, attributes and element types the loader accepts is run on each of its
// test_data_set_* directories and compared with the expected outputs (rtol 1e-4, atol 1e-5; NaN equals
// NaN; integers and booleans exactly). Cases the loader rejects, or that conformance-skips.txt lists,
// are counted as skipped with their reason.
#include "Error.h"
#include "onnx/OnnxGraph.h"
#include "onnx/Operator.h"
#include "onnx/TensorProtoIo.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace specdec;
using namespace specdec::nn;
namespace fs = std::filesystem;

namespace {

constexpr int kMinimumCasesRun = 250; // the suite must not pass by skipping everything
constexpr double kRtol = 1e-4;
constexpr double kAtol = 1e-5;

std::map<std::string, std::string> readSkipList()
{
    std::map<std::string, std::string> skips;
    std::ifstream in(SPECDEC_ONNX_SKIP_LIST);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string name, reason;
        fields >> name;
        std::getline(fields >> std::ws, reason);
        if (!name.empty())
            skips[name] = reason;
    }
    return skips;
}

// Empty when equal, else what differs.
std::string compareTensors(const Tensor &expected, const Tensor &actual)
{
    if (expected.type() != actual.type() || expected.shape() != actual.shape())
        return "expected " + expected.describe() + ", got " + actual.describe();
    const bool floating = expected.type() == DataType::Float32 || expected.type() == DataType::Float64;
    for (std::int64_t i = 0; i < expected.size(); ++i) {
        const double e = expected.doubleAt(i), a = actual.doubleAt(i);
        bool ok = e == a;
        if (!ok && floating) {
            if (std::isnan(e) || std::isnan(a))
                ok = std::isnan(e) && std::isnan(a);
            else if (!std::isinf(e) && !std::isinf(a))
                ok = std::abs(a - e) <= kAtol + kRtol * std::abs(e);
        }
        if (!ok) {
            std::ostringstream s;
            s.precision(9);
            s << "element " << i << ": expected " << e << ", got " << a;
            return s.str();
        }
    }
    return {};
}

std::vector<fs::path> sortedEntries(const fs::path &dir, const std::string &prefix)
{
    std::vector<fs::path> result;
    for (const auto &entry : fs::directory_iterator(dir))
        if (entry.path().filename().string().rfind(prefix, 0) == 0)
            result.push_back(entry.path());
    // input_10 after input_9: order by the number after the prefix.
    std::sort(result.begin(), result.end(), [&](const fs::path &a, const fs::path &b) {
        const auto number = [&](const fs::path &p) { return std::atoi(p.stem().string().c_str() + prefix.size()); };
        return number(a) < number(b);
    });
    return result;
}

} // namespace

class TestOnnxConformance : public QObject
{
    Q_OBJECT
private:
    std::map<std::string, std::string> m_skipList;
    std::map<std::string, int> m_skippedByReason;
    int m_ran = 0;
    int m_passed = 0;
    int m_skipped = 0;

private slots:
    void initTestCase()
    {
        m_skipList = readSkipList();
        QVERIFY2(!m_skipList.empty(), "the skip list " SPECDEC_ONNX_SKIP_LIST " is missing or empty");
        QVERIFY2(fs::is_directory(SPECDEC_ONNX_TESTDATA_DIR "/node"),
                 "install libonnx-testdata: " SPECDEC_ONNX_TESTDATA_DIR "/node is missing");
    }

    void nodeCase_data()
    {
        QTest::addColumn<QString>("dir");
        std::vector<fs::path> dirs;
        for (const auto &entry : fs::directory_iterator(SPECDEC_ONNX_TESTDATA_DIR "/node"))
            if (entry.is_directory() && entry.path().filename().string().rfind("test_", 0) == 0)
                dirs.push_back(entry.path());
        std::sort(dirs.begin(), dirs.end());
        for (const fs::path &dir : dirs)
            QTest::newRow(dir.filename().string().c_str()) << QString::fromStdString(dir.string());
    }

    void nodeCase()
    {
        QFETCH(QString, dir);
        const fs::path caseDir(dir.toStdString());
        const std::string name = caseDir.filename().string();
        if (const auto it = m_skipList.find(name); it != m_skipList.end()) {
            ++m_skipped;
            ++m_skippedByReason["listed in conformance-skips.txt"];
            return;
        }
        std::optional<OnnxGraph> graph;
        try {
            graph.emplace(OnnxGraph::load((caseDir / "model.onnx").string()));
        } catch (const UnsupportedError &e) {
            ++m_skipped;
            ++m_skippedByReason[std::string(UnsupportedError::kindName(e.kind()))];
            return;
        } catch (const Error &e) {
            QFAIL(e.what());
        }
        ++m_ran;
        for (const fs::path &set : sortedEntries(caseDir, "test_data_set_")) {
            std::vector<Tensor> inputs;
            for (const fs::path &file : sortedEntries(set, "input_"))
                inputs.push_back(readTensorFile(file.string()));
            std::vector<Tensor> outputs;
            try {
                outputs = graph->run(inputs);
            } catch (const Error &e) {
                QFAIL(qPrintable(QString::fromStdString(set.filename().string() + ": " + e.what())));
            }
            const std::vector<fs::path> expectedFiles = sortedEntries(set, "output_");
            QCOMPARE(outputs.size(), expectedFiles.size());
            for (std::size_t k = 0; k < expectedFiles.size(); ++k) {
                const std::string diff = compareTensors(readTensorFile(expectedFiles[k].string()), outputs[k]);
                QVERIFY2(diff.empty(),
                         qPrintable(QString::fromStdString(set.filename().string() + " output '"
                                                           + graph->outputs()[k].name + "': " + diff)));
            }
        }
        ++m_passed;
    }

    void summary()
    {
        std::string reasons;
        for (const auto &[reason, count] : m_skippedByReason)
            reasons += (reasons.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
        const std::string line = "ONNX conformance: ran " + std::to_string(m_ran) + ", passed "
            + std::to_string(m_passed) + ", skipped " + std::to_string(m_skipped) + " (" + reasons + ")";
        qInfo("%s", line.c_str());
        QCOMPARE(m_passed, m_ran);
        QVERIFY2(m_ran >= kMinimumCasesRun, qPrintable(QStringLiteral("only %1 cases ran").arg(m_ran)));
    }
};

QTEST_GUILESS_MAIN(TestOnnxConformance)
#include "test_onnx_conformance.moc"
