// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaRunner.h"

#include "EngineHost.h"
#include "ModelTitle.h"
#include "SessionRun.h"
#include "SetupSettings.h"

#include "DraftPolicy.h"
#include "Error.h"
#include "Generation.h"

#include <algorithm>
#include <stop_token>

namespace specdec::gui {

ArenaLaneSpec ArenaLaneSpec::parse(const QString &line)
{
    const QStringList parts = line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    ArenaLaneSpec spec;
    spec.draft = parts.value(0);
    for (int i = 1; i < parts.size(); ++i) {
        if (parts[i].startsWith(QLatin1String("tree:")))
            spec.tree = parts[i].mid(5);
        else
            spec.policy = parts[i];
    }
    return spec;
}

QString ArenaLaneSpec::title() const
{
    QString t = policy == QLatin1String("constant") ? draft : draft + QLatin1Char(' ') + policy;
    if (!tree.isEmpty())
        t += QStringLiteral(" tree:") + tree;
    return t;
}

/// The engine side of the arena: touched on the arena worker only.
struct ArenaRunner::State
{
    std::unique_ptr<Experiment> experiment;
    std::vector<std::unique_ptr<LanguageModel>> drafts;
    std::vector<std::unique_ptr<SessionRun>> lanes;
};

ArenaRunner::ArenaRunner(CorpusCatalog catalog, QObject *parent, EngineHost *host)
    : QObject(parent)
    , m_catalog(std::move(catalog))
    , m_host(host)
{
    registerMetaTypes();
    qRegisterMetaType<ArenaInfo>();
    if (!m_host) {
        m_ownHost = std::make_unique<EngineHost>();
        m_host = m_ownHost.get();
    }
}

ArenaRunner::~ArenaRunner()
{
    m_host->cancelAndWait(EngineHost::Kind::Arena);
}

void ArenaRunner::start(const Setup &setup, const QStringList &lanes)
{
    m_host->cancel(EngineHost::Kind::Arena);
    m_ready = false;
    m_pending = 0;
    m_histories.clear();
    auto state = std::make_shared<State>();
    m_state = state;
    Setup loaded = setup;
    loaded.threads = windowThreads();
    m_host->post(EngineHost::Kind::Arena, [this, state, setup = loaded, lanes, catalog = m_catalog](std::stop_token stop) {
        try {
            if (lanes.size() < 2 || lanes.size() > 6)
                throw Error(tr("The arena takes 2 to 6 lanes, got %1.").arg(lanes.size()).toStdString());
            const LoadProgress progress = EngineHost::deliverProgress(this, [this, state](double fraction) {
                if (state == m_state)
                    emit loadProgressed(fraction);
            });
            state->experiment = Experiment::load(setup, catalog, false, progress.part(0.0, 0.3));
            Experiment &e = *state->experiment;
            ArenaInfo info;
            const LoadProgress baseline = progress.part(0.3, 0.7);
            const Generation base = generateAutoregressive(
                e.target(), setup.decoding.target, setup.decoding.seed, e.prompt(), setup.tokens,
                [&](int generated, int wanted) {
                    baseline.report(static_cast<double>(generated) / wanted);
                    return !stop.stop_requested();
                },
                setup.decoding.kvCache);
            info.baseline = base.tokens;
            info.tokens = setup.tokens;
            for (int lane = 0; lane < lanes.size(); ++lane) {
                if (stop.stop_requested())
                    return;
                const ArenaLaneSpec spec = ArenaLaneSpec::parse(lanes[lane]);
                const double share = 0.3 / static_cast<double>(lanes.size());
                auto draft = e.makeDraft(spec.draft.toStdString(), setup.draftCorpus,
                                         progress.part(0.7 + share * lane, 0.7 + share * (lane + 1)));
                DecodingSettings settings = setup.decoding;
                settings.policy = DraftPolicy::parse(spec.policy.toStdString());
                // A lane is a chain unless it names a tree (the window's tree shape is not the lanes').
                settings.tree = spec.tree.isEmpty() ? TreeShape{} : TreeShape::parse(spec.tree.toStdString());
                settings.recordDistributions = true;
                // A lane is a session capped at the arena's tokens, with its autoregressive baseline played
                // alongside in the same steps (as the window's session and `specdec run --baseline`): a moment the
                // CPU serves another thread slows both sides of the ratio, not one.
                state->lanes.push_back(
                    std::make_unique<SessionRun>(e.target(), *draft, settings, e.prompt(), setup.tokens));
                QString title = modelTitle(draft->describe());
                if (settings.policy.kind != DraftPolicy::Kind::Constant)
                    title += QStringLiteral(" · ") + QString::fromStdString(settings.policy.describe());
                if (!settings.tree.empty())
                    title += QStringLiteral(" · ") + tr("tree %1").arg(QString::fromStdString(settings.tree.describe()));
                info.lanes << title;
                state->drafts.push_back(std::move(draft));
            }
            info.session.vocabulary = std::make_shared<const Tokenizer>(e.tokenizer());
            info.session.prompt = e.prompt();
            info.session.corpus = QString::fromStdString(e.corpus().name);
            info.session.target = modelTitle(e.target().describe());
            info.session.draftLength = setup.decoding.draftLength;
            info.session.greedy = setup.decoding.target.greedy();
            progress.finish(); // 1 exactly, whatever the lanes' parts summed to
            EngineHost::deliver(this, [this, state, info] {
                if (state != m_state)
                    return;
                m_info = info;
                m_histories.clear();
                for (int i = 0; i < info.lanes.size(); ++i)
                    m_histories.push_back(std::make_unique<RoundHistory>());
                m_ready = true;
                emit ready(m_info);
            });
        } catch (const std::exception &e) {
            state->lanes.clear();
            state->drafts.clear();
            state->experiment.reset();
            EngineHost::deliver(this, [this, state, message = QString::fromStdString(e.what())] {
                if (state == m_state)
                    emit failed(message);
            });
        }
    });
}

void ArenaRunner::step(bool aligned, int count)
{
    if (!m_ready)
        return;
    ++m_pending;
    const std::shared_ptr<State> state = m_state;
    m_host->post(EngineHost::Kind::Arena, [this, state, request = ArenaStepRequest{aligned, count}](std::stop_token stop) {
        try {
            auto &lanes = state->lanes;
            for (int c = 0; c < request.count && !stop.stop_requested(); ++c) {
                int goal = 0;
                for (const auto &lane : lanes)
                    goal = std::max(goal, lane->generated());
                for (int i = 0; i < static_cast<int>(lanes.size()) && !stop.stop_requested(); ++i) {
                    SessionRun &lane = *lanes[static_cast<std::size_t>(i)];
                    const int laneGoal = std::min(goal + 1, lane.cap());
                    ArenaLaneRounds out{i, {}};
                    // aligned: play until the lane has the tokens of the one furthest ahead (+1); else one round
                    while ((request.aligned ? lane.generated() < laneGoal : out.rounds.empty())
                           && !stop.stop_requested()) {
                        auto record = lane.playRound();
                        if (!record)
                            break;
                        out.rounds.push_back(std::move(record));
                    }
                    if (!out.rounds.empty())
                        EngineHost::deliver(
                            this, [this, state, r = std::move(out)]() mutable { onLaneRounds(state, std::move(r)); });
                }
            }
        } catch (const std::exception &e) {
            EngineHost::deliver(this, [this, state, message = QString::fromStdString(e.what())] {
                if (state == m_state)
                    emit failed(message);
            });
        }
        EngineHost::deliver(this, [this, state] {
            if (state != m_state)
                return;
            m_pending = std::max(0, m_pending - 1);
            emit stepFinished();
        });
    });
}

void ArenaRunner::stop()
{
    m_host->cancel(EngineHost::Kind::Arena);
    if (m_pending > 0) {
        m_pending = 0;
        emit stepFinished();
    }
}

void ArenaRunner::onLaneRounds(const std::shared_ptr<State> &state, ArenaLaneRounds rounds)
{
    if (state != m_state || rounds.lane >= laneCount())
        return;
    m_histories[static_cast<std::size_t>(rounds.lane)]->append(std::move(rounds.rounds));
    emit roundsAdded(rounds.lane);
}

} // namespace specdec::gui
