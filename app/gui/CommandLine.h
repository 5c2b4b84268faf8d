// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The command line of specdec-lab: setup options (as in the specdec CLI) and the automation modes
// --screenshot, --handout, --quiz-sheet and --benchmark-ui, and what to open first: --lesson FILE, --quiz [N],
// --presenter (with --stage NAME: the stage shown), --predict.

#include "Phase.h"
#include "PresenterMode.h"

#include "Experiment.h"

#include <QSize>
#include <QString>

#include <optional>

namespace specdec::gui {

/// The largest side --size accepts (pixels): a window is rendered in memory, 8192 x 8192 is 256 MiB.
constexpr int kMaxWindowSide = 8192;

struct CommandLine
{
    Setup setup;                         ///< the saved setup with the options given on the command line applied
    bool setupGiven = false;             ///< any setup option was given
    QString screenshot;                  ///< --screenshot FILE
    QString handout;                     ///< --handout FILE: the handout PDF of the round shown
    QString quizSheet;                   ///< --quiz-sheet FILE: the quiz sheet PDF
    bool benchmark = false;              ///< --benchmark-ui
    int rounds = -1;                     ///< --rounds N (-1: the mode's default)
    int rssAt = 20000;                   ///< --rss-at N: the benchmark reports resident memory after N rounds and end/N
    std::optional<Phase> phase;          ///< --phase NAME
    int card = -1;                       ///< --card N (1-based on the command line; -1: the phase's own card)
    QSize size{1600, 1000};              ///< --size WxH
    QString language;                    ///< --language en|zh_CN ("" = saved or system)
    QString lesson;                      ///< --lesson FILE: open this lesson file (its setup replaces the saved one)
    bool presenter = false;              ///< --presenter: start in presenter mode
    std::optional<PresenterStage> stage; ///< --stage NAME: the presenter stage shown (needs --presenter)
    bool predict = false; ///< --predict: predict before reveal (a screenshot at dice shows the first '?')
    int quiz = -1;        ///< --quiz [N]: open the quiz at question N (1-based on the command line; 0-based here)
    QString error;        ///< a usage error to print (exit 2)

    /// Renders files and exits (--screenshot, --handout, --quiz-sheet).
    bool renders() const { return !screenshot.isEmpty() || !handout.isEmpty() || !quizSheet.isEmpty(); }
    bool automated() const { return renders() || benchmark; }
};

/// Parses the application's arguments; `saved` is the setup to start from.
CommandLine parseCommandLine(const QStringList &arguments, const Setup &saved);

} // namespace specdec::gui
