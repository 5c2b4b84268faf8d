// SPDX-License-Identifier: GPL-3.0-or-later
// The lossless lab view: bars renormalise when dragged, presets are distributions, and a run on the worker
// thread shows every wrong variant as biased while the correct rule is not, at the view's significance level.
#include "BarEditor.h"
#include "LabRunner.h"
#include "LosslessLabView.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

#include <numeric>

using namespace specdec;
using namespace specdec::gui;

namespace {

double sum(const QVector<double> &v)
{
    return std::accumulate(v.begin(), v.end(), 0.0);
}

/// Runs the view's current request on a LabRunner and waits for the last snapshot.
LabSnapshot runToEnd(LosslessLabView &view)
{
    LabRunner runner;
    connectLab(&view, &runner);
    QSignalSpy spy(&runner, &LabRunner::progress);
    emit view.runRequested(view.request());
    const bool done = QTest::qWaitFor([&] { return view.snapshot().finished; }, 60000);
    if (!done)
        qWarning("the lab run did not finish");
    return view.snapshot();
}

/// What the chart draws is what the verdict counted: the visible bars form one stack of visible parts only,
/// each part's rectangle runs from the parts below it to its own top, the whole stack of token x ends at
/// counts[x] / samples, and every rectangle lies inside the plot. Returns an empty string or what differs.
QString drawnStackDiffers(const LosslessLabView &view, const LabSnapshot &s)
{
    QCustomPlot *plot = view.plot();
    plot->replot();
    QList<QCPBars *> visible;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)); bars && bars->visible())
            visible << bars;
    if (visible.isEmpty())
        return QStringLiteral("no bars drawn");
    QCPBars *bottom = nullptr;
    for (QCPBars *bars : visible) {
        if (bars->barBelow() && !bars->barBelow()->visible())
            return bars->name() + QStringLiteral(" sits on a hidden part");
        if (!bars->barBelow()) {
            if (bottom)
                return QStringLiteral("two stacks: ") + bottom->name() + QStringLiteral(", ") + bars->name();
            bottom = bars;
        }
    }
    const double scale = 1.0 / static_cast<double>(s.samples);
    const QRect inside = plot->axisRect()->rect();
    for (std::size_t x = 0; x < s.counts.size(); ++x) {
        double base = 0.0;
        int parts = 0;
        for (QCPBars *bars = bottom; bars; bars = bars->barAbove(), ++parts) {
            if (!bars->visible())
                return bars->name() + QStringLiteral(" is hidden inside the stack");
            const double value = bars->data()->at(static_cast<int>(x))->value;
            const double top = plot->yAxis->coordToPixel(base + value);
            const double drawn = bars->dataPixelPosition(static_cast<int>(x)).y();
            if (std::abs(drawn - top) > 0.5)
                return QStringLiteral("%1 at token %2: top drawn at %3 px, its parts end at %4 px")
                    .arg(bars->name())
                    .arg(x)
                    .arg(drawn)
                    .arg(top);
            if (value > 0 && (top < inside.top() - 0.5 || top > inside.bottom() + 0.5))
                return QStringLiteral("%1 at token %2 drawn outside the plot").arg(bars->name()).arg(x);
            base += value;
        }
        if (parts != visible.size())
            return QStringLiteral("%1 parts stacked of %2 drawn").arg(parts).arg(visible.size());
        const double counted = static_cast<double>(s.counts[x]) * scale;
        if (std::abs(base - counted) > 1e-12)
            return QStringLiteral("token %1: bar %2, counted %3").arg(x).arg(base).arg(counted);
    }
    return {};
}

} // namespace

class TestLosslessLab : public QObject
{
    Q_OBJECT
private slots:
    void dragRenormalises();
    void presetsAreDistributions();
    void variants_data();
    void variants();
    void stackedPartsAddUp();
    void explanationsMatchTheEngine();
    void candidatesMode_data();
    void candidatesMode();
    void runButtonStaysInPlace();
};

void TestLosslessLab::candidatesMode_data()
{
    QTest::addColumn<int>("variant");
    QTest::addColumn<bool>("lossless");
    QTest::addRow("correct") << static_cast<int>(TreeVariant::Correct) << true;
    QTest::addRow("no-residual-update") << static_cast<int>(TreeVariant::NoResidualUpdate) << false;
    QTest::addRow("typical-acceptance") << static_cast<int>(TreeVariant::TypicalAcceptance) << false;
}

