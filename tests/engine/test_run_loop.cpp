// SPDX-License-Identifier: GPL-3.0-or-later
// The one run loop (SpeculativeRun) for chains and trees: the KV-cache setting reaches the decoder's states and the
// baseline's, one decoder per run (the states each model allocates are counted), the surplus is cut once, the
// baseline played alongside writes the same tokens as generateAutoregressive, and a long tree run streams.
#include "StateCountingModel.h"
#include "TestSupport.h"

#include "Generation.h"
#include "SpeculativeRun.h"

#include <fstream>
#include <unistd.h>

using namespace specdec;
using namespace specdec::test;

namespace {

/// Resident memory of this process in bytes (Linux /proc).
std::int64_t residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    std::int64_t size = 0, resident = 0;
    statm >> size >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

DecodingSettings chainSettings(double temperature, std::uint64_t seed)
{
    DecodingSettings s;
    s.draftLength = 4;
    s.target = {temperature, 0, 1.0};
    s.draft = {temperature, 0, 1.0};
    s.seed = seed;
    return s;
}

} // namespace

class TestRunLoop : public QObject
{
    Q_OBJECT

private slots:
    void kvCacheReachesDecoderAndBaseline_data()
    {
        QTest::addColumn<bool>("tree");
        QTest::addColumn<bool>("kvCache");
        QTest::addColumn<bool>("baseline");
        for (bool tree : {false, true})
            for (bool kv : {true, false})
                for (bool baseline : {true, false})
                    QTest::addRow("%s kv %s baseline %s", tree ? "tree" : "chain", kv ? "on" : "off", baseline ? "on" : "off")
                        << tree << kv << baseline;
    }

    // One decoder per run (a tree run holds no unused chain decoder), its states and the baseline's made with the
    // run's KV-cache setting: the drift where `run --tree --baseline --kv-cache off` timed a cached baseline cannot
    // come back. Target: the decoder's state (+ the baseline's); draft: one state.
    void kvCacheReachesDecoderAndBaseline()
    {
        QFETCH(bool, tree);
        QFETCH(bool, kvCache);
        QFETCH(bool, baseline);
        TinyPair pair;
        StateCountingModel target(*pair.target), draft(*pair.draft);
        DecodingSettings s = tree ? treeSettings("3,2,1", 1.0, 1.0, 5) : chainSettings(1.0, 5);
        s.kvCache = kvCache;
        SpeculativeRun run(target, draft, s, pair.prompt, 40, baseline);
        while (run.step()) { }
        QCOMPARE(run.generated(), 40);
        QCOMPARE(target.states, std::vector<bool>(baseline ? 2 : 1, kvCache));
        QCOMPARE(draft.states, std::vector<bool>(1, kvCache));
        QCOMPARE(run.baselineText().size(), baseline ? std::size_t(40) : std::size_t(0));
    }

    // The surplus of the last round is cut once: exactly the tokens asked for, on both sides; the baseline played
    // alongside is generateAutoregressive's text (same seed and sampler), and at T = 0 both equal the run's.
    void surplusCutOnceAndBaselineAlongside_data()
    {
        QTest::addColumn<bool>("tree");
        QTest::addColumn<double>("temperature");
        QTest::newRow("chain T=0") << false << 0.0;
        QTest::newRow("chain T=1") << false << 1.0;
        QTest::newRow("tree T=0") << true << 0.0;
        QTest::newRow("tree T=1") << true << 1.0;
    }
    void surplusCutOnceAndBaselineAlongside()
    {
        QFETCH(bool, tree);
        QFETCH(double, temperature);
        TinyPair pair;
        const DecodingSettings s = tree ? treeSettings("2,2", temperature, 1.0, 11) : chainSettings(temperature, 11);
        for (int tokens : {1, 2, 7, 33}) {
            SpeculativeRun run(*pair.target, *pair.draft, s, pair.prompt, tokens, true);
            int kept = 0, steps = 0;
            while (auto step = run.step()) {
                QVERIFY(step->kept >= 1);
                QVERIFY(step->kept <= static_cast<int>(step->round.path.committed.size()));
                kept += step->kept;
                ++steps;
                QCOMPARE(step->round.tree != nullptr, tree);
            }
            QCOMPARE(kept, tokens);
            QCOMPARE(static_cast<int>(run.text().size()), tokens);
            const RunReport report = run.report();
            QCOMPARE(report.tokens, tokens);
            QCOMPARE(report.metrics.rounds, steps);
            QVERIFY(report.baseline.has_value());
            QCOMPARE(report.baseline->tokens, tokens);
            QCOMPARE(report.baseline->target.calls, std::int64_t(tokens)); // one call per token, no refill here
            const Generation ar = generateAutoregressive(*pair.target, s.target, s.seed, pair.prompt, tokens);
            QVERIFY(std::equal(ar.tokens.begin(), ar.tokens.end(), run.baselineText().begin(), run.baselineText().end()));
            if (temperature == 0.0)
                QVERIFY(std::equal(ar.tokens.begin(), ar.tokens.end(), run.text().begin(), run.text().end()));
        }
    }

