// SPDX-License-Identifier: GPL-3.0-or-later
// Presenter mode: F5 puts the live plots, the theory panel, the lab, arena, theory explorer, quiz and race as
// stages (tabs) inside the main window (never floating), hides the docks and the setup bar, scales the text ×1.5
// (Ctrl+= / Ctrl+-, remembered);
// Esc puts everything back. Help: the user guide renders inside the app with its images, in both languages;
// the shortcut list holds every action with a shortcut, none twice.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ActionRegistry.h"
#include "ArenaView.h"
#include "Automation.h"
#include "CardPainter.h"
#include "ClassroomTools.h"
#include "CommandLine.h"
#include "DistributionView.h"
#include "HelpBrowser.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "MessageBanner.h"
#include "Player.h"
#include "PlotsPanel.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "RaceView.h"
#include "RoundView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"
#include "TreeView.h"

#include <QDockWidget>
#include <QElapsedTimer>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>
#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

class TestPresenter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void stagesInsideTheWindow();
    void stageOnTheCommandLine();
    void screenshotOfALessonPlaysItsRounds();
    void explorerStageShowsTheSession();
    void everyTextFollowsTheScale();
    void cardTextsFollowTheFont();
    void treeLabelsFollowTheScale();
    void userGuideAndShortcuts();
};

void TestPresenter::stagesInsideTheWindow()
{
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.resize(1280, 720);
    window.show();
    ClassroomTools &tools = *window.classroom();
    const double baseFont = window.font().pointSizeF();
    QList<QDockWidget *> docks;
    for (QDockWidget *d : window.findChildren<QDockWidget *>())
        if (d->isVisible())
            docks << d;
    QVERIFY(!docks.isEmpty());
    QVERIFY(tools.lab()->isWindow());

    // Presenter mode is a Classroom action (it sat under View).
    QAction *presenter = window.actions()->action(QStringLiteral("classroom.presenter"));
    QVERIFY(presenter);
    QVERIFY(window.actions()->menu(MenuId::Classroom)->actions().contains(presenter));
    QVERIFY(!window.actions()->menu(MenuId::View)->actions().contains(presenter));
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_F5)));
    QVERIFY(tools.presenter()->isActive());
    QTabWidget *tabs = tools.presenter()->tabs();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 9);
    QCOMPARE(window.centralWidget(), tabs);
    for (QDockWidget *d : docks)
        QVERIFY(!d->isVisible());
    QCOMPARE(window.font().pointSizeF(), baseFont * 1.5);
    // The tools are stages of the main window, not windows over it.
    for (QWidget *tool : {static_cast<QWidget *>(tools.lab()), static_cast<QWidget *>(tools.arena()),
                          static_cast<QWidget *>(tools.theoryExplorer()), static_cast<QWidget *>(tools.quiz())}) {
        QVERIFY(!tool->isWindow());
        QCOMPARE(tool->window(), &window);
    }
    tools.showLab();
    QCOMPARE(tools.presenter()->currentStage(), static_cast<int>(PresenterStage::Lab));
    tools.showQuiz(8);
    QCOMPARE(tools.presenter()->currentStage(), static_cast<int>(PresenterStage::Quiz));
    // The live plots and the theory panel's numbers are stages too, and come back to their docks after.
    for (QWidget *panel : {static_cast<QWidget *>(window.plots()), static_cast<QWidget *>(window.theory())}) {
        QVERIFY(tabs->isAncestorOf(panel));
        QVERIFY(!window.dock(MainWindow::Dock::Plots)->isAncestorOf(panel));
    }
    tools.presenter()->showStage(static_cast<int>(PresenterStage::Plots));
    QTRY_VERIFY(window.plots()->isVisible()); // (the main window shows its new centre in a posted event)
    tools.presenter()->showStage(static_cast<int>(PresenterStage::Numbers));
    QTRY_VERIFY(window.theory()->isVisible());
    QCOMPARE(tools.quiz()->currentQuestion(), 8);
    // It fits a 1280x720 projector.
    QVERIFY2(window.minimumSizeHint().height() <= 720, qPrintable(QString::number(window.minimumSizeHint().height())));
    QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));

    // Ctrl+= / Ctrl+- in steps of 0.1, remembered.
    QVERIFY(test::press(&window, QKeySequence(QStringLiteral("Ctrl+="))));
    QCOMPARE(tools.presenter()->scale(), 1.6);
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont * 1.6) < 0.05);
    QCOMPARE(QSettings().value(QStringLiteral("presenter/scale")).toDouble(), 1.6);
    QVERIFY(test::press(&window, QKeySequence(QStringLiteral("Ctrl+-"))));
    QVERIFY(test::press(&window, QKeySequence(QStringLiteral("Ctrl+-"))));
    QCOMPARE(tools.presenter()->scale(), 1.4);

    QVERIFY(!test::press(&window, QKeySequence(QStringLiteral("Ctrl+=Ctrl+=")))); // (no such key)
    // Esc leaves: the docks, the centre and the tool windows are back.
    QVERIFY(test::press(&window, QKeySequence(Qt::Key_Escape)));
    QVERIFY(!tools.presenter()->isActive());
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont) < 0.05);
    for (QDockWidget *d : docks)
        QVERIFY(d->isVisible());
    QVERIFY(tools.lab()->isWindow());
    QCOMPARE(window.dock(MainWindow::Dock::Plots)->widget(), static_cast<QWidget *>(window.plots()));
    QCOMPARE(window.dock(MainWindow::Dock::Theory)->widget(), static_cast<QWidget *>(window.theory()));
    QVERIFY(window.centralWidget() != nullptr && window.centralWidget() != tabs);
    QVERIFY(tools.presenter()->tabs() == nullptr);
    // Entering again uses the remembered scale.
    tools.setPresenterMode(true);
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont * 1.4) < 0.05);
    tools.setPresenterMode(false);
}

