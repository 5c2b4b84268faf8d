// SPDX-License-Identifier: GPL-3.0-or-later
// Every text fits its box: the texts of every card (caption, token, q/p/r, the die's line, the greedy check,
// "discarded") at K = 1..8 in the card sizes of a 1280×720 and a 1920×1080 window, in English and Chinese,
// measured with QFontMetrics against their rectangles; the plots' legend entries get their full width; the
// distribution view's "others" label does not run into the last token's; a card's die line writes u and
// min(1, p/q) as the distribution view's caption does (0.0006 in both, not 0.00 on the card); the main window
// and the tool windows fit a 1280×720 screen in both languages.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ActionRegistry.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "CombiningHat.h"
#include "HelpBrowser.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "QuizFile.h"
#include "QuizView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"
#include "ToolWindows.h"

#include "ArenaLane.h"
#include "CacheStrip.h"
#include "CardStrip.h"
#include "DistributionView.h"
#include "NumberText.h"
#include "PlotsPanel.h"
#include "RoundRecord.h"
#include "RoundView.h"
#include "TimelineDelegate.h"
#include "TranscriptView.h"

#include <qcustomplot.h>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QPainter>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStringListModel>
#include <QTextBlock>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QTranslator>
#include <QVBoxLayout>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

std::shared_ptr<const RoundRecord> record(int k, int rejectedAt, bool greedy)
{
    RoundRecord r;
    RoundTrace &t = r.trace;
    t.draftLength = k;
    t.greedy = greedy;
    for (int i = 0; i < k; ++i) {
        DraftPosition p;
        p.token = i;
        p.q = 0.0006; // the widest numbers: four decimals
        p.p = 0.7345;
        p.ratio = 1224.1;
        p.threshold = 0.0006; // the die line's widest: "u 0.735 ≥ 0.0006"
        p.u = greedy ? -1.0 : 0.7345;
        p.verdict = rejectedAt < 0 || i < rejectedAt ? Verdict::Accepted
            : i == rejectedAt                        ? Verdict::Rejected
                                                     : Verdict::Discarded;
        t.positions.push_back(p);
    }
    t.rejectedAt = rejectedAt;
    t.correction = rejectedAt >= 0 ? 1 : -1;
    t.residual = Eigen::VectorXd::Constant(12, 1.0 / 12);
    t.bonus = rejectedAt >= 0 ? -1 : 2;
    t.bonusDist = Eigen::VectorXd::Constant(12, 1.0 / 12);
    return std::make_shared<const RoundRecord>(r);
}

std::shared_ptr<const Tokenizer> vocabulary()
{
    return std::make_shared<const Tokenizer>(Tokenizer::chars(Vocabulary::fromTokens(
        std::vector<char32_t>({U'风', U'花', U'雪', U'月', U'春', U'秋', U'山', U'水', U'江', U'河', U'湖', U'海'}))));
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT
private slots:
    void cardTextsFit_data();
    void cardTextsFit();
    void legendsKeepTheirWidth();
    void othersLabelStandsApart();
    void dieLineReadsAsTheCaption();
    void windowAndToolsFit720p_data();
    void windowAndToolsFit720p();
    void cacheTextsFit_data();
    void cacheTextsFit();
    void timelineRowsAreWhole();
    void arenaTranscriptShowsWholeLines_data();
    void arenaTranscriptShowsWholeLines();
    void roundTranscriptShowsWholeLinesAtItsEnd_data();
    void roundTranscriptShowsWholeLinesAtItsEnd();
    void labelsAreLegible();
    void livePlotsHaveRoom();
    void longDraftScrolls();
    void alphaHatIsDrawn_data();
    void alphaHatIsDrawn();
};

void TestLayout::cardTextsFit_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("strip");
    // The card strip's size in the main window at 1280×720 (cards at their narrowest) and 1920×1080.
    for (const char *language : {"en", "zh_CN"})
        for (const QSize &size : {QSize(600, 200), QSize(720, 260), QSize(1200, 360)})
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2x%3").arg(QLatin1String(language)).arg(size.width()).arg(size.height())))
                << QString::fromLatin1(language) << size;
}

