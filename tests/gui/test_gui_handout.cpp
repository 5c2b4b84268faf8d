// SPDX-License-Identifier: GPL-3.0-or-later
// What a class takes home. The handout of a played round holds its setup (corpus, models, K, temperatures,
// seed, prompt), the run's numbers, the algorithm in five lines and the colour legend, in the language of the
// window, with every text inside the page and none over the pictures of the round and the distributions
// (read back from a recording paint device). The quiz sheet is two A4 pages: the ten questions (each whole
// in one column, no answer on the page), then the answers.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ClassroomTools.h"
#include "CombiningHat.h"
#include "DistributionView.h"
#include "Exporter.h"
#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "QuizSheet.h"
#include "RoundView.h"
#include "SessionController.h"

#include "FileIo.h"

#include <qcustomplot.h>

#include <QPaintEngine>
#include <QPdfWriter>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

#include <cerrno>
#include <sys/stat.h>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// A paint engine that keeps what was drawn: each text run with its box, each picture with its box (device
/// coordinates).
class RecordingEngine : public QPaintEngine
{
public:
    struct Text
    {
        QString text;
        QRectF box;
    };
    QList<Text> texts;
    QList<QRectF> pictures;

    RecordingEngine()
        : QPaintEngine(QPaintEngine::AllFeatures)
    {
    }
    bool begin(QPaintDevice *) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState &changed) override
    {
        if (changed.state() & QPaintEngine::DirtyTransform)
            m_transform = changed.transform();
    }
    void drawPixmap(const QRectF &r, const QPixmap &, const QRectF &) override { pictures << m_transform.mapRect(r); }
    void drawTextItem(const QPointF &p, const QTextItem &item) override
    {
        const QFontMetricsF m(item.font());
        const QRectF box(p.x(), p.y() - item.ascent(), m.horizontalAdvance(item.text()), item.ascent() + item.descent());
        texts << Text{item.text(), m_transform.mapRect(box)};
    }
    void drawPolygon(const QPointF *, int, PolygonDrawMode) override { }
    void drawPath(const QPainterPath &) override { }
    void drawRects(const QRectF *, int) override { }
    void drawLines(const QLineF *, int) override { }
    void drawEllipse(const QRectF &) override { }
    void drawImage(const QRectF &r, const QImage &, const QRectF &, Qt::ImageConversionFlags) override
    {
        pictures << m_transform.mapRect(r);
    }
    Type type() const override { return QPaintEngine::User; }

private:
    QTransform m_transform;
};

/// An A4 page at 150 dpi that records instead of drawing.
class RecordingPage : public QPaintDevice
{
public:
    mutable RecordingEngine engine;
    QPaintEngine *paintEngine() const override { return &engine; }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth: return 1240;
        case PdmHeight: return 1754;
        case PdmWidthMM: return 210;
        case PdmHeightMM: return 297;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY: return 150;
        case PdmDepth: return 32;
        case PdmNumColors: return INT_MAX;
        case PdmDevicePixelRatio: return 1;
        case PdmDevicePixelRatioScaled: return static_cast<int>(QPaintDevice::devicePixelRatioFScale());
        }
        return 0;
    }
};

int pdfPages(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray pdf = f.readAll();
    return static_cast<int>(pdf.count("/Type /Page") - pdf.count("/Type /Pages"));
}

} // namespace

class TestHandout : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void handoutHoldsTheSetup_data();
    void handoutHoldsTheSetup();
    void quizSheetIsQuestionsThenAnswers_data();
    void quizSheetIsQuestionsThenAnswers();
    void exportsAreAtomic();

private:
    app::QuizFile m_quiz;
};

void TestHandout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    m_quiz = app::QuizFile::load(QStringLiteral(SPECDEC_SOURCE_DIR "/lessons/ten-questions.quiz.json"));
    QCOMPARE(m_quiz.questions.size(), 10);
}

void TestHandout::handoutHoldsTheSetup_data()
{
    QTest::addColumn<QString>("language");
    QTest::addRow("en") << QStringLiteral("en");
    QTest::addRow("zh_CN") << QStringLiteral("zh_CN");
}