void TestPresenter::stageOnTheCommandLine()
{
    // --stage NAME (with --presenter) picks the stage a scripted screenshot shows; the names are the tabs'
    // order, and a wrong name or a missing --presenter is a one-line error naming the flag.
    const Setup saved = test::tinySetup();
    auto parse = [&](const QStringList &args) {
        return parseCommandLine(QStringList{QStringLiteral("specdec-lab")} + args, saved);
    };
    const QStringList keys = presenterStageKeys();
    QCOMPARE(keys.size(), 9);
    for (int i = 0; i < keys.size(); ++i) {
        const CommandLine cl = parse({QStringLiteral("--presenter"), QStringLiteral("--stage"), keys[i]});
        QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
        QVERIFY(cl.stage);
        QCOMPARE(static_cast<int>(*cl.stage), i);
    }
    const CommandLine wrong = parse({QStringLiteral("--presenter"), QStringLiteral("--stage"), QStringLiteral("arenas")});
    QVERIFY(wrong.error.contains(QLatin1String("--stage")) && wrong.error.contains(QLatin1String("arenas")));
    QVERIFY(parse({QStringLiteral("--stage"), QStringLiteral("arena")}).error.contains(QLatin1String("--presenter")));
    QVERIFY(!parse({QStringLiteral("--presenter")}).stage);

    // The stage of each name is the widget of that tab.
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    ClassroomTools &tools = *window.classroom();
    QWidget *const expected[] = {
        window.centralWidget(), window.distributionView(), window.plots(), window.theory(), tools.lab(),
        tools.arena(),          tools.theoryExplorer(),    tools.quiz(),   tools.race()};
    for (int i = 0; i < keys.size(); ++i)
        QCOMPARE(tools.presenter()->stageWidget(static_cast<int>(*presenterStageFromKey(keys[i]))), expected[i]);
}

// A scripted screenshot of a lesson (scripts/classroom-screenshots.sh) plays --rounds rounds and stops at
// --phase: the lesson's demonstration sets the (empty) session aside, and the banner that says so is no error
// to stop at (the screenshot showed "Loading …" or the lesson's own 3 rounds, and the run exited with 1).
void TestPresenter::screenshotOfALessonPlaysItsRounds()
{
    test::Window w;
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("numbers.png"));
    const CommandLine cl = parseCommandLine(
        {QStringLiteral("specdec-lab"), QStringLiteral("--presenter"), QStringLiteral("--stage"),
         QStringLiteral("numbers"), QStringLiteral("--lesson"),
         QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/00-classic-demo.lesson.json"), QStringLiteral("--rounds"),
         QStringLiteral("6"), QStringLiteral("--phase"), QStringLiteral("commit"), QStringLiteral("--size"),
         QStringLiteral("1280x720"), QStringLiteral("--screenshot"), png},
        test::tinySetup());
    QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(runScreenshot({&w.window, &w.session, &w.player, &clock}, cl), 0);
    QVERIFY(QFileInfo(png).size() > 0);
    QVERIFY(w.session.history().size() >= 6);
    QCOMPARE(w.player.round(), 5);
    QCOMPARE(w.player.phase(), Phase::Commit);
    QCOMPARE(w.window.classroom()->presenter()->currentStage(), static_cast<int>(PresenterStage::Numbers));
    w.window.classroom()->setPresenterMode(false);
}

