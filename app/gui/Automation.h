// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The automated runs of specdec-lab: --screenshot (render the window after N rounds at a phase, save a PNG)
// and --benchmark-ui (play N rounds at full speed, print frame times (wall and CPU), rounds per second, peak
// memory and resident memory after --rss-at rounds against the end).

#include "CommandLine.h"

#include <QElapsedTimer>

namespace specdec::gui {

class MainWindow;
class Player;
class SessionController;

struct AutomationContext
{
    MainWindow *window;
    SessionController *session;
    Player *player;
    const QElapsedTimer *sinceStart; ///< started at the top of main()
};

int runScreenshot(const AutomationContext &context, const CommandLine &commandLine);
int runBenchmark(const AutomationContext &context, const CommandLine &commandLine);

/// Peak resident memory of this process in MB (VmHWM of /proc/self/status), -1 when unknown.
double peakMemoryMegabytes();
/// Resident memory of this process now (VmRSS), in MB.
double residentMegabytes();
/// Heap memory in use (malloc'd, all arenas), in MB; -1 when unknown.
double heapMegabytes();
/// CPU time the calling thread has used, in ms (CLOCK_THREAD_CPUTIME_ID).
double threadCpuMilliseconds();

} // namespace specdec::gui