void TestLayout::cardTextsFit()
{
    QFETCH(QString, language);
    QFETCH(QSize, strip);
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
        QCoreApplication::installTranslator(&translator);
    }
    CardStrip cards;
    cards.resize(strip);
    cards.setVocabulary(vocabulary());
    const LabColors colors = LabColors::from(cards.palette());
    int checked = 0;
    for (int k = 1; k <= 8; ++k) {
        for (const auto &[rejectedAt, greedy] :
             {std::pair{-1, false}, std::pair{0, false}, std::pair{k - 1, true}, std::pair{0, true}}) {
            const auto r = record(k, rejectedAt, greedy);
            for (Phase phase : phasesOf(r->trace)) {
                cards.setRound(r, phase, false);
                for (int card = 0; card <= k; ++card) {
                    const QRectF rect = cards.cardRect(card);
                    QVERIFY(QRectF(cards.rect()).contains(rect));
                    const CardContent content = cards.contentOf(card);
                    if (!content.frame.visible)
                        continue;
                    const CardLayout layout = layoutCard(rect, content, colors, cards.font());
                    QVERIFY2(!layout.texts.empty(), "the token is always drawn");
                    for (const CardText &t : layout.texts) {
                        const QRectF need = QFontMetricsF(t.font).boundingRect(t.rect, t.flags, t.text);
                        const QString where = QStringLiteral("K=%1 card %2 %3 “%4”: needs %5×%6 in %7×%8")
                                                  .arg(k)
                                                  .arg(card)
                                                  .arg(phaseKey(phase), t.text)
                                                  .arg(need.width())
                                                  .arg(need.height())
                                                  .arg(t.rect.width())
                                                  .arg(t.rect.height());
                        QVERIFY2(need.width() <= t.rect.width() + 0.5 && need.height() <= t.rect.height() + 0.5,
                                 qPrintable(where));
                        QVERIFY2(rect.adjusted(1, 1, -1, -1).contains(t.rect),
                                 qPrintable(where + QStringLiteral(" leaves the card")));
                        ++checked;
                    }
                    // What a card must say is said: the verdict of a tested card, "discarded" on a discarded one.
                    if (content.frame.state == CardContent::State::Discarded && rect.width() >= 84) {
                        const bool said = std::any_of(layout.texts.begin(), layout.texts.end(), [](const CardText &t) {
                            return t.text == QCoreApplication::translate("CardPainter", "discarded");
                        });
                        QVERIFY2(said, qPrintable(QStringLiteral("K=%1: “discarded” left out").arg(k)));
                    }
                }
            }
        }
    }
    QVERIFY(checked > 500);
    QCoreApplication::removeTranslator(&translator);
}

void TestLayout::legendsKeepTheirWidth()
{
    PlotsPanel plots;
    for (const QSize &size : {QSize(560, 520), QSize(420, 700), QSize(1200, 300)}) {
        plots.resize(size);
        plots.show();
        QCoreApplication::processEvents();
        for (int i = 0; i < 4; ++i) {
            QCustomPlot *plot = plots.plot(i);
            plot->replot();
            for (int j = 0; j < plot->legend->itemCount(); ++j) {
                QCPAbstractLegendItem *item = plot->legend->item(j);
                if (!item || !item->visible())
                    continue;
                QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                         qPrintable(QStringLiteral("plot %1 at %2×%3: a legend entry is cut")
                                        .arg(i)
                                        .arg(size.width())
                                        .arg(size.height())));
                QVERIFY(plot->rect().contains(item->outerRect()));
            }
        }
    }
}

void TestLayout::othersLabelStandsApart()
{
    DistributionView view;
    SessionInfo info;
    info.vocabulary = vocabulary();
    view.setSession(info);
    RoundRecord r;
    r.trace.draftLength = 1;
    DraftPosition p;
    p.token = 0;
    p.q = 0.2;
    p.p = 0.1;
    p.qDist = Eigen::VectorXd::Constant(12, 1.0 / 12);
    p.pDist = Eigen::VectorXd::LinSpaced(12, 1, 12) / 78.0;
    p.verdict = Verdict::Accepted;
    r.trace.positions.push_back(p);
    r.trace.bonusDist = p.pDist;
    r.trace.bonus = 1;
    const auto shared = std::make_shared<const RoundRecord>(r);
    for (int width : {320, 420, 600}) {
        view.resize(width, 420);
        view.show();
        view.showCard(shared, 0, Phase::Verify);
        QCoreApplication::processEvents();
        QCustomPlot *plot = view.plot();
        plot->replot();
        const auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        const QFontMetricsF metrics(plot->xAxis->tickLabelFont());
        const auto ticks = ticker->ticks();
        QVERIFY(ticks.size() >= 2);
        const double lastKey = ticks.lastKey();
        const double previousKey = std::prev(ticks.end(), 2).key();
        const double gap = plot->xAxis->coordToPixel(lastKey) - plot->xAxis->coordToPixel(previousKey);
        const double need = metrics.horizontalAdvance(ticks.last()) / 2
            + metrics.horizontalAdvance(*std::prev(ticks.end(), 2)) / 2;
        QVERIFY2(
            gap >= need,
            qPrintable(
                QStringLiteral("at %1 px: “others” %2 px from the last label, needs %3").arg(width).arg(gap).arg(need)));
    }
}