// The theory explorer's stage shows the session's point ("your runs") when its tab comes to the front after
// rounds were played with another stage in front (it followed the rounds only while visible: none was drawn).
void TestPresenter::explorerStageShowsTheSession()
{
    test::Window w;
    w.window.resize(1280, 720);
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(20000));
    ClassroomTools &tools = *w.window.classroom();
    tools.setPresenterMode(true);
    w.session.requestRounds(5);
    QTRY_VERIFY_WITH_TIMEOUT(w.session.history().size() >= 5, 20000);
    w.player.jumpTo(4, Phase::Commit);
    QCoreApplication::processEvents();
    auto points = [&] {
        int n = 0;
        for (int i = 0; i < tools.theoryExplorer()->plot(0)->graphCount(); ++i)
            if (tools.theoryExplorer()->plot(0)->graph(i)->name() == QLatin1String("your runs"))
                n += tools.theoryExplorer()->plot(0)->graph(i)->dataCount();
        return n;
    };
    tools.presenter()->tabs()->setCurrentIndex(static_cast<int>(PresenterStage::Theory)); // a click on its tab
    QVERIFY(points() >= 1);
    tools.setPresenterMode(false);
}

void TestPresenter::everyTextFollowsTheScale()
{
    // Every widget of the window and of the stages, also those that set their own size (the round's header,
    // the transcript, the quiz question, the banner's icon), is 1.5× larger in presenter mode and back after.
    QSettings().setValue(QStringLiteral("presenter/scale"), PresenterMode::kDefaultScale);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.resize(1280, 720);
    window.show();
    ClassroomTools &tools = *window.classroom();
    window.banner()->showMessage(MessageBanner::Kind::Warning, QStringLiteral("A lesson file did not load."));
    tools.showQuiz(8);
    tools.quiz()->reveal(); // the right options in bold
    QList<QWidget *> widgets = window.findChildren<QWidget *>();
    for (QWidget *tool : {static_cast<QWidget *>(tools.lab()), static_cast<QWidget *>(tools.arena()),
                          static_cast<QWidget *>(tools.theoryExplorer()), static_cast<QWidget *>(tools.quiz())})
        widgets << tool << tool->findChildren<QWidget *>();
    QHash<QWidget *, double> before;
    for (QWidget *w : std::as_const(widgets))
        before.insert(w, QFontInfo(w->font()).pointSizeF());
    QVERIFY(before.contains(window.roundView()->transcript()));
    const double transcript = before.value(window.roundView()->transcript());
    QVERIFY(transcript > window.font().pointSizeF() * 1.2); // it sets its own size
    // The widgets whose size is not `factor` times what it was (empty when every one is).
    auto wrong = [&](double factor) {
        QStringList out;
        for (auto it = before.cbegin(); it != before.cend(); ++it) {
            if (it.key()->window() != &window) // menus' popups, the help windows: not on the stage
                continue;
            const double now = QFontInfo(it.key()->font()).pointSizeF();
            if (std::abs(now - it.value() * factor) > 0.06 * it.value() * factor)
                out << QStringLiteral("%1 %2 in %5 / %6: %3 pt, expected %4")
                           .arg(QLatin1String(it.key()->metaObject()->className()), it.key()->objectName())
                           .arg(now)
                           .arg(it.value() * factor)
                           .arg(QLatin1String(
                                    it.key()->parentWidget() ? it.key()->parentWidget()->metaObject()->className() : ""),
                                QLatin1String(it.key()->parentWidget() && it.key()->parentWidget()->parentWidget()
                                                  ? it.key()->parentWidget()->parentWidget()->metaObject()->className()
                                                  : ""));
        }
        return out.join(QLatin1Char('\n'));
    };
    QVERIFY(before.size() > 100);
    // And every text a plot draws itself (axes, legends and their entries, titles, labels): after presenter
    // mode each is back at its size (legends were left at 2/3 of it).
    QList<QCustomPlot *> plots = window.findChildren<QCustomPlot *>();
    for (QWidget *tool : {static_cast<QWidget *>(tools.lab()), static_cast<QWidget *>(tools.arena()),
                          static_cast<QWidget *>(tools.theoryExplorer())})
        plots << tool->findChildren<QCustomPlot *>();
    auto plotFonts = [&] {
        QMap<QString, double> sizes;
        for (QCustomPlot *plot : std::as_const(plots)) {
            const QString name = QLatin1String(plot->parentWidget()->metaObject()->className())
                + QString::number(plots.indexOf(plot));
            for (QCPAxisRect *rect : plot->axisRects())
                for (QCPAxis *axis : rect->axes())
                    sizes.insert(name + QStringLiteral(" axis %1").arg(axis->axisType()),
                                 QFontInfo(axis->tickLabelFont()).pointSizeF());
            if (plot->legend) {
                sizes.insert(name + QStringLiteral(" legend"), QFontInfo(plot->legend->font()).pointSizeF());
                for (int i = 0; i < plot->legend->itemCount(); ++i)
                    if (QCPAbstractLegendItem *item = plot->legend->item(i))
                        sizes.insert(name + QStringLiteral(" legend item %1").arg(i),
                                     QFontInfo(item->font()).pointSizeF());
            }
            for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
                if (auto *text = qobject_cast<QCPTextElement *>(element))
                    sizes.insert(name + QStringLiteral(" title"), QFontInfo(text->font()).pointSizeF());
        }
        return sizes;
    };
    const QMap<QString, double> plotsBefore = plotFonts();
    QVERIFY(plotsBefore.size() > 20);
    tools.setPresenterMode(true);
    QVERIFY2(wrong(1.5).isEmpty(), qPrintable(wrong(1.5)));
    tools.presenter()->zoomIn();
    QVERIFY2(wrong(1.6).isEmpty(), qPrintable(wrong(1.6)));
    tools.setPresenterMode(false);
    QVERIFY2(wrong(1.0).isEmpty(), qPrintable(wrong(1.0)));
    const QMap<QString, double> plotsAfter = plotFonts();
    QStringList changed;
    for (auto it = plotsBefore.cbegin(); it != plotsBefore.cend(); ++it)
        if (std::abs(plotsAfter.value(it.key()) - it.value()) > 0.06 * it.value())
            changed << QStringLiteral("%1: %2 pt, was %3").arg(it.key()).arg(plotsAfter.value(it.key())).arg(it.value());
    QVERIFY2(changed.isEmpty(), qPrintable(changed.join(QLatin1Char('\n'))));
    QSettings().setValue(QStringLiteral("presenter/scale"), PresenterMode::kDefaultScale);
}