void TestHandout::handoutHoldsTheSetup()
{
    QFETCH(QString, language);
    SessionController session(test::builtCorpora());
    Player player(&session);
    Language lang;
    lang.set(language);
    // The translations are embedded in specdec-lab, not in this test: load the one the build compiled.
    QTranslator translator;
    QVERIFY(translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + language + QStringLiteral(".qm")));
    QCoreApplication::installTranslator(&translator);
    MainWindow window(&session, &player, &lang);
    window.resize(1600, 1000);
    window.show();
    QSignalSpy ready(&session, &SessionController::ready);
    Setup setup = test::tinySetup();
    setup.decoding.seed = 23;
    setup.decoding.draftLength = 5;
    setup.decoding.target.temperature = setup.decoding.draft.temperature = 0.7;
    window.startSession(setup);
    QVERIFY(ready.wait(30000));
    session.requestRounds(4);
    QTRY_VERIFY_WITH_TIMEOUT(session.history().size() >= 4, 30000);
    player.jumpTo(3, Phase::Commit);

    const HandoutText text = window.classroom()->handoutText();
    const QString setupLine = text.setup.join(QLatin1Char(' '));
    for (const QString &part :
         {QStringLiteral("tiny-en.txt"), QStringLiteral("ngram:4"), QStringLiteral("ngram:2"), QStringLiteral("K = 5"),
          QStringLiteral("0.7"), QStringLiteral("23"), QStringLiteral("the ")})
        QVERIFY2(setupLine.contains(part), qPrintable(setupLine + QStringLiteral(" lacks ") + part));

    RecordingPage page;
    QVERIFY(paintHandout(&page, text, window.roundView(), window.distributionView()));
    const auto &drawn = page.engine.texts;
    QString all;
    for (const auto &t : drawn)
        all += t.text + QLatin1Char('\n');
    // The setup, the numbers, the algorithm and the legend, as the window's language writes them.
    QString compact = all;
    compact.remove(QLatin1Char('\n'));
    for (const QString &line : text.setup + text.numbers.mid(0, 3) + handoutAlgorithm().mid(0, 1) + handoutLegend()) {
        QString want = line;
        want.remove(QLatin1Char(' '));
        QString have = compact;
        have.remove(QLatin1Char(' '));
        QVERIFY2(have.contains(want.left(12)), qPrintable(line));
    }
    if (language == QLatin1String("zh_CN"))
        QVERIFY2(!all.contains(QStringLiteral("The algorithm")) && !all.contains(QStringLiteral("This run")),
                 "the handout's own texts stayed in English");
    QVERIFY2(!all.contains(QStringLiteral("_{")), "raw TeX on the page");
    // α̂ (the run's numbers, the theory block) with its hat drawn over α (app/core/CombiningHat.h).
    QVERIFY2(all.contains(QStringLiteral(u"α\u200D\u0302")), qPrintable(all));
    QCOMPARE(app::bareHats(all), 0);
    // Two pictures (the round, the distributions); every text inside the page and off the pictures.
    QCOMPARE(page.engine.pictures.size(), 2);
    const QRectF sheet(0, 0, page.width(), page.height());
    for (const auto &t : drawn) {
        QVERIFY2(sheet.contains(t.box), qPrintable(t.text));
        for (const QRectF &picture : page.engine.pictures)
            QVERIFY2(!picture.adjusted(2, 2, -2, -2).intersects(t.box), qPrintable(t.text));
    }

    // A long title (model paths) stays on the page: smaller, then on two lines (it was cut at the right edge).
    HandoutText longTitle = text;
    longTitle.title += QStringLiteral(" (kjv/target-large-with-a-long-name / kjv/draft-small-with-a-long-name)");
    RecordingPage longPage;
    QVERIFY(paintHandout(&longPage, longTitle, window.roundView(), window.distributionView()));
    const QRectF longSheet(0, 0, longPage.width(), longPage.height());
    for (const auto &t : longPage.engine.texts)
        QVERIFY2(longSheet.contains(t.box), qPrintable(t.text));

    // One source of numbers on the page: at round 4's dice (not committed yet) the run's numbers and the
    // theory block beside them both count the 3 rounds committed (once the numbers counted round 4 and the
    // theory 3: "α = 0.50" beside "7/13 = 0.538").
    player.jumpTo(3, Phase::Dice);
    QCOMPARE(player.phase(), Phase::Dice);
    const HandoutText atDice = window.classroom()->handoutText();
    const RunMetrics &three = session.history().at(2).cumulative;
    const QString alpha = QString::number(three.acceptanceRate, 'f', 2);
    QVERIFY2(atDice.numbers.join(QLatin1Char('\n')).contains(QStringLiteral("= ") + alpha),
             qPrintable(atDice.numbers.join(QLatin1Char('\n'))));
    QVERIFY2(atDice.theoryHtml.contains(alpha), qPrintable(atDice.theoryHtml));
    QVERIFY2(atDice.numbers.first().contains(QString::number(three.generatedTokens)), qPrintable(atDice.numbers.first()));
    QVERIFY2(atDice.numbers.first().contains(QString::number(three.targetCalls)), qPrintable(atDice.numbers.first()));
}