// A card's die line ("u 0.712 ≥ 0.0006") and the distribution view's caption of the same card write the same
// numbers the same way (probabilityText): the card once read "u 0.71 ≥ 0.00" beside the caption's "u 0.712",
// "min(1, p/q) 0.0006". In the card sizes of a 1280×720 and a 1920×1080 window the die line is drawn.
void TestLayout::dieLineReadsAsTheCaption()
{
    struct Die
    {
        double u, threshold;
        bool accepted;
    };
    for (const Die &die :
         {Die{0.712, 0.00056, false}, Die{0.863, 0.4105, false}, Die{0.11, 0.7734, true}, Die{0.0004, 0.0009, true}}) {
        RoundRecord r;
        RoundTrace &t = r.trace;
        t.draftLength = 2;
        for (int i = 0; i < 2; ++i) {
            DraftPosition p;
            p.token = i;
            p.q = 0.363;
            p.p = die.threshold * p.q;
            p.ratio = die.threshold;
            p.threshold = die.threshold;
            p.u = die.u;
            p.verdict = i == 0 ? (die.accepted ? Verdict::Accepted : Verdict::Rejected) : Verdict::Discarded;
            p.qDist = Eigen::VectorXd::Constant(12, 1.0 / 12);
            p.pDist = Eigen::VectorXd::Constant(12, 1.0 / 12);
            t.positions.push_back(p);
        }
        t.rejectedAt = die.accepted ? -1 : 0;
        t.correction = die.accepted ? -1 : 1;
        t.residual = Eigen::VectorXd::Constant(12, 1.0 / 12);
        t.bonus = -1;
        const auto record = std::make_shared<const RoundRecord>(r);
        const QString relation = die.accepted ? QStringLiteral("<") : QStringLiteral("≥");
        const DieTexts texts = dieTexts(die.u, die.threshold); // u rounded down, the digits the comparison needs
        const QString expected = QStringLiteral("u %1 %2 %3").arg(texts.u, relation, texts.threshold);

        DistributionView view;
        SessionInfo session;
        session.vocabulary = vocabulary();
        view.setSession(session);
        view.showCard(record, 0, Phase::Dice);
        const QString caption = QTextDocumentFragment::fromHtml(view.numbersText()).toPlainText();
        QVERIFY2(caption.contains(texts.u) && caption.contains(texts.threshold), qPrintable(caption));

        for (const QSize &strip : {QSize(720, 260), QSize(1200, 360)}) {
            CardStrip cards;
            cards.resize(strip);
            cards.setVocabulary(vocabulary());
            cards.setRound(record, Phase::Dice, false);
            const CardLayout layout = layoutCard(cards.cardRect(0), cards.contentOf(0),
                                                 LabColors::from(cards.palette()), cards.font());
            const auto line = std::find_if(layout.texts.begin(), layout.texts.end(), [](const CardText &text) {
                return text.text.startsWith(QLatin1String("u "));
            });
            QVERIFY2(line != layout.texts.end(), qPrintable(QStringLiteral("no die line at %1 px").arg(strip.width())));
            QCOMPARE(line->text, expected);
        }
    }
}

