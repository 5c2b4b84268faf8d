// SPDX-License-Identifier: GPL-3.0-or-later
// The race (RaceRun, `specdec race`): the target alone and speculative decoding on the same prompt, seed and
// sampler. Each lane writes exactly what its standalone generation writes; at T = 0 both texts are the same;
// the lane that has used less time is the one that moves; the counts add up. No timing is asserted.
#include "TestSupport.h"

#include "Error.h"
#include "Generation.h"
#include "RaceRun.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

using namespace specdec;

namespace {

struct Played
{
    std::vector<RaceStep> steps;
    bool movedTheSlowerLane = true;
};

Played play(RaceRun &race)
{
    Played played;
    while (!race.finished()) {
        const auto &ar = race.state(RaceLane::Autoregressive);
        const auto &spec = race.state(RaceLane::Speculative);
        const bool arDone = race.finished(RaceLane::Autoregressive), specDone = race.finished(RaceLane::Speculative);
        const RaceLane expected = specDone || (!arDone && ar.seconds <= spec.seconds) ? RaceLane::Autoregressive
                                                                                      : RaceLane::Speculative;
        auto step = race.advance();
        if (!step)
            break;
        played.movedTheSlowerLane = played.movedTheSlowerLane && step->lane == expected;
        played.steps.push_back(std::move(*step));
    }
    return played;
}

QJsonObject specdecJson(const QStringList &arguments, QString *err = nullptr)
{
    QProcess process;
    process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"), arguments);
    process.waitForFinished(120000);
    if (err)
        *err = QString::fromUtf8(process.readAllStandardError());
    return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
}

} // namespace

class TestRace : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<test::BuiltPair> m_pair; ///< kjv ngram:6 / ngram:2, built once
    std::vector<TokenId> m_prompt;