void TestPresenter::cardTextsFollowTheFont()
{
    // The card painter's sizes follow the font it is given (the window's, scaled in presenter mode): the
    // token, the numbers and the die bar, as far as the card's width allows.
    CardContent card;
    card.glyph = QStringLiteral("国");
    card.caption = QStringLiteral("#1");
    card.frame.visible = true;
    card.frame.token = 1;
    card.frame.q = 0.5;
    card.frame.p = 0.25;
    card.frame.threshold = 0.5;
    card.frame.u = 0.3;
    card.frame.testShown = true;
    card.frame.passed = true;
    card.frame.state = CardFrame::State::Accepted;
    const LabColors colors = LabColors::from(QPalette());
    QFont font;
    font.setPixelSize(12);
    QFont large = font;
    large.setPixelSize(18);
    const QRectF rect(0, 0, 150, 300);
    const CardLayout normal = layoutCard(rect, card, colors, font);
    const CardLayout presenter = layoutCard(rect, card, colors, large);
    auto sizeOf = [](const CardLayout &layout, const QString &text) {
        for (const CardText &t : layout.texts)
            if (t.text == text)
                return t.font.pixelSize() > 0 ? double(t.font.pixelSize()) : QFontInfo(t.font).pixelSize() * 1.0;
        return -1.0;
    };
    QVERIFY(sizeOf(normal, card.glyph) > 0);
    QVERIFY2(sizeOf(presenter, card.glyph) >= 1.3 * sizeOf(normal, card.glyph),
             qPrintable(QStringLiteral("%1 → %2").arg(sizeOf(normal, card.glyph)).arg(sizeOf(presenter, card.glyph))));
    QVERIFY(sizeOf(presenter, QStringLiteral("q(x)")) >= 1.4 * sizeOf(normal, QStringLiteral("q(x)")));
    QVERIFY(presenter.dieBar.height() >= 1.4 * normal.dieBar.height());
    // A narrow card keeps the token inside it.
    const CardLayout narrow = layoutCard(QRectF(0, 0, 60, 300), card, colors, large);
    for (const CardText &t : narrow.texts)
        QVERIFY2(QRectF(0, 0, 60, 300).contains(t.rect), qPrintable(t.text));
}

