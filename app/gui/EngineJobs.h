// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The value types of the engine host's jobs (EngineHost.h): what each kind of job is asked (request), what
// it reports while it runs (progress) and how it ends (result). They cross threads by value, in functors.
//
//   job kind           request                          progress                     result
//   session load       Setup (with its cap)             SessionLoadProgress          SessionInfo | error text
//   session play       a count of rounds                RoundsBatch                  RoundsFinished
//   arena load         Setup and the lanes' lines       —                            ArenaInfo | error text
//   arena step         ArenaStepRequest                 ArenaLaneRounds (per lane)   stepFinished
//   lab run            LabRequest                       LabSnapshot                  LabSnapshot (finished)
//   race               RaceRequest                      RaceSteps                    RaceFinished | error text

#include "RoundRecord.h"

#include "Experiment.h"
#include "RaceRun.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace specdec::gui {

struct SessionLoadProgress
{
    /// How far the setup's models have loaded (Experiment::load's LoadProgress: the pair's weights, by bytes), in
    /// [0, 1]; told at most every 1 % or 50 ms.
    double fraction = 0.0;
};

struct RoundsBatch
{
    std::vector<std::shared_ptr<const RoundRecord>> rounds; ///< about 10 ms of work, in order
};

struct RoundsFinished
{
    int requested = 0;      ///< rounds this job was asked for
    int played = 0;         ///< rounds this job played
    bool atCap = false;     ///< the run has written its cap of tokens, or its end-of-text token (endOfText)
    bool endOfText = false; ///< the target wrote its end-of-text token: the text ends there
    bool stopped = false;   ///< the job was cancelled before it played them all
    int generated = 0;      ///< tokens the run has written so far
};

struct ArenaStepRequest
{
    bool aligned = false; ///< false: one round per lane; true: each lane catches up with the one furthest ahead
    int count = 1;        ///< repeats of the step
};

struct ArenaLaneRounds
{
    int lane = 0;
    std::vector<std::shared_ptr<const RoundRecord>> rounds;
};

struct RaceRequest
{
    Setup setup; ///< the session's setup (target, draft, prompt, seed, sampler, K or tree, KV cache)
    int tokens = 200;
};

struct RaceSteps
{
    std::vector<RaceStep> steps; ///< about 15 ms of engine work, in the order played
};

struct RaceFinished
{
    bool stopped = false;   ///< cancelled before both lanes wrote their tokens
    double ratio = 0.0;     ///< speculative / autoregressive tokens per second
    bool identical = false; ///< both texts are the same
};

} // namespace specdec::gui
