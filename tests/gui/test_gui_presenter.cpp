// SPDX-License-Identifier: GPL-3.0-or-later
// Presenter mode: F5 puts the lab, arena, theory explorer and quiz as stages (tabs) inside the main window
// (never floating), hides the docks and the setup bar, scales the text ×1.5 (Ctrl+= / Ctrl+-, remembered);
// Esc puts everything back. Help: the user guide renders inside the app with its images, in both languages;
// the shortcut list holds every action with a shortcut, none twice.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ArenaView.h"
#include "ClassroomTools.h"
#include "HelpBrowser.h"
#include "Language.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "PresenterMode.h"
#include "QuizView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"

#include <QDockWidget>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextBlock>
#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

namespace {

/// Triggers the enabled action of `window` bound to `key` (what pressing it does in a focused window).
bool press(QWidget *window, const QKeySequence &key)
{
    for (QAction *a : window->findChildren<QAction *>())
        if (a->shortcut() == key && a->isEnabled()) {
            a->trigger();
            return true;
        }
    return false;
}

} // namespace

class TestPresenter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); QSettings().clear(); }
    void stagesInsideTheWindow();
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

    QVERIFY(press(&window, QKeySequence(Qt::Key_F5)));
    QVERIFY(tools.presenter()->isActive());
    QTabWidget *tabs = tools.presenter()->tabs();
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 6);
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
    QCOMPARE(tools.presenter()->currentStage(), 2);
    tools.showQuiz(8);
    QCOMPARE(tools.presenter()->currentStage(), 5);
    QCOMPARE(tools.quiz()->currentQuestion(), 8);
    // It fits a 1280x720 projector.
    QVERIFY2(window.minimumSizeHint().height() <= 720, qPrintable(QString::number(window.minimumSizeHint().height())));
    QVERIFY2(window.minimumSizeHint().width() <= 1280, qPrintable(QString::number(window.minimumSizeHint().width())));

    // Ctrl+= / Ctrl+- in steps of 0.1, remembered.
    QVERIFY(press(&window, QKeySequence(QStringLiteral("Ctrl+="))));
    QCOMPARE(tools.presenter()->scale(), 1.6);
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont * 1.6) < 0.05);
    QCOMPARE(QSettings().value(QStringLiteral("presenter/scale")).toDouble(), 1.6);
    QVERIFY(press(&window, QKeySequence(QStringLiteral("Ctrl+-"))));
    QVERIFY(press(&window, QKeySequence(QStringLiteral("Ctrl+-"))));
    QCOMPARE(tools.presenter()->scale(), 1.4);

    QVERIFY(!press(&window, QKeySequence(QStringLiteral("Ctrl+=Ctrl+=")))); // (no such key)
    // Esc leaves: the docks, the centre and the tool windows are back.
    QVERIFY(press(&window, QKeySequence(Qt::Key_Escape)));
    QVERIFY(!tools.presenter()->isActive());
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont) < 0.05);
    for (QDockWidget *d : docks)
        QVERIFY(d->isVisible());
    QVERIFY(tools.lab()->isWindow());
    QVERIFY(window.centralWidget() != nullptr && window.centralWidget() != tabs);
    QVERIFY(tools.presenter()->tabs() == nullptr);
    // Entering again uses the remembered scale.
    tools.setPresenterMode(true);
    QVERIFY(std::abs(window.font().pointSizeF() - baseFont * 1.4) < 0.05);
    tools.setPresenterMode(false);
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
    language.set(QStringLiteral("zh_CN"));
    QCoreApplication::processEvents();
    QVERIFY(tools.help()->guidePath().endsWith(QStringLiteral("user-guide.zh_CN.md")));
    QVERIFY(tools.help()->browser()->toPlainText().contains(QStringLiteral("使用指南")));
    language.set(QStringLiteral("en"));
    QCoreApplication::processEvents();

    tools.showShortcuts();
    const QList<ShortcutEntry> entries = shortcutEntries(&window);
    QStringList keys;
    for (const ShortcutEntry &e : entries)
        keys << e.shortcut;
    for (const QString &k : {QStringLiteral("F5"), QStringLiteral("F1"), QStringLiteral("Space")})
        QVERIFY2(keys.contains(k), qPrintable(keys.join(QLatin1Char(' '))));
    QCOMPARE(tools.shortcuts()->table()->rowCount(), entries.size());
}

QTEST_MAIN(TestPresenter)
#include "test_gui_presenter.moc"
