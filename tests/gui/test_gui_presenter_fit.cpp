// SPDX-License-Identifier: GPL-3.0-or-later
// Presenter mode on a projector: at 1280×720 and 1366×768, in English and Chinese, at the default scale ×1.5,
// every stage (the round, the distributions, the lab, the arena with a chain and two token-tree lanes, the
// theory explorer, the quiz at each question) fits its page — no scroll bar, sideways or down — and the arena's
// table shows every column and every row without scrolling.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ArenaRunner.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "SessionController.h"

#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTranslator>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

class TestPresenterFit : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void everyStageFits_data();
    void everyStageFits();
};

void TestPresenterFit::everyStageFits_data()
{
    QTest::addColumn<QString>("languageCode");
    QTest::addColumn<QSize>("size");
    for (const char *language : {"en", "zh_CN"})
        for (const QSize &size : {QSize(1280, 720), QSize(1366, 768)})
            QTest::addRow("%s %dx%d", language, size.width(), size.height()) << QString::fromLatin1(language) << size;
}

void TestPresenterFit::everyStageFits()
{
    QFETCH(QString, languageCode);
    QFETCH(QSize, size);
    QTranslator translator;
    if (languageCode != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + languageCode + QStringLiteral(".qm")));
        QCoreApplication::installTranslator(&translator);
    }
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language; // not set: the translator above is the one installed
    MainWindow window(&session, &player, &language);
    window.resize(size);
    window.show();
    ClassroomTools &tools = *window.classroom();
    Setup setup = test::tinySetup();
    setup.decoding.draftLength = 3;
    setup.decoding.seed = 3;
    setup.tokens = 80;
    window.startSession(setup);
    QVERIFY(QTest::qWaitFor([&] { return session.isReady(); }, 30000));
    session.requestRounds(3);
    QVERIFY(QTest::qWaitFor([&] { return session.history().size() >= 3; }, 30000));
    player.jumpTo(2, Phase::Dice);
    // The arena of lesson 6: a chain and two token trees of the same draft.
    tools.arena()->setLaneLines(
        {QStringLiteral("ngram:2"), QStringLiteral("ngram:2 tree:2,2,1"), QStringLiteral("ngram:2 tree:3,2,1")});
    tools.playArena(4);
    const ArenaRunner *runner = tools.arenaRunner();
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (tools.arenaLoading() || !runner->isReady() || runner->pending() > 0 || runner->laneCount() != 3)
                return false;
            for (int lane = 0; lane < 3; ++lane)
                if (runner->history(lane).size() < 4)
                    return false;
            return true;
        },
        30000));
    QCOMPARE(tools.arena()->laneCount(), 3);

    tools.setPresenterMode(true);
    window.setMinimumSize(0, 0);
    window.resize(size);
    QTabWidget *tabs = tools.presenter()->tabs();
    QVERIFY(tabs);
    auto check = [&](int stage, const QString &what) {
        tools.presenter()->showStage(stage);
        QTest::qWait(20); // the layouts settle
        auto *page = qobject_cast<QScrollArea *>(tabs->widget(stage));
        QVERIFY(page);
        const QSize min = page->widget()->minimumSizeHint().expandedTo(page->widget()->minimumSize());
        QVERIFY2(page->horizontalScrollBar()->maximum() == 0 && page->verticalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("%1: needs %2x%3, the page has %4x%5 (scrolls %6, %7)")
                                .arg(what)
                                .arg(min.width())
                                .arg(min.height())
                                .arg(page->viewport()->width())
                                .arg(page->viewport()->height())
                                .arg(page->horizontalScrollBar()->maximum())
                                .arg(page->verticalScrollBar()->maximum())));
    };
    const QStringList keys = presenterStageKeys();
    for (int stage = 0; stage < tabs->count(); ++stage)
        check(stage, keys.value(stage));
    for (int q = 0; q < tools.quiz()->questionCount(); ++q) {
        tools.quiz()->setQuestion(q);
        check(static_cast<int>(PresenterStage::Quiz), QStringLiteral("quiz question %1").arg(q + 1));
    }
    // The arena's table: every column and every lane's row in view.
    tools.presenter()->showStage(static_cast<int>(PresenterStage::Arena));
    QCoreApplication::processEvents();
    QTableWidget *table = tools.arena()->table();
    QVERIFY2(table->horizontalHeader()->length() <= table->viewport()->width(),
             qPrintable(QStringLiteral("table columns %1 px in %2")
                            .arg(table->horizontalHeader()->length())
                            .arg(table->viewport()->width())));
    QVERIFY2(table->verticalHeader()->length() <= table->viewport()->height(),
             qPrintable(QStringLiteral("table rows %1 px in %2")
                            .arg(table->verticalHeader()->length())
                            .arg(table->viewport()->height())));
    tools.setPresenterMode(false);
    QCoreApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestPresenterFit)
#include "test_gui_presenter_fit.moc"