// A 720p projector outside presenter mode: in English and Chinese the main window asks for at most 1280×680
// (the title bar takes some 40 px), a window of 1280×720 is drawn at exactly that size (what --screenshot
// --size 1280x720 saves), and each tool window — arena, lossless lab, theory explorer, quiz — asks for at most
// 1280×680 too (the window once needed 1099×872, the arena 864×988).
void TestLayout::windowAndToolsFit720p_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestLayout::windowAndToolsFit720p()
{
    QFETCH(QString, language);
    QStandardPaths::setTestModeEnabled(true);
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
        QCoreApplication::installTranslator(&translator);
    }
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language languages; // not set: the translator above is the one installed
    MainWindow window(&session, &player, &languages);
    window.arrangeFor(QSize(1280, 720));
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    window.startSession(test::tinySetup());
    QVERIFY(ready.wait(30000));
    QCoreApplication::processEvents();
    const auto fits = [](const QWidget *w, const char *what) {
        const QSize min = w->minimumSizeHint().expandedTo(w->minimumSize());
        QVERIFY2(min.width() <= 1280 && min.height() <= 680,
                 qPrintable(QStringLiteral("%1 needs %2×%3").arg(QLatin1String(what)).arg(min.width()).arg(min.height())));
    };
    fits(&window, "the main window");
    QCOMPARE(window.size(), QSize(1280, 720));
    QCOMPARE(window.grab().size(), QSize(1280, 720));
    const ClassroomTools &tools = *window.classroom();
    fits(tools.arena(), "the arena");
    fits(tools.lab(), "the lossless lab");
    fits(tools.theoryExplorer(), "the theory explorer");
    fits(tools.quiz(), "the quiz");
    // Show me places the demonstrating tool beside the quiz on a 1280×720 projector (window frames of 8 px
    // and a 40-px title bar): the two frames do not overlap (the explorer covered the question and its
    // caption) unless their minimum widths exceed the screen, and both lie inside the screen.
    const QMargins frame(8, 40, 8, 8);
    const QRect projector(0, 0, 1280, 720);
    for (const QWidget *tool : {static_cast<const QWidget *>(tools.theoryExplorer()),
                                static_cast<const QWidget *>(tools.lab()), static_cast<const QWidget *>(tools.arena())})
        for (int width : {tool->width(), 1200}) {
            const QSize minimum = [](const QWidget *w) {
                return w->minimumSizeHint().expandedTo(w->minimumSize());
            }(tool);
            const auto [quizRect, toolRect] = ToolWindows::sideBySide(
                QSize(900, 620), tools.quiz()->minimumSizeHint().expandedTo(tools.quiz()->minimumSize()),
                QSize(width, 600), minimum, projector.marginsRemoved(frame), frame);
            const QRect quizFrame = quizRect.marginsAdded(frame), toolFrame = toolRect.marginsAdded(frame);
            // (where the two minimum widths are more than the screen, the quiz covers no more than that excess)
            const int excess = std::max(0,
                                        tools.quiz()->minimumSizeHint().width() + minimum.width()
                                            + 2 * (frame.left() + frame.right()) - projector.width());
            QVERIFY2(quizFrame.intersected(toolFrame).width() <= excess && projector.contains(quizFrame)
                         && projector.contains(toolFrame),
                     qPrintable(QStringLiteral("%1 (%2 px wide) at %3,%4 %5×%6 beside the quiz at %7,%8 %9×%10")
                                    .arg(tool->windowTitle())
                                    .arg(width)
                                    .arg(toolFrame.x())
                                    .arg(toolFrame.y())
                                    .arg(toolFrame.width())
                                    .arg(toolFrame.height())
                                    .arg(quizFrame.x())
                                    .arg(quizFrame.y())
                                    .arg(quizFrame.width())
                                    .arg(quizFrame.height())));
            QVERIFY(quizRect.width() >= 1280 / 3 - 16); // the question and its caption stay readable
        }
    // Opened, each tool window lies inside the screen.
    ClassroomTools &classroom = *window.classroom();
    classroom.showLab();
    classroom.showArena();
    const QRect screen = window.screen()->availableGeometry();
    for (const QWidget *tool : {static_cast<const QWidget *>(tools.lab()), static_cast<const QWidget *>(tools.arena())})
        QVERIFY2(screen.contains(tool->geometry().topLeft()) // (wholly, unless it needs more than the screen)
                     && (screen.contains(tool->geometry()) || tool->minimumSizeHint().width() > screen.width()
                         || tool->minimumSizeHint().height() > screen.height()),
                 qPrintable(QStringLiteral("%1 at %2,%3 %4×%5 outside the screen")
                                .arg(tool->windowTitle())
                                .arg(tool->x())
                                .arg(tool->y())
                                .arg(tool->width())
                                .arg(tool->height())));
    // A minimised tool window comes back from its Classroom menu entry (it stayed an icon).
    tools.lab()->setWindowState(tools.lab()->windowState() | Qt::WindowMinimized);
    QVERIFY(tools.lab()->isMinimized());
    window.actions()->action(QStringLiteral("classroom.lab"))->trigger();
    QVERIFY(!tools.lab()->isMinimized());
    QVERIFY(tools.lab()->isVisible());
    // Help ▸ Reset layout and setup lays the window out for its screen (the compact layout on a small one),
    // not as the 1600×1000 layout it was built with (817 px tall: plots and theory cut at 1280×720).
    classroom.resetLayoutAndSetup();
    QCoreApplication::processEvents();
    QVERIFY(window.isCompact());
    fits(&window, "the main window after Reset layout");
    QCoreApplication::removeTranslator(&translator);
}

void TestLayout::cacheTextsFit_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QSize>("window");
    for (const char *language : {"en", "zh_CN"})
        for (const QSize &size : {QSize(1280, 720), QSize(1600, 1000)})
            QTest::newRow(
                qPrintable(QStringLiteral("%1 %2x%3").arg(QLatin1String(language)).arg(size.width()).arg(size.height())))
                << QString::fromLatin1(language) << size;
}