    // generateSpeculative is the loop with its rounds kept: the same tokens and the same report.
    void generationIsTheLoop()
    {
        TinyPair pair;
        for (const DecodingSettings &s : {chainSettings(1.0, 3), treeSettings("3,1", 1.0, 1.0, 3)}) {
            SpeculativeRun run(*pair.target, *pair.draft, s, pair.prompt, 60);
            while (run.step()) { }
            const Generation g = generateSpeculative(*pair.target, *pair.draft, s, pair.prompt, 60);
            QVERIFY(std::equal(g.tokens.begin(), g.tokens.end(), run.text().begin(), run.text().end()));
            const RunReport a = run.report(), &b = g.report;
            QCOMPARE(b.metrics.rounds, a.metrics.rounds);
            QCOMPARE(b.metrics.accepted, a.metrics.accepted);
            QCOMPARE(b.metrics.tested, a.metrics.tested);
            QCOMPARE(b.nodesDrafted, a.nodesDrafted);
            QCOMPARE(b.verifiedPositions, a.verifiedPositions);
            QCOMPARE(static_cast<int>(s.tree.empty() ? g.rounds.size() : g.treeRounds.size()), a.metrics.rounds);
            if (!s.tree.empty()) { // a tree's counts: every node drafted, (depth + 1) positions per path
                std::int64_t nodes = 0, positions = 0;
                for (const TreeTrace &t : g.treeRounds) {
                    nodes += t.draftedCount();
                    positions += t.targetRows;
                }
                QCOMPARE(b.nodesDrafted, nodes);
                QCOMPARE(b.verifiedPositions, positions);
                QVERIFY(b.nodesDrafted > b.metrics.drafted); // the path view drafts one node per depth
            }
        }
    }

    // A long tree run holds O(1) per round: 100,000 tokens grow the process by the sequence (4 bytes a token) and
    // nothing per round (a kept TreeTrace is ~1 KB: 50,000 rounds would be ~50 MB).
    void longTreeRunStreams()
    {
#if defined(__SANITIZE_ADDRESS__)
        // AddressSanitizer keeps freed blocks in quarantine (up to 256 MB), so the resident size grows with every
        // round's temporaries: the bound is checked in the plain build only.
        QSKIP("resident memory under AddressSanitizer includes its quarantine");
#elif defined(__SANITIZE_THREAD__)
        // ThreadSanitizer's shadow memory grows the resident size as well, and the run of one thread (nothing to
        // race) takes over QtTest's 300 s per function there.
        QSKIP("resident memory under ThreadSanitizer includes its shadow; a single-threaded run");
#endif
        TinyPair pair;
        const DecodingSettings s = treeSettings("2,2,1", 1.0, 1.0, 7);
        const int tokens = 100000;
        SpeculativeRun run(*pair.target, *pair.draft, s, pair.prompt, tokens);
        std::int64_t at10k = 0;
        int rounds = 0;
        while (run.step()) {
            ++rounds;
            if (at10k == 0 && run.generated() >= 10000)
                at10k = residentBytes();
        }
        const std::int64_t atEnd = residentBytes();
        QCOMPARE(run.generated(), tokens);
        QVERIFY(rounds > 20000);
        qInfo("%d rounds; resident %.1f MB after 10,000 tokens, %.1f MB after 100,000", rounds, at10k / 1e6, atEnd / 1e6);
        QVERIFY2(atEnd - at10k < 4'000'000, "the run kept something per round");
    }
};

QTEST_GUILESS_MAIN(TestRunLoop)
#include "test_run_loop.moc"
