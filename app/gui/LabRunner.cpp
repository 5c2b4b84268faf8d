// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabRunner.h"

#include "LosslessLab.h"
#include "Sampler.h"

#include <QElapsedTimer>

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

} // namespace

LabWorker::LabWorker(std::shared_ptr<std::atomic<int>> current, QObject *parent)
    : QObject(parent)
    , m_current(std::move(current))
{
}

void LabWorker::run(const LabRequest &request, int generation)
{
    try {
        const Eigen::VectorXd p = toEigen(request.p);
        const Eigen::VectorXd q = toEigen(request.q);
        // temperature-target-only: the draft sampled from q (its distribution at temperature 1/2), but the
        // test divides by the draft's distribution before that temperature, norm(q^(1/2)).
        Eigen::VectorXd qTest = q;
        if (request.variant == Variant::TemperatureTargetOnly) {
            SamplerSettings untempered;
            untempered.temperature = 2.0;
            applySampler(untempered, qTest);
        }
        LosslessLab lab(p, q, request.variant, qTest);
        Rng rng(request.seed);
        QElapsedTimer sinceEmit;
        sinceEmit.start();
        while (lab.samples() < request.samples) {
            if (m_current->load() != generation)
                return;
            lab.run(std::min(LabRunner::kChunk, request.samples - lab.samples()), rng);
            const bool finished = lab.samples() >= request.samples;
            if (finished || sinceEmit.elapsed() >= 40) {
                emit progress(snapshotOf(lab, request.samples, finished), generation);
                sinceEmit.restart();
            }
        }
    } catch (const std::exception &e) {
        emit failed(QString::fromStdString(e.what()), generation);
    }
}

LabRunner::LabRunner(QObject *parent)
    : QObject(parent)
    , m_generation(std::make_shared<std::atomic<int>>(0))
{
    qRegisterMetaType<LabRequest>();
    qRegisterMetaType<LabSnapshot>();
    m_worker = new LabWorker(m_generation);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &LabWorker::progress, this, [this](const LabSnapshot &s, int generation) {
        if (generation != m_generation->load())
            return;
        if (s.finished)
            m_running = false;
        emit progress(s);
    });
    connect(m_worker, &LabWorker::failed, this, [this](const QString &message, int generation) {
        if (generation != m_generation->load())
            return;
        m_running = false;
        emit failed(message);
    });
    m_thread.setObjectName(QStringLiteral("specdec-lab"));
    m_thread.start();
}

LabRunner::~LabRunner()
{
    ++*m_generation;
    m_thread.quit();
    m_thread.wait();
}

void LabRunner::start(const LabRequest &request)
{
    const int generation = ++*m_generation;
    m_running = true;
    QMetaObject::invokeMethod(m_worker, "run", Qt::QueuedConnection, Q_ARG(specdec::gui::LabRequest, request),
                              Q_ARG(int, generation));
}

void LabRunner::stop()
{
    ++*m_generation;
    m_running = false;
}

} // namespace specdec::gui

namespace specdec::gui {

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
