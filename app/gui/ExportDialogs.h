// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ExportDialogs: File ▸ Export — the trace of the rounds kept, any plot of the window and its tools, the
// one-page handout of the round on screen and the quiz sheet; each a dialog, and what it writes as a function
// the command line calls too (--handout, --quiz-sheet).

#include "Exporter.h"

#include <QList>
#include <QObject>
#include <QPair>

class QCustomPlot;

namespace specdec::gui {

class ActionRegistry;
class ArenaView;
class LosslessLabView;
class MainWindow;
class Player;
class QuizView;
class SessionController;
class TheoryExplorer;

class ExportDialogs : public QObject
{
    Q_OBJECT
public:
    /// The tool windows whose plots and contents can be exported besides the main window's.
    struct Tools
    {
        ArenaView *arena;
        TheoryExplorer *theory;
        LosslessLabView *lab;
        QuizView *quiz;
    };
    ExportDialogs(MainWindow *window, const SessionController *session, const Player *player, Tools tools,
                  QObject *parent = nullptr);

    /// Every plot the tools and the window show, by a readable name ("window — plot title").
    QList<QPair<QString, QCustomPlot *>> plots() const;
    /// The handout's texts for the round on screen: setup, the run's numbers so far, the theory panel.
    HandoutText handoutText() const;
    /// Each returns an empty string or a readable error.
    QString exportHandout(const QString &path) const;
    /// The quiz sheet (questions, then answers) as a PDF.
    QString exportQuizSheet(const QString &path) const;

    void traceDialog();
    void plotDialog();
    void handoutDialog();
    void quizSheetDialog();
    /// Declares File ▸ Export trace, plot, handout and quiz sheet.
    void addActions(ActionRegistry &registry);

private:
    MainWindow *m_window;
    const SessionController *m_session;
    const Player *m_player;
    Tools m_tools;
};

} // namespace specdec::gui
