// SPDX-License-Identifier: GPL-3.0-or-later
// specdec-lab: the window that runs speculative decoding for real and shows every step.
#include "AppPaths.h"
#include "Automation.h"
#include "ClassroomTools.h"
#include "CommandLine.h"
#include "EngineHost.h"
#include "ErrorLine.h"
#include "GuardedApplication.h"
#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "PresenterMode.h"
#include "SessionController.h"
#include "SetupBar.h"
#include "SetupSettings.h"

#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QScreen>
#include <QSettings>
#include <QTextStream>

#include <algorithm>

using namespace specdec::gui;

int main(int argc, char *argv[])
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    GuardedApplication app(argc, argv); // an exception from a view is reported in the banner, not fatal
    QApplication::setApplicationName(QStringLiteral("specdec-lab"));
    QApplication::setOrganizationName(QStringLiteral("specdec-lab"));
    QApplication::setApplicationVersion(QStringLiteral(SPECDEC_VERSION));
    QApplication::setDesktopFileName(QStringLiteral(SPECDEC_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/" SPECDEC_APP_ID ".svg")));

    const QStringList automation = {QStringLiteral("--screenshot"), QStringLiteral("--handout"),
                                    QStringLiteral("--quiz-sheet"), QStringLiteral("--benchmark-ui")};
    const QStringList arguments = app.arguments();
    const bool automated = std::any_of(automation.begin(), automation.end(), [&](const QString &option) {
        return std::any_of(arguments.begin(), arguments.end(),
                           [&](const QString &a) { return a == option || a.startsWith(option + QLatin1Char('=')); });
    });
    if (automated) {
        // Automated runs neither read nor change the user's settings.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           QDir::temp().filePath(QStringLiteral("specdec-lab-automation-%1").arg(app.applicationPid())));
    }
    QSettings settings;
    const CommandLine cl = parseCommandLine(app.arguments(), automated ? defaultSetup() : loadSetup(settings));
    if (!cl.error.isEmpty()) {
        QTextStream stream(stderr);
        specdec::app::printMessage(stream, QStringLiteral("specdec-lab"), QStringLiteral("error"), cl.error);
        return 2;
    }

    Language language;
    language.set(cl.language.isEmpty() ? settings.value(QStringLiteral("language")).toString() : cl.language);

    EngineHost engine; // the one door to the engine: every long job of the window runs here
    SessionController session(corpusCatalog(), nullptr, &engine);
    Player player(&session);
    MainWindow window(&session, &player, &language);
    QObject::connect(&app, &GuardedApplication::exceptionCaught, &window, &MainWindow::reportError);
    QStringList corpora;
    for (const std::string &name : corpusCatalog().names())
        corpora << QString::fromStdString(name);
    window.setupBar()->setCorpusNames(corpora);
    window.setupBar()->setModelFiles(onnxModelFiles());

    const AutomationContext context{&window, &session, &player, &sinceStart};
    if (cl.renders())
        return runScreenshot(context, cl);
    if (cl.benchmark)
        return runBenchmark(context, cl);

    bool fillScreen = false;
    if (!window.restoreLayout()) // first start: fit the screen (a 1280×720 projector gets the compact layout)
        if (const QScreen *screen = QGuiApplication::primaryScreen()) {
            window.arrangeFor(screen->availableSize().boundedTo(QSize(1600, 1000)));
            // The available size includes the title bar's height: a smaller screen gets the window maximised,
            // which the window manager fits inside its frame.
            fillScreen = screen->availableSize().width() < 1600 || screen->availableSize().height() < 1000 + 48;
        }
    if (fillScreen)
        window.showMaximized();
    else
        window.show();
    if (!cl.lesson.isEmpty())
        window.classroom()->openLessonFile(cl.lesson, ClassroomTools::Aside::None); // validated by parseCommandLine
    else
        window.startSession(cl.setup);
    if (cl.presenter)
        window.classroom()->setPresenterMode(true);
    if (cl.predict)
        window.classroom()->setPredictBeforeReveal(true);
    if (cl.quiz >= 0)
        window.classroom()->showQuiz(cl.quiz);
    if (cl.stage)
        window.classroom()->presenter()->showStage(static_cast<int>(*cl.stage));
    return app.exec();
}