// The cache strip's two lines with six-digit lengths (a long session near 200,000 positions, a rollback and a
// refill): in the main window at 1280×720 and 1600×1000, and alone from 260 px up, each text is drawn whole
// (never elided: the 1280 window once drew "target cache: 195985 → 195990 → 195986 (4 disc…"), inside the
// strip, measured with the font it is drawn in.
void TestLayout::cacheTextsFit()
{
    QFETCH(QString, language);
    QFETCH(QSize, window);
    QStandardPaths::setTestModeEnabled(true);
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
        QCoreApplication::installTranslator(&translator);
    }
    RoundFrame frame;
    frame.targetCache = {true, 195985, 195986, 195990, true, 4, 0};
    frame.draftCache = {true, 199981, 199986, 199990, true, 4, 12};
    const auto check = [&](CacheStrip *strip, const char *where) {
        strip->setFrame(frame);
        using Model = CacheStrip::Model;
        for (Model m : {Model::Target, Model::Draft}) {
            const CacheStrip::RowText row = strip->drawnRow(m);
            const QFontMetrics fm(row.font);
            const QString what =
                QStringLiteral("%1 at %2 px: \"%3\"").arg(QLatin1String(where)).arg(strip->width()).arg(row.text);
            QVERIFY2(strip->rect().contains(row.rect), qPrintable(what));
            QVERIFY2(fm.horizontalAdvance(row.text) <= row.rect.width(), qPrintable(what));
            QVERIFY2(fm.height() <= row.rect.height(), qPrintable(what));
            QVERIFY2(row.font.pointSizeF() >= 6.5, qPrintable(what));
            const CacheFrame &c = strip->shown(m);
            for (int n : {c.before, c.peak, c.length, c.discarded})
                QVERIFY2(row.text.contains(QString::number(n)), qPrintable(what));
        }
    };
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language languages;
    MainWindow main(&session, &player, &languages);
    main.arrangeFor(window);
    main.resize(window);
    main.show();
    QSignalSpy ready(&session, &SessionController::ready);
    main.startSession(test::tinySetup());
    QVERIFY(ready.wait(30000));
    QCoreApplication::processEvents();
    CacheStrip *inWindow = main.roundView()->caches();
    QVERIFY(inWindow->isVisible());
    check(inWindow, "the main window's strip");
    CacheStrip alone;
    for (int width : {260, 360, 480, 640, 900}) {
        alone.resize(width, alone.sizeHint().height());
        check(&alone, "a strip");
    }
    QCoreApplication::removeTranslator(&translator);
}

