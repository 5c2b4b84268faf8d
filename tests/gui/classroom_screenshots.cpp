// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the screenshots of docs/classroom.md offscreen: each lesson applied to the real window, arena,
// lab and theory explorer, grabbed to PNG. Not a test; run: classroom_screenshots OUTPUT_DIR [HANDOUT.png] (English; the
// translations are embedded in specdec-lab itself).
#include "ArenaRunner.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "Exporter.h"
#include "RoundView.h"
#include "DistributionView.h"
#include "TheoryPanel.h"
#include "Language.h"
#include "LabRunner.h"
#include "LessonPanel.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "SessionController.h"
#include "AppPaths.h"
#include "TheoryExplorer.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QThread>

#include <cstdio>
#include <functional>

using namespace specdec;
using namespace specdec::gui;

namespace {

bool waitFor(const std::function<bool()> &done, int milliseconds)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > milliseconds)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    QCoreApplication::processEvents();
    return true;
}

void save(QWidget *widget, const QString &path)
{
    QCoreApplication::processEvents();
    widget->grab().save(path);
    std::printf("%s\n", qPrintable(path));
}

void playArena(ClassroomTools &tools, const QString &path)
{
    ArenaRunner *runner = tools.arenaRunner();
    if (!waitFor([&] { return runner->isReady(); }, 600000))
        std::printf("arena did not load\n");
    runner->step(false, 1000);
    waitFor([&] { return runner->pending() == 0; }, 600000);
    save(tools.arena(), path);
}

void runLab(ClassroomTools &tools, Variant variant, const QString &path)
{
    tools.lab()->setVariant(variant);
    tools.lab()->setSamples(1000000);
    emit tools.lab()->runRequested(tools.lab()->request());
    waitFor([&] { return tools.lab()->snapshot().finished; }, 60000);
    save(tools.lab(), path);
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // the window's settings go to a throwaway location
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("."));
    Language language;
    language.set(QStringLiteral("en"));
    SessionController session(corpusCatalog());
    Player player(&session);
    MainWindow window(&session, &player, &language);
    window.resize(1600, 1000);
    window.show();
    ClassroomTools &tools = *window.classroom();
    const QString prefix = QStringLiteral("classroom-");
    auto file = [&](const char *name) { return out.filePath(prefix + QLatin1String(name) + QStringLiteral(".png")); };

    // The classic demo: the window with the lessons dock, and the arena.
    tools.applyLesson(0);
    waitFor([&] { return session.isReady(); }, 120000);
    session.requestRounds(10);
    waitFor([&] { return session.history().size() >= 10; }, 60000);
    player.jumpTo(9, Phase::Commit);
    save(&window, file("window-classic"));
    if (argc > 2) { // the handout page of this round as an A4 image at 100 dpi, to look at
        QImage page(827, 1169, QImage::Format_RGB32);
        page.fill(Qt::white);
        page.setDotsPerMeterX(3937);
        page.setDotsPerMeterY(3937);
        paintHandout(&page, tools.handoutText(), window.roundView(), window.distributionView());
        page.save(QString::fromLocal8Bit(argv[2]));
    }
    playArena(tools, file("arena-classic"));

    // 1. A small draft lowers quality: the lab, correct and wrong; the greedy arena.
    tools.applyLesson(1);
    tools.lab()->resize(1100, 640);
    runLab(tools, Variant::Correct, file("lab-correct"));
    runLab(tools, Variant::ResampleFromTarget, file("lab-wrong"));
    playArena(tools, file("arena-greedy"));

    // 2. The smallest draft is always best.
    tools.applyLesson(2);
    playArena(tools, file("arena-smallest"));

    // 3. The draft need not share the target's architecture (ONNX target).
    tools.applyLesson(3);
    playArena(tools, file("arena-onnx"));

    // 4. Speculation is free: the theory explorer, with the runs so far overlaid.
    tools.applyLesson(4);
    tools.theoryExplorer()->resize(1200, 560);
    save(tools.theoryExplorer(), file("theory"));

    // 5. Sampling breaks it: the window at T = 1 with the lab from the models.
    tools.applyLesson(5);
    waitFor([&] { return session.isReady(); }, 120000);
    session.requestRounds(6);
    waitFor([&] { return session.history().size() >= 6; }, 60000);
    player.jumpTo(5, Phase::Residual);
    player.jumpTo(5, Phase::Commit);
    tools.labFromModels();
    runLab(tools, Variant::Correct, file("lab-models"));
    return 0;
}
