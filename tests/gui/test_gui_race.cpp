// SPDX-License-Identifier: GPL-3.0-or-later
// The race stage: a race run through the engine host (RaceRunner, kind Race) into a RaceView. At T = 0 both lanes
// show the target's greedy text, the counts are the engine's (one call per token alone, one per round
// speculative), the speculative lane colours its corrections, and the closing line says the texts are
// identical. No timing is asserted.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "EngineHost.h"
#include "RaceRunner.h"
#include "RaceView.h"
#include "TokenText.h"

#include "Experiment.h"
#include "Generation.h"

#include <QFile>
#include <QTextBlock>
#include <QTextEdit>
#include <QtTest>

#include <algorithm>
#include <vector>

using namespace specdec;
using namespace specdec::gui;

namespace {

Setup greedySetup()
{
    Setup s = test::tinySetup();
    s.decoding.target.temperature = 0.0;
    s.decoding.draft.temperature = 0.0;
    s.decoding.draftLength = 4;
    s.decoding.seed = 3;
    return s;
}

/// Whether some text of `edit` is drawn in `color`.
bool hasForeground(const QTextEdit *edit, const QColor &color)
{
    for (QTextBlock b = edit->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().foreground().color() == color)
                return true;
    return false;
}

} // namespace

class TestRace : public QObject
{
    Q_OBJECT
private:
    /// Races `setup` (T = 0) for `tokens` through the engine host into `view`: both lanes show the target's
    /// greedy text, the target alone makes one call per token, the speculative lane one per round and fewer.
    void playGreedyRace(const Setup &setup, int tokens, RaceView &view)
    {
        EngineHost host;
        RaceRunner runner(test::builtCorpora(), &host);
        view.resize(1000, 640);
        connectRace(&view, &runner, [setup] { return setup; });
        // The load is told under the lanes in percents, rising to 100 (connected after connectRace: the view's
        // line is set when this slot reads it).
        std::vector<double> told;
        QStringList statuses;
        QObject::connect(&runner, &RaceRunner::loadProgressed, &view, [&](double fraction) {
            told.push_back(fraction);
            statuses << view.verdict();
        });
        view.setTokens(tokens);
        emit view.startRequested(view.tokens());
        QVERIFY(QTest::qWaitFor([&] { return !runner.isRunning(); }, 120000));
        QVERIFY(told.size() >= 2);
        QVERIFY(std::is_sorted(told.begin(), told.end()));
        QCOMPARE(told.back(), 1.0);
        QCOMPARE(statuses.back(), QStringLiteral("Loading the models … 100 %"));
        QVERIFY2(QTest::qWaitFor([&] { return view.isFinished(); }, 120000), qPrintable(view.verdict()));

        auto experiment = Experiment::load(setup, test::builtCorpora(), false);
        const Generation greedy = generateAutoregressive(experiment->target(), setup.decoding.target,
                                                         setup.decoding.seed, experiment->prompt(), tokens);
        const QString expected = tokensString(experiment->tokenizer(), greedy.tokens);
        QCOMPARE(view.laneText(RaceLane::Autoregressive), expected);
        QCOMPARE(view.laneText(RaceLane::Speculative), expected);
        QCOMPARE(view.laneTokens(RaceLane::Autoregressive), tokens);
        QCOMPARE(view.laneTokens(RaceLane::Speculative), tokens);
        QCOMPARE(view.laneTargetCalls(RaceLane::Autoregressive), std::int64_t(tokens));
        QCOMPARE(view.laneTargetCalls(RaceLane::Speculative), std::int64_t(view.laneSteps(RaceLane::Speculative)));
        QVERIFY(view.laneSteps(RaceLane::Speculative) < tokens);
        QVERIFY2(view.verdict().contains(QStringLiteral("identical")), qPrintable(view.verdict()));
    }

private slots:
    void greedyRaceThroughTheHost()
    {
        RaceView view;
        playGreedyRace(greedySetup(), 80, view);
    }

    void onnxPairsThroughTheHost_data()
    {
        // The pair the race is shown on (the memory-bound chef, where speculative decoding finishes first) and the
        // small target (where it does not): the same texts and counts either way; who finishes first is timing.
        QTest::addColumn<QString>("target");
        if (QFile::exists(QStringLiteral(SPECDEC_SOURCE_DIR "/corpora/kjv/models/target-large.onnx")))
            QTest::newRow("target-large")
                << QStringLiteral("onnx:" SPECDEC_SOURCE_DIR "/corpora/kjv/models/target-large.onnx");
        QTest::newRow("target") << QStringLiteral("onnx:" SPECDEC_SOURCE_DIR "/corpora/kjv/models/target.onnx");
    }

    void onnxPairsThroughTheHost()
    {
        QFETCH(QString, target);
        Setup setup = greedySetup();
        setup.corpus = "kjv";
        setup.target = target.toStdString();
        setup.draft = "onnx:" SPECDEC_SOURCE_DIR "/corpora/kjv/models/draft-small.onnx";
        setup.prompt = "And the LORD said unto Moses, ";
        constexpr int kTokens = 60;
        RaceView view;
        playGreedyRace(setup, kTokens, view);
        if (QTest::currentTestFailed())
            return;
        // draft-small writes some 3.5 tokens per target pass on kjv: well under half the passes of the target alone
        QVERIFY2(2 * view.laneSteps(RaceLane::Speculative) < kTokens,
                 qPrintable(QString::number(view.laneSteps(RaceLane::Speculative))));
    }

    void speculativeLaneMarksRoundsInTheRoundViewsColours()
    {
        // Steps fed by hand from a RaceRun: the accepted runs in the draft's colour, corrections in the residual's.
        const Setup setup = greedySetup();
        auto experiment = Experiment::load(setup, test::builtCorpora(), true);
        RaceRun race(experiment->target(), *experiment->draft(), setup.decoding, experiment->prompt(), 60);
        std::vector<RaceStep> steps;
        int corrections = 0;
        while (auto step = race.advance()) {
            corrections += step->corrected ? 1 : 0;
            steps.push_back(std::move(*step));
        }
        QVERIFY(corrections > 0);
        RaceView view;
        view.setRace({std::make_shared<const Tokenizer>(experiment->tokenizer()), QStringLiteral("4-gram"),
                      QStringLiteral("2-gram"), QStringLiteral("K = 4"), 60, true});
        view.addSteps(steps);
        QVERIFY(view.verdict().isEmpty());
        view.setEngineFinished(false);
        view.showAll();
        QVERIFY(view.isFinished());
        const auto &spec = race.state(RaceLane::Speculative);
        QCOMPARE(view.laneSteps(RaceLane::Speculative), int(spec.steps));
        QCOMPARE(view.laneTargetCalls(RaceLane::Speculative), spec.targetCalls);
        QCOMPARE(view.laneText(RaceLane::Speculative), tokensString(experiment->tokenizer(), spec.tokens));
        const LabColors colors = LabColors::from(view.palette());
        const auto edits = view.findChildren<QTextEdit *>();
        QCOMPARE(edits.size(), 2);
        QVERIFY(!hasForeground(edits[0], colors.residual));
        QVERIFY(hasForeground(edits[1], colors.residual));
        QVERIFY(hasForeground(edits[1], colors.draft));
        QVERIFY(view.verdict().contains(QStringLiteral("identical")));
    }
};

QTEST_MAIN(TestRace)
#include "test_gui_race.moc"