void TestLosslessLab::candidatesMode()
{
    // k = 3 candidates: the rules become the tree's; the stack "accepted j-th candidate" + correction adds up
    // to the histogram; the correct rule follows p and its measured acceptance matches the exact formula;
    // both wrong rules are caught by the same test.
    QFETCH(int, variant);
    QFETCH(bool, lossless);
    LosslessLabView view;
    view.setCandidates(3);
    QCOMPARE(view.candidates(), 3);
    view.setTreeVariant(static_cast<TreeVariant>(variant));
    QCOMPARE(static_cast<int>(view.treeVariant()), variant);
    view.setSamples(100000);
    QCOMPARE(view.request().candidates, 3);
    const LabSnapshot s = runToEnd(view);
    QCOMPARE(s.byCandidate.size(), std::size_t(3));
    std::int64_t accepted = 0;
    for (std::size_t x = 0; x < s.counts.size(); ++x) {
        std::int64_t parts = s.replaced[x];
        for (const auto &c : s.byCandidate)
            parts += c[x];
        QCOMPARE(parts, s.counts[x]);
        accepted += s.accepted[x];
    }
    QCOMPARE(static_cast<double>(accepted) / static_cast<double>(s.samples), s.measuredAcceptance);
    QCOMPARE(s.chi.pValue >= LosslessLabView::kSignificance, lossless);
    // The exact one-node acceptance 1 - prod_j (1 - sum min(p_j, q)), computed here from the view's p and q.
    Eigen::VectorXd p(view.p().size()), q(view.q().size());
    for (int i = 0; i < p.size(); ++i) {
        p[i] = view.p()[i];
        q[i] = view.q()[i];
    }
    double none = 1.0;
    for (int j = 0; j < 3; ++j) {
        none *= 1.0 - overlapMass(p, q);
        p = residualDistribution(p, q);
    }
    QVERIFY(qAbs(s.exactAcceptance - (1.0 - none)) < 1e-12);
    if (lossless)
        QVERIFY(qAbs(s.measuredAcceptance - s.exactAcceptance) <= s.acceptanceHalfWidth);
    QVERIFY(view.acceptanceText().contains(QString::number(s.exactAcceptance, 'f', 4)));
    view.resize(1000, 620);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString differs = drawnStackDiffers(view, s); // the chart says what the verdict counted
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
    if (const QString dir = qEnvironmentVariable("SPECDEC_SCREENSHOT_DIR"); !dir.isEmpty()) { // to look at it
        view.resize(1000, 620);
        view.grab().save(dir + QStringLiteral("/lab-candidates-%1.png").arg(QString::fromLatin1(QTest::currentDataTag())));
    }
    // Back to one draft: the chain's rules again.
    view.setCandidates(1);
    QCOMPARE(view.request().candidates, 1);
    QCOMPARE(view.variant(), Variant::Correct);
}

