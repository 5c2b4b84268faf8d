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

} // namespace specdec::gui
