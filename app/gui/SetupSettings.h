// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The last setup, kept in QSettings between runs.

#include "Experiment.h"

class QSettings;

namespace specdec::gui {

/// The setup of a first start: the King James Bible, a prompt to continue, an order-6 target and a bigram draft.
Setup defaultSetup();
/// The saved setup, or defaultSetup() when none is saved (or it is no longer valid).
Setup loadSetup(const QSettings &settings);
void saveSetup(QSettings &settings, const Setup &setup);
/// Threads of the window's ONNX executors (QSettings "engine/threads"): by default min(cores, 4), so that a
/// memory-bound model's products use the cores while the window keeps one for itself on a larger machine.
int windowThreads();

} // namespace specdec::gui