// A timeline row is drawn whole: painted alone into an image three rows tall, at the height the delegate asks
// for, no ink falls outside its rectangle (the "␣" of a space, from a fallback font, was cut at its bottom by
// the next row's background), in the application's font and the presenter's larger one.
void TestLayout::timelineRowsAreWhole()
{
    TimelineDelegate delegate;
    QStringListModel model(QStringList{QStringLiteral("  7   ✓✓✗   the␣cat␣"), QStringLiteral(" 12   ✓✗   风␣花␣"),
                                       QStringLiteral("123   ✓✓✓✓✓✓✓✓   ␣␣␣")});
    for (qreal scale : {1.0, 1.5}) {
        QFont font = QApplication::font();
        font.setPointSizeF(font.pointSizeF() * scale);
        for (int row = 0; row < model.rowCount(); ++row) {
            QStyleOptionViewItem option;
            option.font = font;
            option.fontMetrics = QFontMetrics(font);
            option.palette = QApplication::palette();
            option.state = QStyle::State_Enabled;
            option.rect = QRect(QPoint(0, 0), QSize(300, 20));
            const QSize hint = delegate.sizeHint(option, model.index(row));
            option.rect = QRect(0, hint.height(), 300, hint.height());
            QImage image(300, 3 * hint.height(), QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            {
                QPainter painter(&image);
                delegate.paint(&painter, option, model.index(row));
            }
            int inkTop = image.height(), inkBottom = -1;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (qAlpha(image.pixel(x, y)) > 0) {
                        inkTop = std::min(inkTop, y);
                        inkBottom = std::max(inkBottom, y);
                    }
            QVERIFY(inkBottom >= 0);
            QVERIFY2(inkTop >= option.rect.top() && inkBottom <= option.rect.bottom(),
                     qPrintable(QStringLiteral("row %1 at %2x: ink %3..%4 outside %5..%6")
                                    .arg(row)
                                    .arg(scale)
                                    .arg(inkTop)
                                    .arg(inkBottom)
                                    .arg(option.rect.top())
                                    .arg(option.rect.bottom())));
        }
    }
}

namespace {

/// A session whose prompt is `tokens` long, in English (twelve letters, tall and deep ones among them) or
/// Chinese, for the transcripts' whole-line checks.
SessionInfo longPrompt(bool chinese, int tokens)
{
    SessionInfo session;
    session.vocabulary = chinese
        ? vocabulary()
        : std::make_shared<const Tokenizer>(Tokenizer::chars(Vocabulary::fromTokens(
            std::vector<char32_t>({U'a', U'e', U'g', U'h', U'j', U'o', U'r', U't', U'y', U' ', U'W', U'.'}))));
    for (int i = 0; i < tokens; ++i)
        session.prompt.push_back((i * 7 + i / 5) % 12);
    return session;
}

/// The laid-out lines of `t` that reach into its text area at its scroll position; a line that reaches in but
/// is cut by the area's top or bottom is described in `cut`.
int wholeLinesShown(const TranscriptView *t, QString *cut)
{
    const qreal height = t->viewport()->height();
    const int scrolled = t->verticalScrollBar()->value();
    int visible = 0;
    for (QTextBlock b = t->document()->begin(); b.isValid(); b = b.next()) {
        const QPointF at = t->document()->documentLayout()->blockBoundingRect(b).topLeft();
        const QTextLayout *layout = b.layout();
        for (int i = 0; i < layout->lineCount(); ++i) {
            const QTextLine line = layout->lineAt(i);
            const qreal top = at.y() + line.y() - scrolled;
            const qreal bottom = top + line.height();
            if (bottom <= 0.5 || top >= height - 0.5) // less than half a pixel inside: not drawn
                continue;
            if (cut->isEmpty() && (top < -0.5 || bottom > height + 0.5))
                *cut = QStringLiteral("a line at %1..%2 in a text area 0..%3 (scrolled to %4)")
                           .arg(top)
                           .arg(bottom)
                           .arg(height)
                           .arg(scrolled);
            ++visible;
        }
    }
    return visible;
}

} // namespace

// An arena lane's transcript scrolled to its end shows whole lines only: every laid-out line that reaches into
// the text area lies inside it, and there are the lane's two (its text was a line and a half too tall: the top
// line showed cut in half), with English and Chinese text, in a narrow and a wide lane.
void TestLayout::arenaTranscriptShowsWholeLines_data()
{
    QTest::addColumn<bool>("chinese");
    QTest::addColumn<int>("width");
    for (bool chinese : {false, true})
        for (int width : {380, 640})
            QTest::addRow("%s %d", chinese ? "zh" : "en", width) << chinese << width;
}

void TestLayout::arenaTranscriptShowsWholeLines()
{
    QFETCH(bool, chinese);
    QFETCH(int, width);
    const SessionInfo session = longPrompt(chinese, 400);
    ArenaLane lane;
    lane.setLane(QStringLiteral("lane"), session, {});
    lane.resize(width, lane.sizeHint().height());
    lane.show();
    QCoreApplication::processEvents();
    TranscriptView *t = lane.transcript();
    QScrollBar *bar = t->verticalScrollBar();
    QVERIFY(bar->maximum() > 0); // the text is longer than the box
    for (int value : {bar->maximum(), 0}) {
        bar->setValue(value);
        QString cut;
        QCOMPARE(wholeLinesShown(t, &cut), 2);
        QVERIFY2(cut.isEmpty(), qPrintable(cut));
    }
}

// The round view's transcript, once its text is taller than its share of the window, scrolls to its end with
// whole lines only (the top line showed cut in half), whatever its height, in English and Chinese, also once
// its text is made larger.
void TestLayout::roundTranscriptShowsWholeLinesAtItsEnd_data()
{
    QTest::addColumn<bool>("chinese");
    QTest::addColumn<int>("height");
    for (bool chinese : {false, true})
        for (int height : {97, 130, 171, 203})
            QTest::addRow("%s %d", chinese ? "zh" : "en", height) << chinese << height;
}

void TestLayout::roundTranscriptShowsWholeLinesAtItsEnd()
{
    QFETCH(bool, chinese);
    QFETCH(int, height);
    const SessionInfo session = longPrompt(chinese, 600);
    QWidget box;
    auto *layout = new QVBoxLayout(&box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *t = new TranscriptView;
    layout->addWidget(t);
    t->setSession(session);
    box.resize(420, height);
    box.show();
    QCoreApplication::processEvents();
    QVERIFY(t->verticalScrollBar()->maximum() > 0); // the text is longer than the box
    QCOMPARE(t->verticalScrollBar()->value(), t->verticalScrollBar()->maximum());
    QString cut;
    QVERIFY(wholeLinesShown(t, &cut) >= 1);
    QVERIFY2(cut.isEmpty(), qPrintable(cut));
    // Presenter mode scales the text (the transcript's own font): the lines stay whole at the new size.
    QFont larger = t->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.6);
    t->setFont(larger);
    QCoreApplication::processEvents();
    QVERIFY(wholeLinesShown(t, &cut) >= 1);
    QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("larger text: ") + cut));
}