void TestPresenter::treeLabelsFollowTheScale()
{
    // The tree view's token labels and numbers follow the presenter's scale (Ctrl+= too), and each node's box
    // grows to hold its token and its numbers; the verdict mark of a card ('?' while predicting) is at least
    // 1.5× the card's text.
    QSettings().setValue(QStringLiteral("presenter/scale"), PresenterMode::kDefaultScale);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    window.resize(1280, 720);
    window.show();
    Setup setup = test::tinySetup();
    setup.decoding.tree = TreeShape::parse("3,2,1");
    setup.decoding.seed = 4;
    window.startSession(setup);
    QVERIFY(QTest::qWaitFor([&] { return session.isReady(); }, 30000));
    session.requestRounds(2);
    QVERIFY(QTest::qWaitFor([&] { return session.history().size() >= 2; }, 30000));
    player.jumpTo(1, Phase::Verify);
    TreeView *tree = window.roundView()->tree();
    tree->finishAnimation();
    QVERIFY(tree->isVisible());
    auto pixels = [](const QFont &f) { return QFontInfo(f).pixelSize(); };
    const int label = pixels(tree->labelFont()), numbers = pixels(tree->numbersFont());
    QVERIFY(label >= 1.4 * pixels(tree->font()));
    window.classroom()->setPresenterMode(true);
    window.setMinimumSize(0, 0);
    window.resize(1280, 720);
    QCoreApplication::processEvents();
    QVERIFY2(std::abs(pixels(tree->labelFont()) - 1.5 * label) <= 1.0,
             qPrintable(QStringLiteral("%1 -> %2").arg(label).arg(pixels(tree->labelFont()))));
    QVERIFY(std::abs(pixels(tree->numbersFont()) - 1.5 * numbers) <= 1.0);
    window.classroom()->presenter()->zoomIn();
    QVERIFY(std::abs(pixels(tree->labelFont()) - 1.6 * label) <= 1.0);
    // In the round stage at 1280x720 the nodes hold their token (at the scaled size) and their numbers.
    QVERIFY(tree->numbersShown());
    for (int n = 0; n < static_cast<int>(session.history().at(1).tree->nodes.size()); ++n) {
        const QRectF r = tree->nodeRect(n);
        QVERIFY(!r.isEmpty());
        const QFont f = tree->labelFontFor(r);
        QVERIFY2(pixels(f) >= pixels(tree->font()), qPrintable(QString::number(pixels(f))));
        QVERIFY(QFontMetricsF(f).height() + QFontMetricsF(tree->numbersFont()).height() <= r.height());
    }
    window.classroom()->setPresenterMode(false);
    QCOMPARE(pixels(tree->labelFont()), label);
    QSettings().setValue(QStringLiteral("presenter/scale"), PresenterMode::kDefaultScale);

    // The card's verdict mark.
    CardContent card;
    card.glyph = QStringLiteral("a");
    card.caption = QStringLiteral("#1");
    card.frame.visible = true;
    card.frame.q = 0.5;
    card.frame.p = 0.25;
    card.frame.threshold = 0.5;
    card.frame.testShown = true; // passed unset: the '?' of predict before reveal
    card.frame.state = CardFrame::State::Pending;
    QFont font;
    font.setPixelSize(18);
    const CardLayout layout = layoutCard(QRectF(0, 0, 150, 300), card, LabColors::from(QPalette()), font);
    bool found = false;
    for (const CardText &t : layout.texts)
        if (t.text == QLatin1String("?")) {
            found = true;
            QVERIFY2(pixels(t.font) >= 1.5 * 18 - 1, qPrintable(QString::number(pixels(t.font))));
            QVERIFY(t.font.bold());
        }
    QVERIFY(found);
}

