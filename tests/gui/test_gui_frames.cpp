// SPDX-License-Identifier: GPL-3.0-or-later
// What keeps a frame one paint pass: texts that change every round do not relayout the window, plots refresh
// with update() instead of painting on the spot, and the theory panel keeps its reader's place. Also: the
// window's short names for ONNX models.
#include "FixedLabel.h"
#include "ModelFiles.h"
#include "ModelTitle.h"
#include "PlotStyle.h"
#include "TheoryPanel.h"

#include <QLabel>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QtTest>

#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// Counts the events of one type that reach the watched objects.
struct EventCounter : QObject
{
    explicit EventCounter(QEvent::Type watched)
        : type(watched)
    {
    }
    QEvent::Type type;
    int count = 0;
    bool eventFilter(QObject *, QEvent *e) override
    {
        if (e->type() == type)
            ++count;
        return false;
    }
};

/// Sets ten texts of different lengths on `label` in a shown window and returns the LayoutRequests it caused.
template<class Label> int layoutRequestsFromNewTexts()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    Label *label = nullptr;
    if constexpr (std::is_same_v<Label, FixedLabel>)
        label = new FixedLabel(1, &window);
    else
        label = new Label(&window);
    layout->addWidget(label);
    layout->addWidget(new QLabel(QStringLiteral("neighbour"), &window));
    window.resize(400, 200);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return -1;
    QCoreApplication::processEvents();
    EventCounter requests(QEvent::LayoutRequest);
    window.installEventFilter(&requests);
    for (int i = 0; i < 10; ++i) {
        label->setText(QStringLiteral("Round %1 of %2").arg(i * 977).arg(QString(i, QLatin1Char('x'))));
        QCoreApplication::processEvents();
    }
    return requests.count;
}

} // namespace

class TestFrames : public QObject
{
    Q_OBJECT
private slots:
    void fixedLabelNeverRelayouts();
    void fixedLabelShowsItsText();
    void plotsRefreshLater();
    void theoryPanelKeepsItsScrollPosition();
    void modelTitlesAreShort();
};

void TestFrames::fixedLabelNeverRelayouts()
{
    QCOMPARE(layoutRequestsFromNewTexts<FixedLabel>(), 0);
    // The same check catches what FixedLabel replaces: a QLabel relayouts its window on every new text.
    QVERIFY(layoutRequestsFromNewTexts<QLabel>() > 0);
}

void TestFrames::fixedLabelShowsItsText()
{
    FixedLabel label(3);
    const QSize hint = label.sizeHint();
    // Three lines, each as tall as a Latin and as a Chinese line (the CJK fallback font is taller).
    QVERIFY(hint.height() >= label.fontMetrics().lineSpacing() * 3);
    QVERIFY(hint.height() >= label.fontMetrics().boundingRect(QStringLiteral("国")).height() * 3);
    QVERIFY(hint.height() <= std::max(label.fontMetrics().lineSpacing(),
                                      label.fontMetrics().boundingRect(QStringLiteral("国gÅ")).height() + 1)
                * 3);
    label.setRichText(true);
    label.setText(QStringLiteral("<b>p(x)</b> 0.250<br>q(x) 0.500"));
    QCOMPARE(label.text(), QStringLiteral("<b>p(x)</b> 0.250<br>q(x) 0.500"));
    QCOMPARE(label.sizeHint(), hint);
    // It paints the text: the rendered label is not blank.
    label.resize(300, hint.height());
    const QImage image = label.grab().toImage();
    const QRgb background = image.pixel(image.width() - 1, image.height() - 1);
    bool inked = false;
    for (int y = 0; y < image.height() && !inked; ++y)
        for (int x = 0; x < 60 && !inked; ++x)
            inked = image.pixel(x, y) != background;
    QVERIFY(inked);
}

