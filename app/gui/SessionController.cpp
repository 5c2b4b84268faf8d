// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionController.h"

#include "EngineHost.h"
#include "ExperimentNotes.h"
#include "FrameGate.h"
#include "ModelTitle.h"
#include "SessionRun.h"
#include "SetupSettings.h"
#include "TheoryExplorer.h"

#include "ModelFiles.h"
#include "Utf8.h"
#include "VerificationCost.h"

#include <algorithm>

#include <chrono>

namespace specdec::gui {

/// The engine side of one session: touched on the session worker only (its jobs run there in order).
struct SessionController::State
{
    std::unique_ptr<Experiment> experiment;
    std::unique_ptr<SessionRun> run;
};

namespace {

/// The longest a round waits for the window to show the batch before (FrameGate.h).
constexpr std::chrono::milliseconds kFrameLimit{500};

/// A model's files on disk (a neural model's) and the step time measured for it (0: none).
ModelFacts factsOf(const LanguageModel &model, double stepSeconds)
{
    ModelFacts facts;
    facts.stepSeconds = stepSeconds;
    facts.parameters = model.parameterCount();
    if (const auto neural = neuralModel(model.describe())) {
        for (const std::string &file : weightFiles(*neural))
            facts.weightFiles << QString::fromStdString(file);
        facts.weightBytes = weightFileBytes(*neural);
    }
    return facts;
}

SessionInfo infoOf(Experiment &e, const Setup &setup)
{
    SessionInfo info;
    info.vocabulary = std::make_shared<const Tokenizer>(e.tokenizer());
    info.prompt = e.prompt();
    info.corpus = QString::fromStdString(e.corpus().name);
    info.target = modelTitle(e.target().describe());
    info.draft = modelTitle(e.draft()->describe());
    info.draftLength = setup.decoding.draftLength;
    info.greedy = setup.decoding.target.greedy();
    info.warnings = app::experimentWarnings(e); // (also a corpus too small for a model's order)
    info.kvCache = setup.decoding.kvCache;
    // What a verification costs on this machine, for the theory explorer's "this machine" (a few ms for n-grams,
    // about 0.2 s for the small ONNX models, 0.6 s for the chef): where the calls of a run of kProbedTokens are, with
    // rounds of the setup's K draft calls (CostProbe), so that the prediction shown before the first round is the
    // run's, not the prompt's.
    constexpr int kProbedTokens = 300;
    if (!e.prompt().empty()) {
        const VerificationCost cost = measureVerificationCost(e.target(), e.draft(), e.prompt(),
                                                              TheoryExplorer::kMaxK + 1, setup.decoding.kvCache, 5,
                                                              {kProbedTokens, setup.decoding.draftLength});
        info.verificationCost = cost.v;
        info.draftCost = cost.c;
        info.probedTokens = kProbedTokens;
        info.targetFacts = factsOf(e.target(), cost.seconds.empty() ? 0.0 : cost.seconds.front());
        info.draftFacts = factsOf(*e.draft(), cost.draftSeconds);
        info.targetFacts.probedTokens = info.draftFacts.probedTokens = kProbedTokens;
    } else {
        info.targetFacts = factsOf(e.target(), 0.0);
        info.draftFacts = factsOf(*e.draft(), 0.0);
    }
    return info;
}

/// The prompt a session on `corpus` starts from when the corpus changed: `prompt` when every character of it is
/// in the corpus's vocabulary (an empty prompt too, unless the target is a neural model, an ONNX file or a model
/// folder, which needs one token), else the corpus's first line that is not blank (at most kFirstLineCharacters
/// characters).
std::string promptFor(const std::string &prompt, const Corpus &corpus, bool needsToken)
{
    constexpr std::size_t kFirstLineCharacters = 40;
    try {
        const std::u32string text = decodeUtf8(prompt, "prompt");
        if ((!text.empty() || !needsToken)
            && std::all_of(text.begin(), text.end(), [&](char32_t c) { return corpus.vocabulary.contains(c); }))
            return prompt;
    } catch (const std::exception &) { // not UTF-8: replaced like any prompt the corpus cannot write
    }
    std::size_t begin = 0;
    while (begin < corpus.text.size()) {
        const std::size_t end = std::min(corpus.text.find(U'\n', begin), corpus.text.size());
        std::u32string line = corpus.text.substr(begin, end - begin);
        while (!line.empty() && (line.back() == U'\r' || line.back() == U' ' || line.back() == U'\t'))
            line.pop_back();
        if (!line.empty())
            return encodeUtf8(std::u32string_view(line).substr(0, kFirstLineCharacters));
        begin = end + 1;
    }
    return {};
}

} // namespace

SessionController::SessionController(CorpusCatalog catalog, QObject *parent, EngineHost *host)
    : QObject(parent)
    , m_catalog(std::move(catalog))
    , m_host(host)
    , m_gate(new FrameGate(this))
{
    registerMetaTypes();
    if (!m_host) {
        m_ownHost = std::make_unique<EngineHost>();
        m_host = m_ownHost.get();
    }
}

SessionController::~SessionController()
{
    m_host->cancelAndWait(EngineHost::Kind::Session);
}

void SessionController::start(const Setup &setup, Start how)
{
    const bool keep = how == Start::KeepUntilLoaded && m_ready;
    // Another corpus than the last session's: its prompt stays where the new corpus can write it.
    const bool newCorpus = setup.corpus != m_setup.corpus;
    Setup next = setup;
    next.decoding.recordDistributions = true;
    next.threads = windowThreads();
    auto state = std::make_shared<State>();
    m_next.reset();
    m_loadFraction = 0.0;
    if (keep) {
        stop(); // the kept session's rounds in flight: the new setup loads at once
        m_next = state;
        m_nextSetup = next;
    } else {
        m_setup = next;
        m_host->cancel(EngineHost::Kind::Session); // stops the rounds in flight of the old session
        m_history.setKept(m_roundsKept);           // clears the history
        m_pending = 0;
        m_ready = false;
        m_loading = true;
        m_atCap = false;
        m_endOfText = false;
        m_goal = 0;
        m_state = state;
        emit loading(m_setup);
    }
    m_host->post(EngineHost::Kind::Session,
                 [this, state, setup = next, catalog = m_catalog, newCorpus, keep](std::stop_token) mutable {
                     try {
                         if (newCorpus)
                             setup.prompt = promptFor(setup.prompt, catalog.load(setup.corpus),
                                                      neuralModel(setup.target).has_value());
                         const LoadProgress progress = EngineHost::deliverProgress(this, [this, state](double fraction) {
                             onLoadProgress(state, SessionLoadProgress{fraction});
                         });
                         state->experiment = Experiment::load(setup, catalog, true, progress);
                         state->run = std::make_unique<SessionRun>(state->experiment->target(),
                                                                   *state->experiment->draft(), setup.decoding,
                                                                   state->experiment->prompt(), setup.cap);
                         EngineHost::deliver(this, [this, state, info = infoOf(*state->experiment, setup), setup, keep] {
                             if (keep) {
                                 if (state == m_next) {
                                     m_next.reset();
                                     adopt(state, setup, info);
                                 }
                                 return;
                             }
                             if (state != m_state)
                                 return;
                             m_setup.prompt = setup.prompt; // the prompt used (another corpus may have changed it)
                             m_info = info;
                             m_ready = true;
                             m_loading = false;
                             emit ready(m_info);
                         });
                     } catch (const std::exception &e) {
                         state->run.reset();
                         state->experiment.reset();
                         EngineHost::deliver(this, [this, state, message = QString::fromStdString(e.what()), keep] {
                             if (keep) { // the session loaded before stays, as it was
                                 if (state == m_next) {
                                     m_next.reset();
                                     emit failed(message);
                                 }
                                 return;
                             }
                             if (state != m_state)
                                 return;
                             m_pending = 0;
                             m_loading = false;
                             m_ready = false;
                             emit failed(message);
                         });
                     }
                 });
}

void SessionController::onLoadProgress(const std::shared_ptr<State> &state, const SessionLoadProgress &progress)
{
    if (!(state == m_next || (state == m_state && m_loading)))
        return; // a setup replaced since, or loaded
    m_loadFraction = progress.fraction;
    emit loadProgressed(m_loadFraction);
}

void SessionController::adopt(const std::shared_ptr<State> &state, const Setup &setup, const SessionInfo &info)
{
    m_setup = setup;
    m_history.setKept(m_roundsKept); // clears the history
    m_pending = 0;
    m_ready = false;
    m_atCap = false;
    m_endOfText = false;
    m_goal = 0;
    m_state = state;
    emit loading(m_setup);
    m_info = info;
    m_ready = true;
    m_loading = false;
    emit ready(m_info);
}

void SessionController::requestRounds(int count)
{
    if (!m_ready || m_atCap || count <= 0)
        return;
    m_pending += count;
    const std::shared_ptr<State> state = m_state;
    m_host->post(EngineHost::Kind::Session, [this, state, count](std::stop_token stop) {
        RoundsFinished finished;
        finished.requested = count;
        RoundsBatch batch;
        auto sinceEmit = std::chrono::steady_clock::now();
        try {
            for (int i = 0; i < count && !stop.stop_requested(); ++i) {
                m_gate->wait(stop, kFrameLimit);
                if (stop.stop_requested())
                    break;
                std::shared_ptr<const RoundRecord> record = state->run->playRound();
                if (!record)
                    break; // the cap
                batch.rounds.push_back(std::move(record));
                ++finished.played;
                if (std::chrono::steady_clock::now() - sinceEmit >= std::chrono::milliseconds(10)) {
                    m_gate->close();
                    EngineHost::deliver(this,
                                        [this, state, b = std::move(batch)]() mutable { onBatch(state, std::move(b)); });
                    batch = {};
                    sinceEmit = std::chrono::steady_clock::now();
                }
            }
        } catch (const std::exception &e) {
            EngineHost::deliver(this, [this, state, message = QString::fromStdString(e.what())] {
                if (state == m_state) {
                    m_pending = 0;
                    emit failed(message);
                }
            });
        }
        if (!batch.rounds.empty()) {
            m_gate->close(); // the next job's first round waits for it
            EngineHost::deliver(this, [this, state, b = std::move(batch)]() mutable { onBatch(state, std::move(b)); });
        }
        finished.stopped = stop.stop_requested();
        finished.atCap = state->run->atCap();
        finished.endOfText = state->run->endedAtEndOfText();
        finished.generated = state->run->generated();
        EngineHost::deliver(this, [this, state, finished] { onFinished(state, finished); });
    });
}

void SessionController::playTo(int rounds)
{
    if (!m_ready || m_atCap || rounds <= m_history.size() + m_pending)
        return;
    m_goal = rounds;
    requestRounds(rounds - m_history.size() - m_pending);
}

void SessionController::stop()
{
    m_host->cancel(EngineHost::Kind::Session);
    m_pending = 0;
    m_goal = 0;
}

void SessionController::onBatch(const std::shared_ptr<State> &state, RoundsBatch batch)
{
    m_gate->arrived(); // after what this batch makes the window do
    if (state != m_state || batch.rounds.empty())
        return;
    const int first = m_history.size();
    const int count = static_cast<int>(batch.rounds.size());
    m_pending = std::max(0, m_pending - count);
    m_history.append(std::move(batch.rounds)); // keeps memory bounded: old rounds drop their full vectors
    if (m_goal > 0 && m_history.size() >= m_goal)
        m_goal = 0;
    emit roundsAdded(first, count);
}

void SessionController::onFinished(const std::shared_ptr<State> &state, const RoundsFinished &finished)
{
    if (state != m_state)
        return;
    m_pending = std::max(0, m_pending - (finished.requested - finished.played)); // rounds that will not come
    if (finished.atCap && !m_atCap) {
        m_atCap = true;
        m_endOfText = finished.endOfText;
        m_pending = 0;
        m_goal = 0;
        emit capReached(m_setup.cap);
    }
}

} // namespace specdec::gui
