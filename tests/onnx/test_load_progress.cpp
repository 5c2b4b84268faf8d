// SPDX-License-Identifier: GPL-3.0-or-later
// Load progress (base/LoadProgress.h): a model's load is told as fractions that never go back and end at 1 exactly,
// a few of them (every 1 % or 50 ms at most) measured by the bytes of weights read and consumed (an n-gram's by its
// passes over the corpus); a pair's target and draft are parts in proportion to their expected work.
#include "Experiment.h"
#include "LoadProgress.h"
#include "TestSupport.h"
#include "onnx/OnnxLanguageModel.h"

#include <QtTest>

#include <thread>
#include <vector>

using namespace specdec;

namespace {

std::string shippedModel(const char *file)
{
    return std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/" + file;
}

std::string hfFolder(const char *name)
{
    return std::string(SPECDEC_TEST_DATA_DIR) + "/hf/" + name;
}

/// Fails the test unless `told` is a load's progress: in [0, 1], non-decreasing, the last 1 exactly.
void checkProgress(const std::vector<double> &told)
{
    QVERIFY(!told.empty());
    for (std::size_t i = 0; i < told.size(); ++i) {
        QVERIFY2(told[i] >= 0.0 && told[i] <= 1.0, qPrintable(QString::number(told[i])));
        if (i > 0)
            QVERIFY2(told[i] > told[i - 1], qPrintable(QStringLiteral("%1 after %2").arg(told[i]).arg(told[i - 1])));
    }
    QCOMPARE(told.back(), 1.0);
}

/// Loads the pair `target` + `draft` on kjv (one thread) and returns what its progress told, checked by
/// checkProgress; `threads`, when given, the threads that told each fraction.
std::vector<double> loadPair(const std::string &target, const std::string &draft,
                             std::vector<std::thread::id> *threads = nullptr)
{
    Setup setup;
    setup.corpus = "kjv";
    setup.target = target;
    setup.draft = draft;
    setup.prompt = "In the beginning";
    setup.threads = 1;
    std::vector<double> told;
    const auto experiment = Experiment::load(setup, test::builtCorpora(), true, LoadProgress([&](double f) {
                                                 told.push_back(f);
                                                 if (threads)
                                                     threads->push_back(std::this_thread::get_id());
                                             }));
    if (!experiment)
        qFatal("no experiment");
    checkProgress(told);
    return told;
}

int countBetween(const std::vector<double> &told, double from, double to)
{
    int n = 0;
    for (double f : told)
        n += f > from && f < to;
    return n;
}

} // namespace

class TestLoadProgress : public QObject
{
    Q_OBJECT
private slots:
    void partsMapAndThrottle()
    {
        std::vector<double> told;
        const LoadProgress whole([&](double f) { told.push_back(f); });
        const LoadProgress second = whole.part(0.5, 1.0);
        whole.part(0.0, 0.5).report(0.5); // 0.25 of the whole
        QCOMPARE(told.size(), std::size_t(1));
        QCOMPARE(told.back(), 0.25);
        whole.report(0.1); // behind what was told: not told
        QCOMPARE(told.size(), std::size_t(1));
        for (int i = 1; i <= 1000; ++i) // a thousand small steps to 3/4: at most one told a 1 %
            second.report(i / 2000.0);
        QVERIFY2(told.size() <= 1 + 51, qPrintable(QString::number(told.size())));
        QVERIFY(told.size() > 2);
        second.part(0.0, 0.5).finish(); // a part's end is always told
        QCOMPARE(told.back(), 0.75);
        second.finish();
        checkProgress(told);
        const std::size_t n = told.size();
        whole.finish(); // told once
        QCOMPARE(told.size(), n);
        LoadProgress().report(0.5); // tells no one
    }

    void concurrentPartsAddUp()
    {
        // Parts loaded side by side: the whole hears their weighted sum, a part's end at once, 1 when all end.
        std::vector<double> told;
        const LoadProgress whole([&](double f) { told.push_back(f); });
        std::vector<LoadProgress> parts = whole.part(0.0, 0.5).concurrentParts({3.0, 1.0});
        QCOMPARE(parts.size(), std::size_t(2));
        parts[1].report(0.5); // 1/4 · 0.5 of the first half
        QCOMPARE(told.back(), 0.0625);
        parts[0].report(0.5); // + 3/4 · 0.5
        QCOMPARE(told.back(), 0.25);
        parts[1].finish(); // 3/4 · 0.5 + 1/4, told at once
        QCOMPARE(told.back(), 0.3125);
        parts[0].finish(); // every part has ended: the half is told exactly
        QCOMPARE(told.back(), 0.5);
        whole.part(0.5, 1.0).finish();
        checkProgress(told);

        // Two threads reporting a thousand fractions each: what is told still never goes back and ends at 1.
        std::vector<double> both;
        const LoadProgress pair([&](double f) { both.push_back(f); });
        std::vector<LoadProgress> halves = pair.concurrentParts({1.0, 1.0});
        auto run = [](const LoadProgress &part) {
            for (int i = 1; i <= 1000; ++i)
                part.report(i / 1000.0);
        };
        std::thread other(run, halves[1]);
        run(halves[0]);
        other.join();
        checkProgress(both);
        QVERIFY(LoadProgress().concurrentParts({1.0, 2.0}).size() == 2); // tells no one
    }