void TestFrames::plotsRefreshLater()
{
    QCustomPlot plot;
    stylePlot(&plot, LabColors::from(plot.palette()));
    QVERIFY(!plot.plottingHints().testFlag(QCP::phImmediateRefresh));
    plot.resize(300, 200);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QCoreApplication::processEvents();
    EventCounter paints(QEvent::Paint);
    plot.installEventFilter(&paints);
    plot.replot();
    QCOMPARE(paints.count, 0); // no paint inside replot(): the window paints once, later
    QTRY_VERIFY(paints.count > 0);
}

void TestFrames::theoryPanelKeepsItsScrollPosition()
{
    TheoryPanel panel;
    panel.resize(300, 120);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    RunMetrics m;
    m.rounds = 3;
    m.tested = 10;
    m.accepted = 7;
    m.acceptanceRate = 0.7;
    m.costRatio = 0.05;
    panel.setMetrics(m, 4);
    QScrollBar *bar = panel.verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    bar->setValue(bar->maximum() / 2);
    const int place = bar->value();
    m.rounds = 4;
    m.accepted = 8;
    m.tested = 12;
    m.acceptanceRate = 8.0 / 12.0;
    panel.setMetrics(m, 4);
    QVERIFY(panel.toPlainText().contains(QStringLiteral("0.667")));
    QCOMPARE(bar->value(), place);
}

void TestFrames::modelTitlesAreShort()
{
    QCOMPARE(modelTitle(QStringLiteral("onnx:/home/me/specdec/corpora/kjv/models/draft-small.onnx")),
             QStringLiteral("kjv/draft-small"));
    QCOMPARE(modelTitle(QStringLiteral("onnx:/tmp/elsewhere/mine.onnx")), QStringLiteral("mine.onnx"));
    QCOMPARE(modelTitle(QStringLiteral("onnx:mine.onnx")), QStringLiteral("mine.onnx"));
    QCOMPARE(modelToolTip(QStringLiteral("onnx:/tmp/elsewhere/mine.onnx")),
             QStringLiteral("ONNX: /tmp/elsewhere/mine.onnx"));
    QCOMPARE(modelTitle(QStringLiteral("ngram:4")), QStringLiteral("ngram:4"));
    // A Hugging Face folder by its own name, with or without a trailing slash; its whole path in the tooltip.
    QCOMPARE(modelTitle(QStringLiteral("hf:/models/llama-small")), QStringLiteral("llama-small"));
    QCOMPARE(modelTitle(QStringLiteral("hf:/models/llama-small/")), QStringLiteral("llama-small"));
    QCOMPARE(modelTitle(QStringLiteral("hf:qwen05")), QStringLiteral("qwen05"));
    QCOMPARE(modelToolTip(QStringLiteral("hf:/tmp/elsewhere/llama-small")),
             QStringLiteral("Hugging Face: /tmp/elsewhere/llama-small"));
    // The one answer to "is it a neural model, which file or folder" (ModelFiles.h).
    QVERIFY(!neuralModel("ngram:4") && !neuralModel("hf:") && !neuralModel("onnx:") && !neuralModel("same"));
    QCOMPARE(neuralModel("hf:/m/llama")->folder, true);
    QCOMPARE(neuralModel("hf:/m/llama")->tokenizer(), std::string("/m/llama"));
    QCOMPARE(neuralModel("onnx:/m/a.onnx")->folder, false);
    QCOMPARE(neuralModel("onnx:/m/a.onnx")->tokenizer(), std::string("chars"));
    const std::string llama = SPECDEC_SOURCE_DIR "/tests/data/hf/llama-op17";
    QCOMPARE(weightFiles({true, llama}), std::vector<std::string>{llama + "/model.onnx"});
    QCOMPARE(weightFiles({true, SPECDEC_SOURCE_DIR "/tests/data/hf/llama-op17-external"}).size(), std::size_t{2});
    QCOMPARE(weightFileBytes({true, llama}),
             std::uint64_t(QFileInfo(QString::fromStdString(llama + "/model.onnx")).size()));
    QCOMPARE(weightFileBytes({true, "/nonexistent"}), std::uint64_t{0});
}

QTEST_MAIN(TestFrames)
#include "test_gui_frames.moc"
