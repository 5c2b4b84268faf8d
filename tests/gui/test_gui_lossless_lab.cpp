// SPDX-License-Identifier: GPL-3.0-or-later
// The lossless lab view: bars renormalise when dragged, presets are distributions, and a run on the worker
// thread shows every wrong variant as biased while the correct rule is not, at the view's significance level.
#include "BarEditor.h"
#include "LabRunner.h"
#include "LosslessLabView.h"

#include <QSignalSpy>
#include <QtTest>

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
};

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
}

void TestLosslessLab::explanationsMatchTheEngine()
{
    // The translated sentences are keyed by the engine's English text: when it changes, update both.
    const QStringList sources = LosslessLabView::translatableExplanations();
    for (Variant v : allVariants()) {
        QVERIFY2(sources.contains(QString::fromStdString(variantExplanation(v))), variantName(v).c_str());
        QCOMPARE(LosslessLabView::explanation(v), QString::fromStdString(variantExplanation(v))); // no translator
    }
}

QTEST_MAIN(TestLosslessLab)
#include "test_gui_lossless_lab.moc"