namespace {

/// WCAG 2's contrast ratio of two colours: (L1 + 0.05) / (L2 + 0.05), L the relative luminance.
double contrast(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double x = luminance(a), y = luminance(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

} // namespace

// Legible from the back of the room: every label (and option) of the window and its tool windows, with the
// quiz's answer and "Show me" caption shown, has a text colour of at least 4.5:1 against its background
// (WCAG AA). The caption was QPalette::Mid, #B8B8B8 on #EFEFEF (1.7:1).
void TestLayout::labelsAreLegible()
{
    test::Window w;
    w.window.resize(1600, 1000);
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(20000));
    w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 0, 20000);
    ClassroomTools &tools = *w.window.classroom();
    tools.showLab();
    tools.showArena();
    tools.showTheory();
    tools.showQuiz(0);
    tools.quiz()->setChosen(QStringLiteral("A"));
    tools.quiz()->reveal();
    tools.quiz()->setShowMeResult(QStringLiteral("Measured run: 2 rounds"));
    QCoreApplication::processEvents();
    QStringList failures;
    int checked = 0;
    for (QWidget *top :
         {static_cast<QWidget *>(&w.window), static_cast<QWidget *>(tools.lab()), static_cast<QWidget *>(tools.arena()),
          static_cast<QWidget *>(tools.theoryExplorer()), static_cast<QWidget *>(tools.quiz())}) {
        QList<QWidget *> texts;
        for (QLabel *l : top->findChildren<QLabel *>())
            if (!l->text().trimmed().isEmpty())
                texts << l;
        for (QAbstractButton *b : top->findChildren<QAbstractButton *>())
            if (qobject_cast<QCheckBox *>(b) || qobject_cast<QRadioButton *>(b))
                texts << b;
        for (QWidget *t : texts) {
            if (!t->isEnabled())
                continue;
            t->ensurePolished();
            const QColor fg = t->palette().color(t->foregroundRole());
            const QColor bg = t->palette().color(t->backgroundRole());
            ++checked;
            const double ratio = contrast(fg, bg);
            if (ratio < 4.5) {
                const auto *label = qobject_cast<QLabel *>(t);
                const auto *button = qobject_cast<QAbstractButton *>(t);
                failures << QStringLiteral("%1 “%2”: %3 on %4 = %5:1")
                                .arg(QString::fromLatin1(t->metaObject()->className()),
                                     (label        ? label->text()
                                          : button ? button->text()
                                                   : QString())
                                         .left(40),
                                     fg.name(), bg.name())
                                .arg(ratio, 0, 'f', 2);
            }
        }
    }
    QVERIFY(checked > 30);
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1Char('\n'))));
    QVERIFY(tools.quiz()->showMeText().contains(QStringLiteral("Measured run")));
}

// At 1600×1000 the live plots run along the bottom: once a 2×2 grid there left each plot ~45 px of axis with
// its labels overlapping. Each plot's axis rectangle is at least 100 px tall, its tick labels apart.
void TestLayout::livePlotsHaveRoom()
{
    test::Window w;
    w.window.arrangeFor(QSize(1600, 1000));
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(20000));
    w.session.requestRounds(20);
    QTRY_VERIFY_WITH_TIMEOUT(w.session.history().size() >= 20, 20000);
    w.player.jumpTo(19, Phase::Commit);
    QCoreApplication::processEvents();
    PlotsPanel *plots = w.window.plots();
    QVERIFY(plots->isVisible());
    for (int i = 0; i < 4; ++i) {
        QCustomPlot *plot = plots->plot(i);
        plot->replot();
        const QRect axis = plot->axisRect()->rect();
        QVERIFY2(axis.height() >= 100,
                 qPrintable(QStringLiteral("plot %1: %2 px of axis in a %3×%4 plot")
                                .arg(i)
                                .arg(axis.height())
                                .arg(plot->width())
                                .arg(plot->height())));
        // The y axis's tick labels do not overlap: ticks at least a label's height apart.
        const QVector<double> ticks = plot->yAxis->tickVector();
        const double line = QFontMetricsF(plot->yAxis->tickLabelFont()).height();
        for (int t = 1; t < ticks.size(); ++t)
            QVERIFY(std::abs(plot->yAxis->coordToPixel(ticks[t]) - plot->yAxis->coordToPixel(ticks[t - 1])) >= line);
    }
}

// K = 30 at 1280×720: the cards once became 24-px pills and cards 17 to 30 and the residual card lay beyond
// the strip's edge. Every card keeps a legible width inside the strip, and the strip scrolls sideways.
void TestLayout::longDraftScrolls()
{
    test::Window w;
    w.window.arrangeFor(QSize(1280, 720));
    w.window.show();
    QSignalSpy ready(&w.session, &SessionController::ready);
    Setup setup = test::tinySetup();
    setup.decoding.draftLength = 30;
    w.window.startSession(setup);
    QVERIFY(ready.wait(20000));
    w.player.nextRound();
    QTRY_COMPARE_WITH_TIMEOUT(w.player.round(), 0, 20000);
    w.player.jumpTo(0, Phase::Commit);
    QCoreApplication::processEvents();
    const CardStrip *cards = w.window.roundView()->cards();
    const int n = w.session.history().at(0).trace.draftLength + 1;
    QVERIFY(n > 20);
    QCOMPARE(cards->cardCount(), n);
    for (int card = 0; card < n; ++card) {
        const QRectF rect = cards->cardRect(card);
        QVERIFY2(QRectF(cards->rect()).contains(rect) && rect.width() >= 44,
                 qPrintable(QStringLiteral("card %1 at %2 + %3 in a strip of %4")
                                .arg(card)
                                .arg(rect.left())
                                .arg(rect.width())
                                .arg(cards->width())));
    }
    QScrollArea *area = nullptr;
    for (QWidget *p = cards->parentWidget(); p && !area; p = p->parentWidget())
        area = qobject_cast<QScrollArea *>(p);
    QVERIFY(area);
    QVERIFY(area->horizontalScrollBar()->maximum() > 0); // it scrolls to the last cards
    QVERIFY(w.window.minimumSizeHint().width() <= 1280); // and the window still fits the projector
}

