// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one-click lessons: each a saved Setup (plus arena lanes, a lab variant or theory sliders) that
// reproduces a common misconception about speculative decoding and its answer, with a short explanation.

#include "Acceptance.h"
#include "Experiment.h"

#include <QString>
#include <QStringList>

#include <array>
#include <optional>

namespace specdec::gui {

struct Lesson
{
    QString key;            ///< stable, untranslated ("small-draft-quality", …)
    QString title;
    QString misconception;
    QString answer;
    QString lookAt;         ///< what to look at while it runs
    Setup setup;            ///< applied to the main window (and the arena's target, prompt and settings)
    QStringList arenaLanes; ///< non-empty: open the arena with these lanes
    bool lab = false;       ///< open the lossless lab (model preset, correct rule)
    std::optional<std::array<double, 3>> theory; ///< open the theory explorer at α, K, c

    QString html() const;
};

/// The five misconceptions and the classic demo, translated to the current language.
QList<Lesson> allLessons();

} // namespace specdec::gui