private slots:
    void initTestCase()
    {
        m_pair = std::make_unique<test::BuiltPair>(
            test::builtPair(QStringLiteral("kjv"), QStringLiteral("ngram:6"), QStringLiteral("ngram:2")));
        m_prompt = m_pair->target.model->tokenizer().encode(U"And God said");
    }

    void greedyTextsAreIdenticalAndCountsAddUp_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<QString>("tree");
        QTest::addRow("chain K=4") << 4 << QString();
        QTest::addRow("chain K=1") << 1 << QString();
        QTest::addRow("tree 3,2,1") << 3 << QStringLiteral("3,2,1");
    }

    void greedyTextsAreIdenticalAndCountsAddUp()
    {
        QFETCH(int, k);
        QFETCH(QString, tree);
        DecodingSettings settings;
        settings.draftLength = k;
        settings.target.temperature = 0.0;
        settings.seed = 5;
        if (!tree.isEmpty())
            settings.tree = TreeShape::parse(tree.toStdString());
        LanguageModel &target = *m_pair->target.model, &draft = *m_pair->draft.model;
        constexpr int kTokens = 90;
        RaceRun race(target, draft, settings, m_prompt, kTokens);
        const Played played = play(race);
        QVERIFY(race.finished());
        QVERIFY(!race.advance());
        QVERIFY(played.movedTheSlowerLane);
        const auto &ar = race.state(RaceLane::Autoregressive);
        const auto &spec = race.state(RaceLane::Speculative);
        QCOMPARE(ar.tokens.size(), std::size_t(kTokens));
        QCOMPARE(spec.tokens.size(), std::size_t(kTokens));
        QVERIFY(ar.tokens == spec.tokens); // T = 0: greedy decoding of the target on both lanes
        QVERIFY(race.textsAgree());
        QVERIFY(ar.tokens == generateAutoregressive(target, settings.target, settings.seed, m_prompt, kTokens).tokens);
        // The autoregressive lane: one step and one target call per token (an n-gram never refills).
        QCOMPARE(ar.steps, std::int64_t(kTokens));
        QCOMPARE(ar.targetCalls, std::int64_t(kTokens));
        // The speculative lane: one target call per round; each round writes its accepted run, then a correction
        // or a bonus (the last round may be cut), and the steps concatenate to the text.
        std::vector<TokenId> arText, specText;
        std::int64_t rounds = 0, specCalls = 0;
        int corrections = 0;
        for (const RaceStep &s : played.steps) {
            auto &text = s.lane == RaceLane::Autoregressive ? arText : specText;
            text.insert(text.end(), s.tokens.begin(), s.tokens.end());
            if (s.lane == RaceLane::Autoregressive) {
                QCOMPARE(s.tokens.size(), std::size_t(1));
                continue;
            }
            ++rounds;
            specCalls += s.targetCalls;
            QCOMPARE(s.targetCalls, 1);
            QVERIFY(s.accepted <= k && s.accepted >= 0);
            // accepted run + correction or bonus; only the last round may be cut short of its correction/bonus
            const bool last = specText.size() == std::size_t(kTokens);
            QVERIFY(static_cast<int>(s.tokens.size()) == s.accepted + 1 || last);
            corrections += s.corrected ? 1 : 0;
        }
        QVERIFY(arText == ar.tokens);
        QVERIFY(specText == spec.tokens);
        QCOMPARE(rounds, spec.steps);
        QCOMPARE(specCalls, spec.targetCalls);
        QVERIFY(spec.targetCalls < ar.targetCalls); // a 6-gram on kjv accepts some of the 2-gram's drafts
        QVERIFY(corrections > 0);
        const Generation alone = generateSpeculative(target, draft, settings, m_prompt, kTokens);
        QCOMPARE(spec.steps, std::int64_t(tree.isEmpty() ? alone.rounds.size() : alone.treeRounds.size()));
        QVERIFY(race.ratio() > 0.0);
    }

    void sampledLanesAreTheirOwnGenerations()
    {
        // At T = 1 the texts may differ, but each lane is exactly its standalone generation with the seed.
        DecodingSettings settings;
        settings.draftLength = 3;
        settings.target.temperature = 1.0;
        settings.draft.temperature = 1.0;
        settings.seed = 11;
        LanguageModel &target = *m_pair->target.model, &draft = *m_pair->draft.model;
        RaceRun race(target, draft, settings, m_prompt, 60);
        play(race);
        QVERIFY(race.state(RaceLane::Autoregressive).tokens
                == generateAutoregressive(target, settings.target, settings.seed, m_prompt, 60).tokens);
        QVERIFY(race.state(RaceLane::Speculative).tokens
                == generateSpeculative(target, draft, settings, m_prompt, 60).tokens);
    }

    void badLengthIsAnError()
    {
        DecodingSettings settings;
        QVERIFY_THROWS_EXCEPTION(Error, RaceRun(*m_pair->target.model, *m_pair->draft.model, settings, m_prompt, 0));
    }

    void cliJsonHasBothLanesAndTheRatio()
    {
        QString err;
        const QJsonObject o = specdecJson(
            {QStringLiteral("race"), QStringLiteral("--corpus"), QStringLiteral("kjv"), QStringLiteral("--target"),
             QStringLiteral("ngram:6"), QStringLiteral("--draft"), QStringLiteral("ngram:2"), QStringLiteral("--prompt"),
             QStringLiteral("And God"), QStringLiteral("--tokens"), QStringLiteral("80"), QStringLiteral("-k"),
             QStringLiteral("4"), QStringLiteral("--temperature"), QStringLiteral("0"), QStringLiteral("--json")},
            &err);
        QVERIFY2(!o.isEmpty(), qPrintable(err));
        const QJsonObject ar = o.value(QStringLiteral("autoregressive")).toObject();
        const QJsonObject spec = o.value(QStringLiteral("speculative")).toObject();
        for (const QJsonObject &lane : {ar, spec}) {
            QCOMPARE(lane.value(QStringLiteral("text")).toString().size(), 80);
            QVERIFY(lane.value(QStringLiteral("tokens_per_second")).toDouble() > 0.0);
            QVERIFY(lane.value(QStringLiteral("target_calls")).toInt() > 0);
        }
        QCOMPARE(ar.value(QStringLiteral("target_calls")).toInt(), 80);
        QVERIFY(spec.value(QStringLiteral("target_calls")).toInt() < 80);
        QCOMPARE(spec.value(QStringLiteral("text")).toString(), ar.value(QStringLiteral("text")).toString());
        QCOMPARE(o.value(QStringLiteral("texts_identical")).toBool(), true);
        const double ratio = spec.value(QStringLiteral("tokens_per_second")).toDouble()
            / ar.value(QStringLiteral("tokens_per_second")).toDouble();
        QVERIFY(qAbs(o.value(QStringLiteral("ratio")).toDouble() - ratio) < 1e-9 * ratio);
    }

    void cliPrintsNoNan()
    {
        // A uniform draft at T = 0 is rejected at its first position: positions 2..8 are never tested and print
        // "–" (no rate), never "nan"; bench says what its numbers are and shows progress on stderr.
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        QProcess run;
        run.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                  {QStringLiteral("run"), QStringLiteral("--corpus"), tiny, QStringLiteral("--target"),
                   QStringLiteral("ngram:3"), QStringLiteral("--draft"), QStringLiteral("uniform"),
                   QStringLiteral("-k"), QStringLiteral("8"), QStringLiteral("--tokens"), QStringLiteral("20"),
                   QStringLiteral("--temperature"), QStringLiteral("0")});
        run.waitForFinished(60000);
        const QString out = QString::fromUtf8(run.readAllStandardOutput());
        QCOMPARE(run.exitCode(), 0);
        QVERIFY2(!out.contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("per position: ")) && out.contains(QStringLiteral("–")), qPrintable(out));
        QProcess bench;
        bench.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                    {QStringLiteral("bench"), QStringLiteral("--tokens"), QStringLiteral("2000"),
                     QStringLiteral("--repeat"), QStringLiteral("1")});
        bench.waitForFinished(120000);
        const QString benchOut = QString::fromUtf8(bench.readAllStandardOutput());
        QCOMPARE(bench.exitCode(), 0);
        QVERIFY2(benchOut.startsWith(QStringLiteral("speculative / autoregressive: tokens per second")),
                 qPrintable(benchOut));
        QVERIFY(!benchOut.contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        QVERIFY(QString::fromUtf8(bench.readAllStandardError()).contains(QStringLiteral("generation 1 of 1")));
    }

    void cliTextOnAnOnnxPair()
    {
#ifdef SPECDEC_NO_ONNX_EXECUTOR
        QSKIP("this build has no ONNX executor");
#endif
        // Not a terminal: one plain line per lane when it finishes (no carriage returns), then the verdict.
        QProcess process;
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("race"), QStringLiteral("--corpus"), QStringLiteral("kjv"),
                       QStringLiteral("--target"), QStringLiteral("onnx:corpora/kjv/models/target.onnx"),
                       QStringLiteral("--draft"), QStringLiteral("onnx:corpora/kjv/models/draft-small.onnx"),
                       QStringLiteral("--prompt"), QStringLiteral("In the beginning"), QStringLiteral("--tokens"),
                       QStringLiteral("24"), QStringLiteral("--temperature"), QStringLiteral("0")});
        process.waitForFinished(120000);
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        QVERIFY2(process.exitCode() == 0, qPrintable(QString::fromUtf8(process.readAllStandardError())));
        QVERIFY(!out.contains(QLatin1Char('\r')));
        QVERIFY2(out.contains(QStringLiteral("autoregressive")) && out.contains(QStringLiteral("speculative")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("texts identical")), qPrintable(out));
        QVERIFY(!out.contains(QStringLiteral("nan")));
    }
};

QTEST_GUILESS_MAIN(TestRace)
#include "test_race.moc"