void TestPresenter::userGuideAndShortcuts()
{
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language language;
    language.set(QStringLiteral("en"));
    MainWindow window(&session, &player, &language);
    ClassroomTools &tools = *window.classroom();
    tools.showUserGuide();
    QVERIFY2(tools.help()->guidePath().endsWith(QStringLiteral("user-guide.md")), qPrintable(tools.help()->guidePath()));
    QTextDocument *doc = tools.help()->browser()->document();
    QVERIFY(doc->toPlainText().contains(QStringLiteral("specdec-lab user guide"))); // rendered: no '#' left
    QVERIFY(!doc->toPlainText().contains(QStringLiteral("# specdec-lab")));
    // Its images load (a broken one would be a zero-size resource).
    int images = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            if (f.isImageFormat()) {
                const QVariant image = doc->resource(QTextDocument::ImageResource, QUrl(f.toImageFormat().name()));
                QVERIFY2(image.isValid(), qPrintable(f.toImageFormat().name()));
                ++images;
            }
        }
    QVERIFY(images >= 3);
    // Its pictures fit the page: none wider than the browser's page (they scrolled sideways at their own size).
    tools.help()->resize(640, 600);
    QCoreApplication::processEvents();
    const double page = tools.help()->browser()->viewport()->width();
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (const QTextCharFormat f = it.fragment().charFormat(); f.isImageFormat())
                QVERIFY2(f.toImageFormat().width() > 0 && f.toImageFormat().width() <= page,
                         qPrintable(QStringLiteral("%1: %2 px on a %3 px page")
                                        .arg(f.toImageFormat().name())
                                        .arg(f.toImageFormat().width())
                                        .arg(page)));
    language.set(QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    QVERIFY(tools.help()->guidePath().endsWith(QStringLiteral("user-guide.zh_CN.md")));
    QVERIFY(tools.help()->browser()->toPlainText().contains(QStringLiteral("使用指南")));
    language.set(QStringLiteral("en"));
    QCoreApplication::processEvents();

    tools.showShortcuts();
    // The list is the registry's: one row per declared action with a key, each with its menu, none twice.
    const QList<ShortcutEntry> entries = shortcutEntries(*window.actions());
    QStringList keys;
    for (const ShortcutEntry &e : entries) {
        QVERIFY2(!keys.contains(e.shortcut), qPrintable(e.shortcut));
        QVERIFY2(!e.menu.isEmpty(), qPrintable(e.action));
        keys << e.shortcut;
    }
    for (const QString &k : {QStringLiteral("F5"), QStringLiteral("F1"), QStringLiteral("Space"), QStringLiteral("P")})
        QVERIFY2(keys.contains(k), qPrintable(keys.join(QLatin1Char(' '))));
    int declared = 0;
    for (QAction *a : window.actions()->actions())
        declared += a->shortcut().isEmpty() ? 0 : 1;
    QCOMPARE(entries.size(), declared);
    // An action declared later (a tool registering its key) is listed without touching the list's code.
    window.actions()->add(
        QStringLiteral("test.extra"), MenuId::Classroom, 5, [] { return QStringLiteral("Extra"); },
        QKeySequence(QStringLiteral("Ctrl+Shift+F12")));
    const QList<ShortcutEntry> more = shortcutEntries(*window.actions());
    QCOMPARE(more.size(), declared + 1);
    QVERIFY(std::any_of(more.begin(), more.end(), [](const ShortcutEntry &e) {
        return e.action == QLatin1String("Extra") && e.menu == QLatin1String("Classroom");
    }));
    tools.showShortcuts();
    QCOMPARE(tools.shortcuts()->table()->rowCount(), declared + 1);
}

QTEST_MAIN(TestPresenter)
#include "test_gui_presenter.moc"
