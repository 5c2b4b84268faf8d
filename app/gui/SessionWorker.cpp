// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionWorker.h"

#include "ModelTitle.h"

#include "Error.h"
#include "Generation.h"
#include "Metrics.h"

#include <QElapsedTimer>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace specdec::gui {

SessionWorker::SessionWorker(CorpusCatalog catalog, const std::atomic<int> *latest, QObject *parent)
    : QObject(parent)
    , m_catalog(std::move(catalog))
    , m_latest(latest)
{
}

SessionWorker::~SessionWorker() = default;

void SessionWorker::yieldToWindow()
{
#ifdef Q_OS_LINUX
    // Per-thread on Linux: affects this thread and the threads it creates, not the GUI thread.
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
#endif
}

void SessionWorker::load(const Setup &setup, int generation)
{
    if (generation != m_latest->load())
        return; // a newer setup is already queued
    m_generation = generation;
    m_decoder.reset();
    m_experiment.reset();
    m_metrics.clear();
    m_seconds = m_baselineSeconds = 0.0;
    try {
        m_experiment = Experiment::load(setup, m_catalog);
        m_decoder = std::make_unique<SpeculativeDecoder>(m_experiment->target(), *m_experiment->draft(),
                                                         setup.decoding);
        m_sequence = m_experiment->prompt();
        SessionInfo info;
        info.vocabulary = std::make_shared<const Vocabulary>(m_experiment->vocabulary());
        info.prompt = m_experiment->prompt();
        info.corpus = QString::fromStdString(m_experiment->corpus().name);
        info.target = modelTitle(m_experiment->target().describe());
        info.draft = modelTitle(m_experiment->draft()->describe());
        info.draftLength = setup.decoding.draftLength;
        info.greedy = setup.decoding.target.greedy();
        for (const std::string &w : m_experiment->warnings())
            info.warnings << QString::fromStdString(w);
        emit loaded(info, generation);
    } catch (const std::exception &e) {
        m_decoder.reset();
        m_experiment.reset();
        emit failed(QString::fromStdString(e.what()), generation);
    }
}

double SessionWorker::timeBaseline(const std::vector<TokenId> &context, const std::vector<TokenId> &committed)
{
    // The engine's autoregressive baseline for as many tokens from the same context: one target call, the
    // sampler and a draw per token.
    const Setup &setup = m_experiment->setup();
    const Generation g = generateAutoregressive(m_experiment->target(), setup.decoding.target, setup.decoding.seed,
                                                context, static_cast<int>(committed.size()));
    return g.seconds;
}

void SessionWorker::play(int count, int generation)
{
    if (generation != m_generation || !m_decoder)
        return;
    QList<PlayedRound> batch;
    QElapsedTimer sinceEmit;
    sinceEmit.start();
    try {
        for (int i = 0; i < count && generation == m_latest->load(); ++i) {
            const std::vector<TokenId> context = m_sequence;
            QElapsedTimer timer;
            timer.start();
            RoundRecord record;
            record.trace = m_decoder->round(m_sequence, m_decoder->settings().draftLength);
            record.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
            m_seconds += record.seconds;
            m_baselineSeconds += timeBaseline(context, record.trace.committed);

            MetricsAccumulator one;
            one.add(record.trace);
            record.round = one.metrics(record.seconds);
            m_metrics.add(record.trace);
            record.cumulative = m_metrics.metrics(m_seconds, m_baselineSeconds);
            batch.push_back({std::make_shared<const RoundRecord>(std::move(record)), nullptr});
            if (sinceEmit.elapsed() >= 10) {
                emit played(batch, generation);
                batch.clear();
                sinceEmit.restart();
            }
        }
    } catch (const std::exception &e) {
        emit failed(QString::fromStdString(e.what()), generation);
    }
    if (!batch.isEmpty())
        emit played(batch, generation);
}

} // namespace specdec::gui