void TestLayout::alphaHatIsDrawn_data()
{
    QTest::addColumn<QString>("language");
    QTest::addRow("en") << QStringLiteral("en");
    QTest::addRow("zh_CN") << QStringLiteral("zh_CN");
}

// α̂ everywhere it is shown (the theory panel, the live plots' legends, the arena's table and plot, the quiz's
// Show me caption, the user guide) is written so that the font draws its hat over α: DejaVu Sans Book, Debian's
// default sans, put a bare combining circumflex 1.5 em up, into the line above ("α = 93/117" and a stray "ˆ").
// The theory panel's α̂, drawn in its font, has ink above α and none above its line.
void TestLayout::alphaHatIsDrawn()
{
    QFETCH(QString, language);
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
        QCoreApplication::installTranslator(&translator);
    }
    const QString drawn = QStringLiteral(u"α\u200D\u0302");
    QMap<QString, QString> shown; // where → its text
    TheoryPanel theory;
    RunMetrics m;
    m.rounds = 30;
    m.tested = 117;
    m.accepted = 93;
    m.acceptanceRate = 93.0 / 117.0;
    m.generatedTokens = 123;
    m.tokensPerRound = 4.1;
    m.targetCalls = 30;
    theory.setMetrics(m, 4);
    shown.insert(QStringLiteral("theory panel"), theory.toPlainText());
    PlotsPanel plots;
    ArenaView arena;
    for (const auto &[where, widget] : {std::pair{QStringLiteral("live plots"), static_cast<QWidget *>(&plots)},
                                        std::pair{QStringLiteral("arena"), static_cast<QWidget *>(&arena)}})
        for (QCustomPlot *plot : widget->findChildren<QCustomPlot *>()) {
            for (int i = 0; i < plot->plottableCount(); ++i)
                shown[where] += plot->plottable(i)->name() + QLatin1Char('\n');
            for (QCPLayoutElement *element : plot->plotLayout()->elements(true))
                if (auto *title = qobject_cast<QCPTextElement *>(element))
                    shown[where] += title->text() + QLatin1Char('\n');
        }
    shown[QStringLiteral("arena")] += arena.table()->horizontalHeaderItem(1)->text();
    QuizView quiz;
    quiz.setQuiz(app::QuizFile::load(QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/ten-questions.quiz.json")));
    quiz.setQuestion(8);
    quiz.reveal(); // the caption shows with the answer
    shown.insert(QStringLiteral("quiz question 9"), quiz.showMeText());
    qputenv("SPECDEC_DOC_DIR", SPECDEC_SOURCE_DIR "/docs");
    HelpBrowser guide;
    QVERIFY(guide.showGuide());
    shown.insert(QStringLiteral("user guide"), guide.browser()->toPlainText());
    for (auto it = shown.cbegin(); it != shown.cend(); ++it) {
        QVERIFY2(it.value().contains(drawn), qPrintable(it.key() + QStringLiteral(": ") + it.value().left(300)));
        QVERIFY2(app::bareHats(it.value()) == 0, qPrintable(it.key() + QStringLiteral(": a hat without its joiner")));
    }

    // The theory panel's α̂ as its font draws it, on a line three lines tall: the hat's ink stands above α's, and
    // inside the line (below the font's ascent over the baseline).
    const QString text = shown.value(QStringLiteral("theory panel"));
    const qsizetype hat = text.indexOf(QChar(u'\u0302'));
    QVERIFY(hat > 0);
    qsizetype base = hat - 1;
    while (base > 0 && text[base] == QChar(u'\u200D'))
        --base;
    const QString cluster = text.mid(base, hat + 1 - base);
    const QFont font = theory.font();
    const QFontMetrics metrics(font);
    auto inkTop = [&](const QString &s) {
        QImage image(metrics.height() * 4, metrics.height() * 3, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        painter.setFont(font);
        painter.setPen(Qt::black);
        painter.drawText(QPointF(metrics.height(), 2 * metrics.height()), s);
        painter.end();
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < 160)
                    return y - 2 * metrics.height(); // relative to the baseline
        return 0;
    };
    const int alphaTop = inkTop(text.mid(base, 1));
    const int clusterTop = inkTop(cluster);
    QVERIFY2(clusterTop < alphaTop - 1,
             qPrintable(QStringLiteral("no hat over α: ink from %1, α from %2").arg(clusterTop).arg(alphaTop)));
    QVERIFY2(
        clusterTop >= -metrics.ascent() - 1,
        qPrintable(
            QStringLiteral("the hat floats above the line: ink from %1, ascent %2").arg(clusterTop).arg(metrics.ascent())));
    QCoreApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestLayout)
#include "test_gui_layout.moc"
