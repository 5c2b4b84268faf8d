// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the GUI suites share: rounds played by the real engine on the tiny test corpus, packed as the views
// receive them; the real window as main() builds it; pressing a key in a window; small checks of what a view shows.

#include "../TestSupport.h"

#include "Experiment.h"
#include "Language.h"
#include "MainWindow.h"
#include "Player.h"
#include "RoundHistory.h"
#include "SessionController.h"

#include <QKeySequence>
#include <QVector>

#include <string>

class QWidget;

namespace specdec::test {

struct PlayedRounds
{
    gui::SessionInfo info;
    std::vector<std::shared_ptr<const gui::RoundRecord>> records; ///< every round, with its distributions
    std::shared_ptr<gui::RoundHistory> history; ///< the same records in a history that keeps all their vectors
};

/// Plays `rounds` rounds of speculative decoding on tiny-en.txt with full distributions recorded, and packs
/// each as a RoundRecord with its own and cumulative metrics (as the session worker does).
PlayedRounds playRounds(const std::string &target, const std::string &draft, double temperature, int rounds,
                        std::uint64_t seed = 1, const std::string &prompt = "the ");

/// The setup the window suites play: tiny-en.txt, target ngram:4, draft ngram:2, prompt "the " (the rest at
/// its defaults; each suite sets its own seed and sampler).
Setup tinySetup();

/// A history of the first `count` records of `played` (all with their distributions).
std::shared_ptr<gui::RoundHistory> historyOf(const PlayedRounds &played, int count);

/// The first round of `played` that was rejected (or, with `rejected` false, fully accepted); -1 if none.
int findRound(const PlayedRounds &played, bool rejected);

/// The main window with its session (the built corpora), player and language, as main() builds it.
struct Window
{
    gui::SessionController session{builtCorpora()};
    gui::Player player{&session};
    gui::Language language;
    gui::MainWindow window{&session, &player, &language};
};

/// Triggers the enabled action of `window` bound to `key` (what pressing it does in a focused window); false
/// unless exactly one enabled action has that shortcut (none, or an ambiguous key that Qt would not fire).
bool press(QWidget *window, const QKeySequence &key);

/// The verdict marks (✓ and ✗) in a timeline row's text.
int marks(const QString &row);

/// No bar drawn: every value 0 (or none).
bool allZero(const QVector<double> &values);

} // namespace specdec::test
