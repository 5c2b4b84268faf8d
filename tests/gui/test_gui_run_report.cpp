// SPDX-License-Identifier: GPL-3.0-or-later
// One metric definition for the CLI and the window: the same setup and seed played as the window's session
// (SessionRun, record by record) and as `specdec run --json` give the same numbers, for chains and trees.
#include "GuiTestSupport.h"

#include "SessionRun.h"
#include "StateCountingModel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>

using namespace specdec;

class TestRunReport : public QObject
{
    Q_OBJECT

private slots:
    void sessionAndCliAgree_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<double>("temperature");
        QTest::newRow("chain T=1") << QString() << 1.0;
        QTest::newRow("chain T=0") << QString() << 0.0;
        QTest::newRow("tree 3,2 T=1") << QStringLiteral("3,2") << 1.0;
        QTest::newRow("tree 2,2,1 T=0.7") << QStringLiteral("2,2,1") << 0.7;
    }

    void sessionAndCliAgree()
    {
        QFETCH(QString, tree);
        QFETCH(double, temperature);
        Setup setup = test::tinySetup();
        setup.tokens = 150;
        setup.decoding.draftLength = 3;
        setup.decoding.seed = 21;
        setup.decoding.target.temperature = setup.decoding.draft.temperature = temperature;
        if (!tree.isEmpty())
            setup.decoding.tree = TreeShape::parse(tree.toStdString());
        const auto experiment = Experiment::load(setup, test::builtCorpora());
        DecodingSettings settings = setup.decoding;
        settings.recordDistributions = true; // as the window records them: the numbers must not change
        gui::SessionRun session(experiment->target(), *experiment->draft(), settings, experiment->prompt(), setup.tokens);
        std::shared_ptr<const gui::RoundRecord> last;
        while (auto record = session.playRound())
            last = record;
        QVERIFY(last);
        const RunMetrics &window = last->cumulative;

        QStringList arguments{QStringLiteral("run"),
                              QStringLiteral("--corpus"),
                              QString::fromStdString(setup.corpus),
                              QStringLiteral("--target"),
                              QString::fromStdString(setup.target),
                              QStringLiteral("--draft"),
                              QString::fromStdString(setup.draft),
                              QStringLiteral("--prompt"),
                              QString::fromStdString(setup.prompt),
                              QStringLiteral("--tokens"),
                              QString::number(setup.tokens),
                              QStringLiteral("-k"),
                              QStringLiteral("3"),
                              QStringLiteral("--seed"),
                              QStringLiteral("21"),
                              QStringLiteral("--temperature"),
                              QString::number(temperature),
                              QStringLiteral("--json")};
        if (!tree.isEmpty())
            arguments << QStringLiteral("--tree") << tree;
        QProcess process;
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"), arguments);
        QVERIFY(process.waitForFinished(120000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        const QJsonObject cli = QJsonDocument::fromJson(process.readAllStandardOutput()).object();

        QCOMPARE(cli.value(QStringLiteral("rounds")).toInt(), window.rounds);
        QCOMPARE(cli.value(QStringLiteral("drafted")).toInt(), window.drafted);
        QCOMPARE(cli.value(QStringLiteral("tested")).toInt(), window.tested);
        QCOMPARE(cli.value(QStringLiteral("accepted")).toInt(), window.accepted);
        QCOMPARE(cli.value(QStringLiteral("target_calls")).toInteger(), window.targetCalls);
        QCOMPARE(cli.value(QStringLiteral("draft_calls")).toInteger(), window.draftCalls);
        QCOMPARE(cli.value(QStringLiteral("nodes_drafted")).toInteger(), last->nodesDrafted);
        QCOMPARE(cli.value(QStringLiteral("acceptance_rate")).toDouble(), window.acceptanceRate);
        QCOMPARE(cli.value(QStringLiteral("tokens_per_round")).toDouble(), window.tokensPerRound);
        QCOMPARE(cli.value(QStringLiteral("mean_overlap_beta")).toDouble(), window.meanOverlap);
        QCOMPARE(cli.value(QStringLiteral("speedup")).toObject().value(QStringLiteral("forward_passes")).toDouble(),
                 window.speedupForwardPasses);
        const QJsonArray perPosition = cli.value(QStringLiteral("per_position_acceptance")).toArray();
        QCOMPARE(perPosition.size(), static_cast<qsizetype>(window.perPositionAcceptance.size()));
        for (qsizetype i = 0; i < perPosition.size(); ++i) {
            const double w = window.perPositionAcceptance[static_cast<std::size_t>(i)];
            if (std::isnan(w))
                QVERIFY(perPosition.at(i).isNull());
            else
                QCOMPARE(perPosition.at(i).toDouble(), w);
        }
        QCOMPARE(cli.value(QStringLiteral("generated_tokens")).toInt(), session.generated());
        QCOMPARE(session.report().tokens, setup.tokens);
        QCOMPARE(session.report().metrics.accepted, window.accepted);
    }

    // A session (or an arena lane) holds one decoder, chain or tree, and its baseline: the target allocates two
    // states (the decoder's, the baseline's), the draft one, all with the session's KV-cache setting (a tree lane
    // used to build an unused chain decoder too: four target caches and two draft caches per lane).
    void oneDecoderPerLane_data()
    {
        QTest::addColumn<QString>("tree");
        QTest::addColumn<bool>("kvCache");
        QTest::newRow("chain") << QString() << true;
        QTest::newRow("tree") << QStringLiteral("3,2,1") << true;
        QTest::newRow("tree, cache off") << QStringLiteral("2,2") << false;
    }
    void oneDecoderPerLane()
    {
        QFETCH(QString, tree);
        QFETCH(bool, kvCache);
        const Corpus corpus = test::tinyEnglish();
        auto target = test::model("ngram:3", corpus);
        auto draft = test::model("ngram:1", corpus);
        test::StateCountingModel countedTarget(*target), countedDraft(*draft);
        DecodingSettings settings;
        settings.kvCache = kvCache;
        if (!tree.isEmpty())
            settings.tree = TreeShape::parse(tree.toStdString());
        gui::SessionRun lane(countedTarget, countedDraft, settings, corpus.vocabulary.encode(U"the "), 50);
        while (lane.playRound()) { }
        QCOMPARE(lane.generated(), 50);
        QCOMPARE(countedTarget.states, std::vector<bool>(2, kvCache));
        QCOMPARE(countedDraft.states, std::vector<bool>(1, kvCache));
    }
};

QTEST_MAIN(TestRunReport)
#include "test_gui_run_report.moc"
