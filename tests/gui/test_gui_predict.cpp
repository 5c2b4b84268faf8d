// SPDX-License-Identifier: GPL-3.0-or-later
// Predict, then reveal: in the lab, "predict the histogram" keeps a finished run's bars, statistics and
// verdict hidden (the p marks stay) until the teacher reveals them; a new run hides them again.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "LabRunner.h"
#include "LosslessLabView.h"

#include <QLabel>
#include <QPushButton>
#include <QtTest>
#include <qcustomplot.h>

using namespace specdec;
using namespace specdec::gui;

class TestPredict : public QObject
{
    Q_OBJECT
private slots:
    void labHidesTheHistogramUntilRevealed();
};

void TestPredict::labHidesTheHistogramUntilRevealed()
{
    LosslessLabView lab;
    LabRunner runner;
    connectLab(&lab, &runner);
    lab.show();
    auto bars = [&] {
        int visible = 0;
        for (int i = 0; i < lab.plot()->plottableCount(); ++i)
            if (qobject_cast<QCPBars *>(lab.plot()->plottable(i)) && lab.plot()->plottable(i)->visible())
                ++visible;
        return visible;
    };
    QCOMPARE(bars(), 2); // without prediction the bars show as they fill
    lab.setPredictFirst(true);
    lab.setSamples(100000);
    emit lab.runRequested(lab.request());
    QVERIFY(QTest::qWaitFor([&] { return lab.snapshot().finished; }, 30000));
    QVERIFY(lab.histogramHidden());
    QCOMPARE(bars(), 0);
    QVERIFY(lab.plot()->graph(0)->visible()); // p's marks: what the room predicts against
    for (QLabel *label : lab.findChildren<QLabel *>())
        if (label->text().contains(QStringLiteral("p-value")) || label->text().contains(QStringLiteral("Consistent")))
            QVERIFY(!label->isVisible());
    lab.revealHistogram();
    QVERIFY(!lab.histogramHidden());
    QCOMPARE(bars(), 2);
    QVERIFY(lab.verdictText().contains(QStringLiteral("Consistent with p")));
    // A new run (the Run button) is hidden again; switching prediction off shows it at once.
    QPushButton *run = nullptr;
    for (QPushButton *b : lab.findChildren<QPushButton *>())
        if (b->text() == QStringLiteral("Run"))
            run = b;
    QVERIFY(run);
    run->click();
    QVERIFY(QTest::qWaitFor([&] { return lab.snapshot().finished; }, 30000));
    QVERIFY(lab.histogramHidden());
    QCOMPARE(bars(), 0);
    lab.setPredictFirst(false);
    QVERIFY(!lab.histogramHidden());
    QCOMPARE(bars(), 2);
}

QTEST_MAIN(TestPredict)
#include "test_gui_predict.moc"
