// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaceRunner.h"

#include "EngineHost.h"
#include "ModelTitle.h"
#include "RaceView.h"
#include "SetupSettings.h"

#include <chrono>

namespace specdec::gui {

RaceRunner::RaceRunner(CorpusCatalog catalog, EngineHost *host, QObject *parent)
    : QObject(parent)
    , m_catalog(std::move(catalog))
    , m_host(host)
{
}

RaceRunner::~RaceRunner()
{
    m_host->cancelAndWait(EngineHost::Kind::Race);
}

void RaceRunner::start(const RaceRequest &request)
{
    m_host->cancel(EngineHost::Kind::Race);
    auto generation = std::make_shared<int>(0);
    m_generation = generation;
    m_running = true;
    RaceRequest loaded = request;
    loaded.setup.threads = windowThreads();
    loaded.setup.decoding.recordDistributions = false; // decoding work only, as a real engine
    m_host->post(EngineHost::Kind::Race, [this, generation, request = loaded, catalog = m_catalog](std::stop_token stop) {
        auto current = [this, generation] { return generation == m_generation; };
        try {
            const LoadProgress progress = EngineHost::deliverProgress(this, [this, current](double fraction) {
                if (current())
                    emit loadProgressed(fraction);
            });
            auto experiment = Experiment::load(request.setup, catalog, true, progress);
            RaceSetup setup;
            setup.vocabulary = std::make_shared<const Tokenizer>(experiment->tokenizer());
            setup.target = modelTitle(experiment->target().describe());
            setup.draft = modelTitle(experiment->draft()->describe());
            const DecodingSettings &d = request.setup.decoding;
            setup.shape = d.tree.empty() ? QStringLiteral("K = %1").arg(d.draftLength)
                                         : tr("tree %1").arg(QString::fromStdString(d.tree.describe()));
            setup.tokens = request.tokens;
            setup.kvCache = d.kvCache;
            RaceRun race(experiment->target(), *experiment->draft(), d, experiment->prompt(), request.tokens);
            EngineHost::deliver(this, [this, current, setup] {
                if (current())
                    emit ready(setup);
            });
            RaceSteps batch;
            auto sent = std::chrono::steady_clock::now();
            auto send = [&] {
                EngineHost::deliver(this, [this, current, b = std::move(batch)] {
                    if (current())
                        emit steps(b);
                });
                batch = {};
                sent = std::chrono::steady_clock::now();
            };
            while (!stop.stop_requested()) {
                auto step = race.advance();
                if (!step)
                    break;
                batch.steps.push_back(std::move(*step));
                if (std::chrono::steady_clock::now() - sent > std::chrono::milliseconds(15))
                    send();
            }
            send();
            const RaceFinished result{stop.stop_requested() && !race.finished(), race.ratio(),
                                      race.state(RaceLane::Autoregressive).tokens
                                          == race.state(RaceLane::Speculative).tokens};
            EngineHost::deliver(this, [this, current, result] {
                if (!current())
                    return;
                m_running = false;
                emit finished(result);
            });
        } catch (const std::exception &e) {
            EngineHost::deliver(this, [this, current, message = QString::fromUtf8(e.what())] {
                if (!current())
                    return;
                m_running = false;
                emit failed(message);
            });
        }
    });
}

void RaceRunner::stop()
{
    m_host->cancel(EngineHost::Kind::Race);
}

void connectRace(RaceView *view, RaceRunner *runner, std::function<Setup()> setup)
{
    QObject::connect(view, &RaceView::startRequested, runner, [view, runner, setup = std::move(setup)](int tokens) {
        view->setRace({});
        view->setStatus(RaceRunner::tr("Loading the models…"));
        view->setRunning(true);
        runner->start({setup(), tokens});
    });
    QObject::connect(view, &RaceView::stopRequested, runner, &RaceRunner::stop);
    QObject::connect(runner, &RaceRunner::loadProgressed, view, [view](double fraction) {
        view->setStatus(RaceRunner::tr("Loading the models … %1 %").arg(static_cast<int>(fraction * 100.0)));
    });
    QObject::connect(runner, &RaceRunner::ready, view, [view](const RaceSetup &race) {
        view->setRace(race);
        view->setStatus(RaceRunner::tr("Racing…"));
    });
    QObject::connect(runner, &RaceRunner::steps, view, [view](const RaceSteps &s) { view->addSteps(s.steps); });
    QObject::connect(runner, &RaceRunner::finished, view, [view](const RaceFinished &result) {
        view->setRunning(false);
        view->setEngineFinished(result.stopped);
    });
    QObject::connect(runner, &RaceRunner::failed, view, [view](const QString &message) {
        view->setRunning(false);
        view->setStatus(message);
    });
}

} // namespace specdec::gui
