// SPDX-License-Identifier: GPL-3.0-or-later
// Renders the classroom screenshots of the user guide offscreen: lessons applied to the real window, the arena
// played to the end, the lab with a wrong rule and the theory explorer, each tool window at the size it opens
// with on a screen of WxH, grabbed to PNG. Not a test; run:
//   classroom_screenshots OUTPUT_DIR [--size 1280x720] [--language en|zh_CN] [--handout HANDOUT.png]
// Files: classroom-{window,arena,lab,theory}-WxH-LANGUAGE.png, and the theory panel beside 30 rounds of the kjv
// chef (classroom-theory-panel-large-…: target-large, where speculation pays) and of the small target with the
// same draft (classroom-theory-panel-small-…: where it does not).
#include "AppPaths.h"
#include "ArenaRunner.h"
#include "ArenaView.h"
#include "ClassroomTools.h"
#include "DefaultModels.h"
#include "DistributionView.h"
#include "Exporter.h"
#include "LabRunner.h"
#include "Language.h"
#include "LessonPanel.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "RoundView.h"
#include "SessionController.h"
#include "SetupSettings.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QThread>
#include <QTranslator>

#include <cstdio>
#include <functional>
#include <string>

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
    const QStringList args = QCoreApplication::arguments();
    const QDir out(args.value(1, QStringLiteral(".")));
    auto option = [&](const char *name, const QString &fallback) {
        const int i = static_cast<int>(args.indexOf(QLatin1String(name)));
        return i > 0 ? args.value(i + 1, fallback) : fallback;
    };
    const QString code = option("--language", QStringLiteral("en"));
    const QStringList wh = option("--size", QStringLiteral("1280x720")).split(QLatin1Char('x'));
    const QSize size(wh.value(0).toInt(), wh.value(1).toInt());
    if (size.width() < 320 || size.height() < 240) {
        std::fprintf(stderr, "classroom_screenshots: --size must be WxH, at least 320x240\n");
        return 2;
    }
    Language language;
    language.set(code);
    QTranslator translator; // the window's strings (Language finds the .qm embedded in specdec-lab only)
    if (code != QLatin1String("en") && translator.load(QStringLiteral(SPECDEC_QM_DIR "/specdec-lab_") + code))
        QCoreApplication::installTranslator(&translator);
    SessionController session(corpusCatalog());
    Player player(&session);
    MainWindow window(&session, &player, &language);
    window.arrangeFor(size);
    window.show();
    ClassroomTools &tools = *window.classroom();
    // A tool window as large as it opens on a screen of `size` (ClassroomTools' default size, bounded by the
    // screen less some 48 px for the window manager's frame; the offscreen screen itself is only 800x600).
    const QSize toolArea = size - QSize(16, 48);
    const QString suffix = QStringLiteral("-%1x%2-%3.png").arg(size.width()).arg(size.height()).arg(code);
    auto file = [&](const char *name) { return out.filePath(QLatin1String(name) + suffix); };

    // The classic demo: the window with the lessons dock.
    tools.applyLesson(0);
    waitFor([&] { return session.isReady(); }, 120000);
    session.requestRounds(10);
    waitFor([&] { return session.history().size() >= 10; }, 60000);
    player.jumpTo(9, Phase::Commit);
    save(&window, file("classroom-window"));
    const QString handout = option("--handout", QString());
    if (!handout.isEmpty()) { // the handout page of this round as an A4 image at 100 dpi, to look at
        QImage page(827, 1169, QImage::Format_RGB32);
        page.fill(Qt::white);
        page.setDotsPerMeterX(3937);
        page.setDotsPerMeterY(3937);
        paintHandout(&page, tools.handoutText(), window.roundView(), window.distributionView());
        page.save(handout);
    }

    // 2. The smallest draft is always best: three drafts in the arena, played to the end.
    tools.applyLesson(2);
    tools.arena()->resize(QSize(1200, 1100).boundedTo(toolArea)); // ClassroomTools' sizes
    playArena(tools, file("classroom-arena"));

    // 5. Sampling breaks it: the lab with a wrong rule.
    tools.applyLesson(5);
    tools.lab()->resize(QSize(1000, 620).boundedTo(toolArea));
    runLab(tools, Variant::ResampleFromTarget, file("classroom-lab"));

    // 4. Speculation is free: the theory explorer, with the runs so far overlaid.
    tools.applyLesson(4);
    tools.theoryExplorer()->resize(QSize(1100, 520).boundedTo(toolArea));
    save(tools.theoryExplorer(), file("classroom-theory"));

    // The theory panel: every speedup with its cost, where a pass is nearly free and where it is not.
    tools.theoryExplorer()->hide();
    const std::pair<const char *, const char *> targets[] = {
        {"classroom-theory-panel-large", kChefTarget},
        {"classroom-theory-panel-small", "onnx:corpora/kjv/models/target.onnx"}};
    for (const auto &[name, target] : targets) {
        Setup setup = defaultSetup();
        setup.corpus = "kjv";
        setup.target = target;
        setup.draft = kChefDraft;
        setup.prompt = kChefPrompt;
        setup.decoding.draftLength = kChefDraftLength;
        window.startSession(setup);
        waitFor([&] { return session.isReady(); }, 120000);
        session.requestRounds(30);
        waitFor([&] { return session.history().size() >= 30; }, 120000);
        if (QWidget *dock = window.theory()->parentWidget())
            dock->raise(); // before the jump: the window fills the panels it shows
        QCoreApplication::processEvents();
        player.jumpTo(29, Phase::Commit);
        waitFor([] { return false; }, 500); // the panels take turns to refresh
        save(&window, file(name));
        // and the panel alone, floated to the height of the screen: every line of it, as a reader scrolls it
        if (auto *dock = qobject_cast<QDockWidget *>(window.theory()->parentWidget())) {
            dock->setFloating(true);
            dock->resize(560, size.height() - 80);
            waitFor([] { return false; }, 300);
            save(dock, file((std::string(name) + "-alone").c_str()));
            dock->setFloating(false);
        }
    }
    return 0;
}
