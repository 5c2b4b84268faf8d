// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// specdec bench --kv-cache-speedup: cached against uncached autoregressive decoding of an ONNX target.

#include "Experiment.h"

namespace specdec::cli {

/// Decodes setup.tokens tokens autoregressively with the target's key/value cache and without it, alternating
/// `repeat` times (the fastest of each counts), and prints both times, their ratio (wall clock and CPU) and
/// whether the texts are the same. Returns 0, or 1 when the texts differ. Throws Error for a target without a
/// cache.
int benchKvCache(Setup setup, int repeat, bool json);

} // namespace specdec::cli