    void shippedModelByItsWeights()
    {
        // target-large: 22,475,583 parameters stored as float16, widened at load (Cast) and packed.
        std::vector<double> told;
        const auto model = OnnxLanguageModel::load(shippedModel("target-large.onnx"), 1,
                                                   LoadProgress([&](double f) { told.push_back(f); }));
        QVERIFY(model);
        checkProgress(told);
        // The weights (a tenth to nine tenths of the graph's part) are told on the way, not only the ends.
        const double graph = OnnxLanguageModel::kGraphShare;
        QVERIFY2(countBetween(told, 0.1 * graph, graph) >= 10, qPrintable(QString::number(told.size())));
        QVERIFY2(told.size() <= 110, qPrintable(QString::number(told.size())));
        // The probes of the contract (causality, batch, context, cache) in the rest.
        QVERIFY2(countBetween(told, graph, 1.0) >= 3, qPrintable(QString::number(countBetween(told, graph, 1.0))));
        // A tiny draft still ends at 1.
        std::vector<double> tiny;
        OnnxLanguageModel::load(shippedModel("draft-tiny.onnx"), 1, LoadProgress([&](double f) { tiny.push_back(f); }));
        checkProgress(tiny);
        qInfo("target-large: %zu fractions told, draft-tiny: %zu", told.size(), tiny.size());
    }

    void hfFolders_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("llama-large-op17") << QStringLiteral("llama-large-op17");
        QTest::addRow("qwen2-op14-fp16") << QStringLiteral("qwen2-op14-fp16");
        QTest::addRow("llama-op17-external") << QStringLiteral("llama-op17-external");
    }
    void hfFolders()
    {
        QFETCH(QString, name);
        std::vector<double> told;
        const auto model = OnnxLanguageModel::loadFolder(hfFolder(qPrintable(name)), 1,
                                                         OnnxLanguageModel::kDefaultFolderContext,
                                                         LoadProgress([&](double f) { told.push_back(f); }));
        QVERIFY(model);
        checkProgress(told);
        QVERIFY2(told.size() > 2, qPrintable(QString::number(told.size())));
    }

    void pairSideBySide()
    {
        // Two model files load side by side: the draft on a thread of its own, its part of the whole in
        // proportion to its weights (loadWork), told as the two add up; the end of the draft's part is told on its
        // thread.
        const std::string target = "onnx:" + shippedModel("target.onnx");
        const std::string draft = "onnx:" + shippedModel("draft-small.onnx");
        std::vector<std::thread::id> threads;
        const std::vector<double> told = loadPair(target, draft, &threads);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(loadWork(ModelSpec::parse(target), 0) > 5 * loadWork(ModelSpec::parse(draft), 0));
        QVERIFY2(told.size() > 3, qPrintable(QString::number(told.size())));
        const auto here = std::this_thread::get_id();
        QVERIFY(std::count(threads.begin(), threads.end(), here) >= 1);
        QVERIFY2(std::count(threads.begin(), threads.end(), here) < static_cast<long>(threads.size()),
                 "every fraction was told on the loading thread: the draft did not load beside the target");

        // An n-gram and a model file: one after the other (the n-gram trains on the corpus), all on this thread.
        threads.clear();
        loadPair("ngram:3", draft, &threads);
        QVERIFY(std::all_of(threads.begin(), threads.end(), [&](std::thread::id id) { return id == here; }));
    }

    void ngramTrainingIsTold()
    {
        // An n-gram pair trains on the corpus: its passes over the text are told as they go (the window's
        // status read "0 %" until both were trained), the target's part by its 2 N - 1 passes against the
        // draft's.
        const std::vector<double> told = loadPair("ngram:6", "ngram:2");
        if (QTest::currentTestFailed())
            return;
        const double share = 11.0 / (11.0 + 3.0);
        QCOMPARE(loadWork(ModelSpec::parse("ngram:6"), 1000) / loadWork(ModelSpec::parse("ngram:2"), 1000), 11.0 / 3.0);
        QVERIFY2(countBetween(told, 0.0, share) >= 10, qPrintable(QString::number(told.size())));
        QVERIFY(countBetween(told, share, 1.0) >= 2);
    }
};

QTEST_GUILESS_MAIN(TestLoadProgress)
#include "test_load_progress.moc"