void TestLosslessLab::dragRenormalises()
{
    BarEditor editor;
    editor.setValues({1, 1, 2}, {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
    QCOMPARE(editor.values(), (QVector<double>{0.25, 0.25, 0.5}));
    QSignalSpy edited(&editor, &BarEditor::edited);
    editor.setBar(0, 0.5);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(editor.values()[0], 0.5);
    QVERIFY(qAbs(sum(editor.values()) - 1.0) < 1e-12);
    QVERIFY(qAbs(editor.values()[2] / editor.values()[1] - 2.0) < 1e-12); // the others keep their ratio

    // A drag with the mouse edits the bar under it.
    editor.resize(300, 200);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QTest::mousePress(&editor, Qt::LeftButton, {}, QPoint(290, 100));
    QCOMPARE(edited.count(), 2);
    QVERIFY(editor.values()[2] > 0.2 && editor.values()[2] < 0.8);
    QVERIFY(qAbs(sum(editor.values()) - 1.0) < 1e-12);
}

void TestLosslessLab::presetsAreDistributions()
{
    LosslessLabView view;
    using P = LosslessLabView::Preset;
    for (P preset : {P::Random, P::OneHot, P::Disjoint, P::Equal}) {
        view.applyPreset(preset);
        QVERIFY(qAbs(sum(view.p()) - 1.0) < 1e-12);
        QVERIFY(qAbs(sum(view.q()) - 1.0) < 1e-12);
        QCOMPARE(view.labels().size(), view.p().size());
    }
    view.applyPreset(P::Equal);
    QCOMPARE(view.p(), view.q());
    view.applyPreset(P::Disjoint);
    for (int i = 0; i < view.p().size(); ++i)
        QCOMPARE(view.p()[i] * view.q()[i], 0.0);
}

void TestLosslessLab::variants_data()
{
    QTest::addColumn<int>("variant");
    for (Variant v : allVariants())
        QTest::addRow("%s", variantName(v).c_str()) << static_cast<int>(v);
}

void TestLosslessLab::variants()
{
    QFETCH(int, variant);
    const auto v = static_cast<Variant>(variant);
    LosslessLabView view; // the default p and q differ, overlap, and neither is one-hot
    view.setVariant(v);
    view.setSamples(100000);
    const LabSnapshot s = runToEnd(view);
    QVERIFY(s.finished);
    QCOMPARE(s.samples, std::int64_t(100000));
    if (v == Variant::Correct) {
        QVERIFY2(s.chi.pValue >= LosslessLabView::kSignificance, qPrintable(QString::number(s.chi.pValue)));
        QVERIFY(s.totalVariation < 0.01);
        QVERIFY(view.verdictText().contains(QStringLiteral("✓")));
    } else {
        QVERIFY2(s.chi.pValue < LosslessLabView::kSignificance, qPrintable(QString::number(s.chi.pValue)));
        QVERIFY(view.verdictText().contains(QStringLiteral("✗")));
    }
}

void TestLosslessLab::stackedPartsAddUp()
{
    LosslessLabView view;
    view.setSamples(1000000);
    const LabSnapshot s = runToEnd(view);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < s.counts.size(); ++i) {
        QCOMPARE(s.accepted[i] + s.replaced[i], s.counts[i]);
        total += s.counts[i];
        // accepted ≈ S·min(p, q): the residual fills exactly the gap up to p
        const double expected = 1e6 * std::min(view.p()[static_cast<int>(i)], view.q()[static_cast<int>(i)]);
        QVERIFY(qAbs(static_cast<double>(s.accepted[i]) - expected) < 5 * std::sqrt(expected) + 1);
    }
    QCOMPARE(total, std::int64_t(1000000));
    view.resize(1000, 620);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString differs = drawnStackDiffers(view, s);
    QVERIFY2(differs.isEmpty(), qPrintable(differs));
}

void TestLosslessLab::explanationsMatchTheEngine()
{
    // The translated sentences are keyed by the engine's English text: when it changes, update both.
    const QStringList sources = LosslessLabView::translatableExplanations();
    for (Variant v : allVariants()) {
        QVERIFY2(sources.contains(QString::fromStdString(variantExplanation(v))), variantName(v).c_str());
        QCOMPARE(LosslessLabView::explanation(v), QString::fromStdString(variantExplanation(v))); // no translator
    }
    for (TreeVariant v : allTreeVariants())
        QVERIFY2(sources.contains(QString::fromStdString(treeVariantExplanation(v))), treeVariantName(v).c_str());
}

// The rule's explanation differs in length by rule (and language); the Run button keeps its place whatever
// it says, at the lab's size and at a narrow one, and the explanation is never cut.
void TestLosslessLab::runButtonStaysInPlace()
{
    LosslessLabView view;
    QPushButton *run = nullptr;
    for (QPushButton *b : view.findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Run"))
            run = b;
    QVERIFY(run);
    QLabel *explanation = nullptr;
    for (QLabel *l : view.findChildren<QLabel *>())
        if (l->text() == LosslessLabView::explanation(view.variant()))
            explanation = l;
    QVERIFY(explanation);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (const QSize &size : {QSize(1000, 620), QSize(700, 620)}) {
        view.resize(size);
        QPoint first(-1, -1);
        for (Variant v : allVariants()) {
            view.setVariant(v);
            QCoreApplication::processEvents();
            const QPoint at = run->mapTo(&view, QPoint(0, 0));
            if (first.x() < 0)
                first = at;
            QVERIFY2(at == first,
                     qPrintable(QStringLiteral("%1 at %2x%3: Run at (%4, %5), first at (%6, %7)")
                                    .arg(QString::fromStdString(variantName(v)))
                                    .arg(size.width())
                                    .arg(size.height())
                                    .arg(at.x())
                                    .arg(at.y())
                                    .arg(first.x())
                                    .arg(first.y())));
            QVERIFY2(explanation->heightForWidth(explanation->width()) <= explanation->height(),
                     qPrintable(QString::fromStdString(variantName(v))));
        }
        view.setCandidates(3); // the k-candidates mode: the tree rules and their texts
        for (TreeVariant v : allTreeVariants()) {
            view.setTreeVariant(v);
            QCoreApplication::processEvents();
            QVERIFY2(run->mapTo(&view, QPoint(0, 0)) == first, qPrintable(QString::fromStdString(treeVariantName(v))));
            QVERIFY2(explanation->heightForWidth(explanation->width()) <= explanation->height(),
                     qPrintable(QString::fromStdString(treeVariantName(v))));
        }
        view.setCandidates(1);
    }
}

QTEST_MAIN(TestLosslessLab)
#include "test_gui_lossless_lab.moc"
