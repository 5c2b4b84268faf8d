// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RaceRunner: the race's engine side as a job of the engine host (EngineHost.h, kind Race): it loads the
// session's setup, plays a RaceRun (engine/RaceRun.h) to the end and sends its steps back in batches
// (RaceSteps), then RaceFinished. stop() cancels within one step. connectRace wires a RaceView to it.

#include "EngineJobs.h"
#include "RaceView.h"

#include "CorpusLocations.h"

#include <QObject>

#include <functional>
#include <memory>

namespace specdec::gui {

class EngineHost;
class RaceView;

class RaceRunner : public QObject
{
    Q_OBJECT
public:
    RaceRunner(CorpusCatalog catalog, EngineHost *host, QObject *parent = nullptr);
    ~RaceRunner() override;

    void start(const RaceRequest &request);
    void stop();
    bool isRunning() const { return m_running; }

signals:
    /// How far the race's models have loaded (Experiment::load's LoadProgress), in [0, 1], rising.
    void loadProgressed(double fraction);
    void ready(const specdec::gui::RaceSetup &setup);
    void steps(const specdec::gui::RaceSteps &steps);
    void finished(const specdec::gui::RaceFinished &result);
    void failed(const QString &message);

private:
    CorpusCatalog m_catalog;
    EngineHost *m_host;
    std::shared_ptr<int> m_generation; ///< the race in flight: deliveries of an older one are dropped
    bool m_running = false;
};

/// The view's Start runs a race on `setup()` (the session's setup); its steps, end and errors go to the view.
void connectRace(RaceView *view, RaceRunner *runner, std::function<Setup()> setup);

} // namespace specdec::gui
