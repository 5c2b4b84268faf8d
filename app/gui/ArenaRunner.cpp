// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaRunner.h"

#include "ModelTitle.h"
#include "DraftPolicy.h"
#include "Error.h"
#include "Generation.h"
#include "Metrics.h"
#include "MetricsAccumulator.h"

#include <QElapsedTimer>

namespace specdec::gui {

ArenaLaneSpec ArenaLaneSpec::parse(const QString &line)
{
    const QStringList parts = line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    ArenaLaneSpec spec;
    spec.draft = parts.value(0);
    if (parts.size() > 1)
        spec.policy = parts[1];
    return spec;
}

QString ArenaLaneSpec::title() const
{
    return policy == QLatin1String("constant") ? draft : draft + QLatin1Char(' ') + policy;
}

struct ArenaWorker::Lane
{
    std::unique_ptr<LanguageModel> draft;
    std::unique_ptr<SpeculativeDecoder> decoder;
    std::vector<TokenId> sequence;
    MetricsAccumulator metrics; ///< the cumulative metrics, one round at a time
    int generated = 0;
    double seconds = 0.0;
};

ArenaWorker::ArenaWorker(CorpusCatalog catalog, QObject *parent)
    : QObject(parent)
    , m_catalog(std::move(catalog))
{
}

ArenaWorker::~ArenaWorker() = default;

void ArenaWorker::load(const Setup &setup, const QStringList &lanes, int generation)
{
    m_generation = generation;
    m_lanes.clear();
    m_experiment.reset();
    try {
        if (lanes.size() < 2 || lanes.size() > 6)
            throw Error(tr("The arena takes 2 to 6 lanes, got %1.").arg(lanes.size()).toStdString());
        m_experiment = Experiment::load(setup, m_catalog, false);
        m_tokens = setup.tokens;
        ArenaInfo info;
        const Generation base = generateAutoregressive(m_experiment->target(), setup.decoding.target,
                                                       setup.decoding.seed, m_experiment->prompt(), setup.tokens);
        info.baseline = base.tokens;
        m_baselinePerToken = base.seconds / std::max(1, setup.tokens);
        info.baselineSecondsPerToken = m_baselinePerToken;
        info.tokens = setup.tokens;
        for (const QString &line : lanes) {
            const ArenaLaneSpec spec = ArenaLaneSpec::parse(line);
            auto lane = std::make_unique<Lane>();
            lane->draft = m_experiment->makeDraft(spec.draft.toStdString(), setup.draftCorpus);
            DecodingSettings settings = setup.decoding;
            settings.policy = DraftPolicy::parse(spec.policy.toStdString());
            settings.recordDistributions = true;
            lane->decoder = std::make_unique<SpeculativeDecoder>(m_experiment->target(), *lane->draft, settings);
            lane->sequence = m_experiment->prompt();
            QString title = modelTitle(lane->draft->describe());
            if (settings.policy.kind != DraftPolicy::Kind::Constant)
                title += QStringLiteral(" · ") + QString::fromStdString(settings.policy.describe());
            info.lanes << title;
            m_lanes.push_back(std::move(lane));
        }
        info.session.vocabulary = std::make_shared<const Vocabulary>(m_experiment->vocabulary());
        info.session.prompt = m_experiment->prompt();
        info.session.corpus = QString::fromStdString(m_experiment->corpus().name);
        info.session.target = modelTitle(m_experiment->target().describe());
        info.session.draftLength = setup.decoding.draftLength;
        info.session.greedy = setup.decoding.target.greedy();
        emit loaded(info, generation);
    } catch (const std::exception &e) {
        m_lanes.clear();
        m_experiment.reset();
        emit failed(QString::fromStdString(e.what()), generation);
    }
}

bool ArenaWorker::playRound(int index, QList<RoundRecord> &out)
{
    Lane &lane = *m_lanes[static_cast<std::size_t>(index)];
    const int budget = std::min(lane.decoder->settings().draftLength, m_tokens - lane.generated);
    if (budget <= 0)
        return false;
    QElapsedTimer timer;
    timer.start();
    RoundRecord record;
    record.trace = lane.decoder->round(lane.sequence, budget);
    record.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    lane.seconds += record.seconds;
    lane.generated += static_cast<int>(record.trace.committed.size());
    MetricsAccumulator one;
    one.add(record.trace);
    record.round = one.metrics(record.seconds);
    lane.metrics.add(record.trace);
    record.cumulative = lane.metrics.metrics(lane.seconds, m_baselinePerToken * lane.generated);
    out.push_back(std::move(record));
    return true;
}

void ArenaWorker::step(bool aligned, int count, int generation)
{
    if (generation != m_generation || m_lanes.empty())
        return;
    try {
        for (int c = 0; c < count; ++c) {
            int goal = 0;
            for (const auto &lane : m_lanes)
                goal = std::max(goal, lane->generated);
            goal = std::min(goal + 1, m_tokens);
            for (int i = 0; i < static_cast<int>(m_lanes.size()); ++i) {
                QList<RoundRecord> rounds;
                if (aligned) {
                    while (m_lanes[static_cast<std::size_t>(i)]->generated < goal && playRound(i, rounds)) {
                    }
                } else {
                    playRound(i, rounds);
                }
                if (!rounds.isEmpty())
                    emit played(i, rounds, generation);
            }
        }
    } catch (const std::exception &e) {
        emit failed(QString::fromStdString(e.what()), generation);
    }
    emit stepDone(generation);
}

ArenaRunner::ArenaRunner(CorpusCatalog catalog, QObject *parent)
    : QObject(parent)
    , m_worker(new ArenaWorker(std::move(catalog)))
{
    registerMetaTypes();
    qRegisterMetaType<ArenaInfo>();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &ArenaWorker::loaded, this, [this](const ArenaInfo &info, int generation) {
        if (generation != m_generation)
            return;
        m_info = info;
        m_histories.clear();
        for (int i = 0; i < info.lanes.size(); ++i)
            m_histories.push_back(std::make_unique<RoundHistory>());
        m_ready = true;
        emit ready(m_info);
    });
    connect(m_worker, &ArenaWorker::played, this,
            [this](int lane, const QList<RoundRecord> &rounds, int generation) {
                if (generation != m_generation || lane >= static_cast<int>(m_histories.size()))
                    return;
                for (const RoundRecord &r : rounds)
                    m_histories[static_cast<std::size_t>(lane)]->append(r);
                emit roundsAdded(lane);
            });
    connect(m_worker, &ArenaWorker::stepDone, this, [this](int generation) {
        if (generation != m_generation)
            return;
        m_pending = std::max(0, m_pending - 1);
        emit stepFinished();
    });
    connect(m_worker, &ArenaWorker::failed, this, [this](const QString &message, int generation) {
        if (generation == m_generation)
            emit failed(message);
    });
    m_thread.setObjectName(QStringLiteral("specdec-arena"));
    m_thread.start();
}

ArenaRunner::~ArenaRunner()
{
    ++m_generation;
    m_thread.quit();
    m_thread.wait();
}

void ArenaRunner::start(const Setup &setup, const QStringList &lanes)
{
    ++m_generation;
    m_ready = false;
    m_pending = 0;
    m_histories.clear();
    QMetaObject::invokeMethod(m_worker, "load", Qt::QueuedConnection, Q_ARG(specdec::Setup, setup),
                              Q_ARG(QStringList, lanes), Q_ARG(int, m_generation));
}

void ArenaRunner::step(bool aligned, int count)
{
    if (!m_ready)
        return;
    ++m_pending;
    QMetaObject::invokeMethod(m_worker, "step", Qt::QueuedConnection, Q_ARG(bool, aligned), Q_ARG(int, count),
                              Q_ARG(int, m_generation));
}

} // namespace specdec::gui