void TestHandout::quizSheetIsQuestionsThenAnswers_data()
{
    handoutHoldsTheSetup_data();
}

void TestHandout::quizSheetIsQuestionsThenAnswers()
{
    QFETCH(QString, language);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("quiz.pdf"));
    QCOMPARE(writeQuizSheet(path, m_quiz, language), QString());
    QCOMPARE(pdfPages(path), 2); // the questions on one page, the answers on the second

    // The layout: the heading and ten question blocks on page 1, "Answers" and ten answers on page 2, each
    // block whole inside the margins, none over another.
    QPdfWriter pdf(dir.filePath(QStringLiteral("measure.pdf")));
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(150);
    const QList<QuizSheetBlock> blocks = layoutQuizSheet(m_quiz, language, &pdf);
    QCOMPARE(blocks.size(), 22);
    const QRectF page(0, 0, pdf.width(), pdf.height());
    const double margin = pdf.width() / 20.0;
    for (const QuizSheetBlock &b : blocks) {
        QCOMPARE(b.page, b.part);
        QVERIFY(page.adjusted(margin, margin, -margin, -margin).contains(b.rect));
        for (const QuizSheetBlock &other : blocks)
            if (&other != &b && other.page == b.page)
                QVERIFY(!other.rect.intersects(b.rect));
    }
    // No answer on the question page: neither the letters of the answers nor the explanations.
    const auto parts = quizSheetParts(m_quiz, language);
    const QString questions = parts[0].join(QLatin1Char('\n'));
    for (const app::QuizQuestion &q : m_quiz.questions) {
        QVERIFY(!questions.contains(q.explanation.text(language).toHtmlEscaped()));
        QVERIFY(parts[1].join(QLatin1Char('\n')).contains(q.explanation.text(language).toHtmlEscaped()));
    }
}

// Issue 22, 4: the window's exports render in memory and save through the one atomic path: on a full disk
// (an injected ENOSPC) the quiz sheet and a plot report "no space left on device" and the previous file stays
// byte for byte; a FIFO is refused and stays a FIFO. (--handout and --screenshot use the same saveFile.)
void TestHandout::exportsAreAtomic()
{
    QTemporaryDir dir;
    const QString sheet = dir.filePath(QStringLiteral("quiz.pdf")), png = dir.filePath(QStringLiteral("plot.png"));
    QCustomPlot plot;
    plot.resize(320, 200);
    plot.addGraph()->setData({0, 1, 2}, {1, 3, 2});
    plot.replot();
    QCOMPARE(writeQuizSheet(sheet, m_quiz, QStringLiteral("en")), QString());
    QCOMPARE(exportPlot(&plot, png), QString());
    QCOMPARE(exportPlot(&plot, dir.filePath(QStringLiteral("plot.pdf"))), QString());
    QVERIFY(pdfPages(dir.filePath(QStringLiteral("plot.pdf"))) == 1);
    auto content = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray oldSheet = content(sheet), oldPng = content(png);
    QVERIFY(oldSheet.startsWith("%PDF") && oldPng.startsWith("\x89PNG"));
    const QStringList files = QDir(dir.path()).entryList(QDir::Files | QDir::Hidden);
    for (std::size_t after : {std::size_t{0}, std::size_t{4096}}) {
        testing::failWritesWith(ENOSPC, after);
        const QString sheetError = writeQuizSheet(sheet, m_quiz, QStringLiteral("zh_CN"));
        const QString plotError = exportPlot(&plot, png);
        testing::failWritesWith(0);
        QVERIFY2(sheetError.contains(QStringLiteral("no space left on device")), qPrintable(sheetError));
        QVERIFY2(plotError.contains(QStringLiteral("no space left on device")), qPrintable(plotError));
    }
    QCOMPARE(content(sheet), oldSheet);
    QCOMPARE(content(png), oldPng);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), files);
    const QString fifo = dir.filePath(QStringLiteral("pipe.pdf"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    QVERIFY(writeQuizSheet(fifo, m_quiz, QStringLiteral("en")).contains(QStringLiteral("not a regular file")));
    struct stat st
    {
    };
    QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
}

QTEST_MAIN(TestHandout)
#include "test_gui_handout.moc"
