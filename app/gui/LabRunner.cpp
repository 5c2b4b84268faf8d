// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabRunner.h"

#include "EngineHost.h"

#include "CandidatesLab.h"
#include "LosslessLab.h"
#include "TestedDistribution.h"

#include <chrono>

namespace specdec::gui {

namespace {

Eigen::VectorXd toEigen(const QVector<double> &v)
{
    Eigen::VectorXd e(v.size());
    for (int i = 0; i < v.size(); ++i)
        e[i] = v[i];
    return e;
}

LabSnapshot snapshotOf(const LosslessLab &lab, std::int64_t wanted, bool finished)
{
    LabSnapshot s;
    s.samples = lab.samples();
    s.wanted = wanted;
    s.counts = lab.counts();
    s.accepted = lab.acceptedCounts();
    s.replaced = lab.replacedCounts();
    s.chi = lab.test();
    s.totalVariation = lab.totalVariation();
    s.finished = finished;
    return s;
}

LabSnapshot snapshotOf(const CandidatesLab &lab, std::int64_t wanted, bool finished)
{
    LabSnapshot s;
    s.samples = lab.samples();
    s.wanted = wanted;
    s.counts = lab.counts();
    s.accepted.assign(s.counts.size(), 0);
    for (int j = 0; j < lab.k(); ++j) {
        s.byCandidate.push_back(lab.acceptedCounts(j));
        for (std::size_t x = 0; x < s.accepted.size(); ++x)
            s.accepted[x] += s.byCandidate.back()[x];
    }
    s.replaced = lab.correctionCounts();
    s.chi = lab.test();
    s.totalVariation = lab.totalVariation();
    s.measuredAcceptance = lab.measuredAcceptance();
    s.acceptanceHalfWidth = lab.acceptanceHalfWidth();
    s.exactAcceptance = lab.exactAcceptance();
    s.finished = finished;
    return s;
}

/// Runs `lab` in chunks until `wanted` samples or a stop, delivering snapshots every 40 ms and at the end.
template<typename Lab, typename Deliver>
void runChunks(Lab &lab, std::int64_t wanted, Rng &rng, const std::stop_token &stop, const Deliver &deliver)
{
    auto sinceEmit = std::chrono::steady_clock::now();
    while (lab.samples() < wanted && !stop.stop_requested()) {
        lab.run(std::min(LabRunner::kChunk, wanted - lab.samples()), rng);
        const bool finished = lab.samples() >= wanted;
        if (finished || std::chrono::steady_clock::now() - sinceEmit >= std::chrono::milliseconds(40)) {
            deliver(snapshotOf(lab, wanted, finished));
            sinceEmit = std::chrono::steady_clock::now();
        }
    }
}

} // namespace

LabRunner::LabRunner(QObject *parent, EngineHost *host)
    : QObject(parent)
    , m_host(host)
{
    qRegisterMetaType<LabRequest>();
    qRegisterMetaType<LabSnapshot>();
    if (!m_host) {
        m_ownHost = std::make_unique<EngineHost>();
        m_host = m_ownHost.get();
    }
}

LabRunner::~LabRunner()
{
    m_host->cancelAndWait(EngineHost::Kind::Lab);
}

void LabRunner::start(const LabRequest &request)
{
    m_host->cancel(EngineHost::Kind::Lab);
    const int run = ++m_run;
    m_running = true;
    m_host->post(EngineHost::Kind::Lab, [this, run, request](std::stop_token stop) {
        try {
            const Eigen::VectorXd p = toEigen(request.p);
            const Eigen::VectorXd q = toEigen(request.q);
            const auto deliver = [this, run](LabSnapshot s) {
                EngineHost::deliver(this, [this, run, s = std::move(s)] {
                    if (run != m_run)
                        return;
                    if (s.finished)
                        m_running = false;
                    emit progress(s);
                });
            };
            if (request.candidates > 1) { // one step of a token tree: k candidates (CandidatesLab)
                CandidatesLab lab(p, q, request.candidates, request.treeVariant);
                Rng rng(request.seed);
                runChunks(lab, request.samples, rng, stop, deliver);
                return;
            }
            LosslessLab lab(p, q, request.variant, labTestedDistribution(request.variant, q));
            Rng rng(request.seed);
            runChunks(lab, request.samples, rng, stop, deliver);
        } catch (const std::exception &e) {
            EngineHost::deliver(this, [this, run, message = QString::fromStdString(e.what())] {
                if (run != m_run)
                    return;
                m_running = false;
                emit failed(message);
            });
        }
    });
}

void LabRunner::stop()
{
    m_host->cancel(EngineHost::Kind::Lab);
    ++m_run;
    m_running = false;
}

void connectLab(LosslessLabView *view, LabRunner *runner)
{
    QObject::connect(view, &LosslessLabView::runRequested, runner, &LabRunner::start);
    QObject::connect(runner, &LabRunner::progress, view, &LosslessLabView::showSnapshot);
    QObject::connect(view, &LosslessLabView::stopRequested, runner, [view, runner] {
        runner->stop();
        LabSnapshot s = view->snapshot();
        s.finished = true;
        view->showSnapshot(s);
    });
}

} // namespace specdec::gui
