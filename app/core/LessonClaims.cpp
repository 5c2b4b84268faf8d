// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonClaims.h"

#include "Error.h"
#include "Generation.h"
#include "Metrics.h"
#include "ModelFiles.h"
#include "Theory.h"

#include <QFileInfo>
#include <QMap>
#include <QRegularExpression>

namespace specdec::app {

namespace {

[[noreturn]] void bad(const QString &text, const QString &why)
{
    throw Error(QString(QStringLiteral("claim \"") + text + QStringLiteral("\": ") + why).toStdString());
}

const QStringList kMetrics{QStringLiteral("alpha"), QStringLiteral("tokens_per_round"), QStringLiteral("speedup_passes"),
                           QStringLiteral("speedup_cost"), QStringLiteral("same_text")};

ClaimTerm parseTerm(const QString &claim, const QString &raw)
{
    const QString t = raw.trimmed();
    ClaimTerm term;
    bool ok = false;
    term.value = t.toDouble(&ok);
    if (ok)
        return term;
    static const QRegularExpression call(QStringLiteral("^([a-z_]+)\\((.*)\\)$"));
    const auto m = call.match(t);
    if (!m.hasMatch())
        bad(claim, QStringLiteral("'%1' is neither a number nor name(argument)").arg(t));
    const QString name = m.captured(1);
    const QString inside = m.captured(2).trimmed();
    if (kMetrics.contains(name)) {
        if (inside.isEmpty())
            bad(claim, QStringLiteral("%1() needs a lane").arg(name));
        term.kind = ClaimTerm::Kind::Metric;
        term.metric = name;
        term.lane = inside;
        return term;
    }
    const int wanted = name == QLatin1String("expected_tokens") ? 2
        : name == QLatin1String("cost_speedup")                 ? 3
        : name == QLatin1String("generalised_speedup")          ? 4
                                                                : -1;
    if (wanted < 0)
        bad(claim,
            QStringLiteral("unknown function '%1' (known: %2, expected_tokens, cost_speedup, "
                           "generalised_speedup)")
                .arg(name, kMetrics.join(QStringLiteral(", "))));
    term.kind = wanted == 2 ? ClaimTerm::Kind::ExpectedTokens
        : wanted == 3       ? ClaimTerm::Kind::CostSpeedup
                            : ClaimTerm::Kind::GeneralisedSpeedup;
    for (const QString &a : inside.split(QLatin1Char(','))) {
        const double v = a.trimmed().toDouble(&ok);
        if (!ok)
            bad(claim, QStringLiteral("%1: '%2' is not a number").arg(name, a.trimmed()));
        term.arguments << v;
    }
    if (term.arguments.size() != wanted)
        bad(claim, QStringLiteral("%1 takes %2 numbers").arg(name).arg(wanted));
    return term;
}

double theoryValue(const ClaimTerm &t)
{
    const double a = t.arguments[0];
    const int k = static_cast<int>(t.arguments[1]);
    switch (t.kind) {
    case ClaimTerm::Kind::ExpectedTokens: return theory::expectedTokensPerRound(a, k);
    case ClaimTerm::Kind::GeneralisedSpeedup: return theory::generalisedSpeedup(a, k, t.arguments[2], t.arguments[3]);
    default: return theory::costModelSpeedup(a, k, t.arguments[2]);
    }
}

/// Whether `name` names the lane `spec` ("spec [policy]" in the arena): the spec, an ONNX file's stem or a model
/// folder's name.
bool names(const QString &name, const QString &lane)
{
    const QString spec = lane.section(QLatin1Char(' '), 0, 0);
    if (name == spec || name == lane)
        return true;
    const auto model = neuralModel(spec.toStdString());
    if (!model)
        return false;
    return model->folder ? QString::fromStdString(model->folderName()) == name
                         : QFileInfo(QString::fromStdString(model->path)).completeBaseName() == name;
}

} // namespace

QString laneNamed(const QString &name, const QStringList &lanes)
{
    for (const QString &lane : lanes)
        if (names(name, lane))
            return lane;
    return {};
}

QStringList demonstrationLanes(const Demonstration &demo)
{
    QStringList lanes;
    if (demo.setup)
        lanes << QString::fromStdString(demo.setup->draft);
    return lanes << demo.arenaLanes;
}

Claim Claim::parse(const QString &text)
{
    static const QRegularExpression split(QStringLiteral("^(.*?)\\s*(<=|>=|<|>)\\s*(.*)$"));
    const auto m = split.match(text.trimmed());
    if (!m.hasMatch())
        bad(text, QStringLiteral("needs one comparison: <, <=, > or >="));
    Claim c;
    c.text = text;
    c.left = parseTerm(text, m.captured(1));
    c.op = m.captured(2);
    c.right = parseTerm(text, m.captured(3));
    return c;
}

bool Claim::holds(double l, double r) const
{
    if (op == QLatin1String("<"))
        return l < r;
    if (op == QLatin1String("<="))
        return l <= r;
    if (op == QLatin1String(">"))
        return l > r;
    return l >= r;
}

QString resolveModelSpec(const QString &spec, const QStringList &onnxFiles)
{
    // Only shipped ONNX files (onnx:corpora/…) are resolved; a model folder is named as the lesson wrote it.
    const QString head = spec.section(QLatin1Char(' '), 0, 0);
    const auto model = neuralModel(head.toStdString());
    const QString prefix = QStringLiteral("corpora/");
    const QString path = model ? QString::fromStdString(model->path) : QString();
    if (!model || model->folder || !path.startsWith(prefix))
        return spec;
    const QString rest = spec.mid(head.size());
    const QString tail = path.mid(prefix.size());
    for (const QString &file : onnxFiles)
        if (file.endsWith(QLatin1Char('/') + tail))
            return QStringLiteral("onnx:") + file + rest;
    return spec;
}

Demonstration resolvedDemonstration(Demonstration demo, const QStringList &onnxFiles)
{
    if (demo.setup) {
        demo.setup->target = resolveModelSpec(QString::fromStdString(demo.setup->target), onnxFiles).toStdString();
        demo.setup->draft = resolveModelSpec(QString::fromStdString(demo.setup->draft), onnxFiles).toStdString();
    }
    for (QString &lane : demo.arenaLanes)
        lane = resolveModelSpec(lane, onnxFiles);
    return demo;
}

QList<ClaimResult> checkClaims(const LessonFile &lesson, const CorpusCatalog &catalog, const QStringList &onnxFiles)
{
    const auto fail = [&](const QString &why) {
        throw Error(QString(QStringLiteral("lesson file ") + lesson.path + QStringLiteral(": ") + why).toStdString());
    };
    QList<Claim> claims;
    bool needsRun = false;
    for (const QString &text : lesson.claims) {
        claims << Claim::parse(text);
        needsRun = needsRun || claims.back().left.kind == ClaimTerm::Kind::Metric
            || claims.back().right.kind == ClaimTerm::Kind::Metric;
    }
    const Demonstration demo = resolvedDemonstration(lesson.demo, onnxFiles);
    if (needsRun && !demo.setup)
        fail(QStringLiteral("its claims name a run but it has no setup"));
    const QStringList lanes = demonstrationLanes(demo);

    std::unique_ptr<Experiment> experiment;
    std::optional<std::vector<TokenId>> baseline;
    QMap<QString, std::pair<RunMetrics, std::vector<TokenId>>> runs; // by lane
    auto laneOf = [&](const ClaimTerm &t) {
        const QString lane = laneNamed(t.lane, lanes);
        if (lane.isEmpty())
            fail(QStringLiteral("claim names lane '%1', which is not one of its drafts (%2)")
                     .arg(t.lane, lanes.join(QStringLiteral(", "))));
        return lane;
    };
    auto value = [&](const ClaimTerm &t) -> double {
        if (t.kind == ClaimTerm::Kind::Number)
            return t.value;
        if (t.kind != ClaimTerm::Kind::Metric)
            return theoryValue(t);
        const QString lane = laneOf(t);
        const Setup &setup = *demo.setup;
        if (!experiment)
            experiment = Experiment::load(setup, catalog, false);
        if (!runs.contains(lane)) {
            Setup laneSetup = setup;
            // "spec [policy] [tree:3,2,1]": an arena lane is a chain unless it names a tree; the setup's own
            // draft (the first lane) keeps the setup's tree.
            if (lane != lanes.first())
                laneSetup.decoding.tree = {};
            const QStringList words = lane.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            for (int i = 1; i < words.size(); ++i) {
                if (words[i].startsWith(QLatin1String("tree:")))
                    laneSetup.decoding.tree = TreeShape::parse(words[i].mid(5).toStdString());
                else
                    laneSetup.decoding.policy = DraftPolicy::parse(words[i].toStdString());
            }
            laneSetup.decoding.recordDistributions = false;
            auto draft = experiment->makeDraft(words.value(0).toStdString(), setup.draftCorpus);
            // with its baseline alongside, as the window's lanes: c (and the cost-model speedup) needs its steps
            const Generation g = generateSpeculative(experiment->target(), *draft, laneSetup.decoding,
                                                     experiment->prompt(), setup.tokens, {}, true);
            // A tree run is measured on its accepted paths, as every run (RunReport): alpha-hat per depth.
            runs.insert(lane, {g.report.metrics, g.tokens});
        }
        const auto &[m, tokens] = runs[lane];
        if (t.metric == QLatin1String("alpha"))
            return m.acceptanceRate;
        if (t.metric == QLatin1String("tokens_per_round"))
            return m.tokensPerRound;
        if (t.metric == QLatin1String("speedup_passes"))
            return m.speedupForwardPasses;
        if (t.metric == QLatin1String("speedup_cost"))
            return m.speedupCostModel;
        if (!baseline)
            baseline = generateAutoregressive(experiment->target(), setup.decoding.target, setup.decoding.seed,
                                              experiment->prompt(), setup.tokens)
                           .tokens;
        return tokens == *baseline ? 1.0 : 0.0;
    };
    QList<ClaimResult> results;
    for (const Claim &c : claims) {
        ClaimResult r;
        r.claim = c.text;
        r.left = value(c.left);
        r.right = value(c.right);
        r.holds = c.holds(r.left, r.right);
        results << r;
    }
    return results;
}

} // namespace specdec::app
