// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonFile.h"

#include "Error.h"
#include "LessonClaims.h"

#include <QDir>

#include <algorithm>
#include <cmath>

namespace specdec::app {

namespace {

const QString kFormat = QStringLiteral("specdec-lab lesson");

QString fromStd(const std::string &s)
{
    return QString::fromStdString(s);
}

Setup parseSetup(const JsonFields &f, const QJsonObject &s, const QString &at)
{
    f.onlyKeys(s, at,
               {QStringLiteral("corpus"), QStringLiteral("target"), QStringLiteral("draft"),
                QStringLiteral("draft_corpus"), QStringLiteral("prompt"), QStringLiteral("tokens"), QStringLiteral("k"),
                QStringLiteral("policy"), QStringLiteral("temperature"), QStringLiteral("draft_temperature"),
                QStringLiteral("top_k"), QStringLiteral("top_p"), QStringLiteral("seed"), QStringLiteral("tree")});
    Setup setup;
    setup.corpus = f.string(s, at, "corpus").toStdString();
    setup.target = f.string(s, at, "target").toStdString();
    setup.draft = f.string(s, at, "draft").toStdString();
    setup.draftCorpus = f.optionalString(s, at, "draft_corpus", {}).toStdString();
    setup.prompt = f.optionalString(s, at, "prompt", {}).toStdString();
    setup.tokens = f.optionalInteger(s, at, "tokens", 1, 100000, 200);
    DecodingSettings &d = setup.decoding;
    d.draftLength = f.integer(s, at, "k", 1, 64);
    d.target.temperature = f.number(s, at, "temperature", 0, 100);
    d.draft.temperature = f.optionalNumber(s, at, "draft_temperature", 0, 100, d.target.temperature);
    d.target.topK = d.draft.topK = f.optionalInteger(s, at, "top_k", 0, 1000000, 0);
    d.target.topP = d.draft.topP = f.optionalNumber(s, at, "top_p", 1e-9, 1, 1);
    d.seed = static_cast<std::uint64_t>(f.integer(s, at, "seed", 0, 2000000000));
    d.recordDistributions = true;
    auto check = [&](const char *key, auto &&what) {
        try {
            what();
        } catch (const Error &e) {
            f.fail(JsonFields::join(at, QLatin1String(key)), fromStd(e.what()));
        }
    };
    check("policy", [&] {
        d.policy = DraftPolicy::parse(f.optionalString(s, at, "policy", QStringLiteral("constant")).toStdString());
    });
    check("tree", [&] {
        const QString tree = f.optionalString(s, at, "tree", {}).trimmed();
        if (!tree.isEmpty())
            d.tree = TreeShape::parse(tree.toStdString());
    });
    check("target", [&] { ModelSpec::parse(setup.target); });
    check("draft", [&] { ModelSpec::parse(setup.draft); });
    check("k", [&] { setup.validate(); });
    return setup;
}

LabDemo parseLab(const JsonFields &f, const QJsonObject &o, const QString &at)
{
    f.onlyKeys(o, at,
               {QStringLiteral("variant"), QStringLiteral("p"), QStringLiteral("q"), QStringLiteral("labels"),
                QStringLiteral("from_models"), QStringLiteral("samples")});
    LabDemo lab;
    const QString variant = f.optionalString(o, at, "variant", QStringLiteral("correct"));
    const auto v = variantFromName(variant.toStdString());
    if (!v)
        f.fail(JsonFields::join(at, QStringLiteral("variant")), QStringLiteral("is not a rule: '%1'").arg(variant));
    lab.variant = *v;
    lab.fromModels = o.value(QStringLiteral("from_models")).toBool(false);
    lab.samples = f.optionalInteger(o, at, "samples", 0, 10000000, 0);
    if (o.contains(QStringLiteral("p")) || o.contains(QStringLiteral("q"))) {
        auto bars = [&](const char *key) {
            const QJsonArray a = f.array(o, at, key, 2, 12);
            QVector<double> out;
            double sum = 0;
            for (int i = 0; i < a.size(); ++i) {
                if (!a[i].isDouble() || a[i].toDouble() < 0)
                    f.fail(QStringLiteral("%1[%2]").arg(JsonFields::join(at, QLatin1String(key))).arg(i),
                           QStringLiteral("must be a number >= 0"));
                out << a[i].toDouble();
                sum += a[i].toDouble();
            }
            if (sum <= 0)
                f.fail(JsonFields::join(at, QLatin1String(key)), QStringLiteral("must not be all zero"));
            if (!std::isfinite(sum)) // [1e308, 1e308] sums to inf and showed 0.00 / 0.00
                f.fail(JsonFields::join(at, QLatin1String(key)), QStringLiteral("must sum to a finite number"));
            return out;
        };
        lab.p = bars("p");
        lab.q = bars("q");
        lab.labels = f.strings(o, at, "labels", 2, 12);
        if (lab.q.size() != lab.p.size() || lab.labels.size() != lab.p.size())
            f.fail(JsonFields::join(at, QStringLiteral("labels")),
                   QStringLiteral("p, q and labels must have the same length (%1, %2, %3)")
                       .arg(lab.p.size())
                       .arg(lab.q.size())
                       .arg(lab.labels.size()));
    }
    return lab;
}

} // namespace

QStringList demonstrationPhases()
{
    return {QStringLiteral("draft"),    QStringLiteral("verify"), QStringLiteral("dice"),
            QStringLiteral("residual"), QStringLiteral("bonus"),  QStringLiteral("commit")};
}

Demonstration parseDemonstration(const JsonFields &f, const QJsonObject &o, const QString &at)
{
    f.onlyKeys(o, at,
               {QStringLiteral("setup"), QStringLiteral("open"), QStringLiteral("arena"), QStringLiteral("lab"),
                QStringLiteral("theory"), QStringLiteral("rounds"), QStringLiteral("phase")});
    Demonstration demo;
    const QStringList tools{QStringLiteral("window"), QStringLiteral("arena"), QStringLiteral("lab"),
                            QStringLiteral("theory")};
    demo.open = f.strings(o, at, "open", 1, 4);
    for (int i = 0; i < demo.open.size(); ++i)
        if (!tools.contains(demo.open[i]))
            f.fail(QStringLiteral("%1[%2]").arg(JsonFields::join(at, QStringLiteral("open"))).arg(i),
                   QStringLiteral("must be one of window, arena, lab, theory; got '%1'").arg(demo.open[i]));
    if (o.contains(QStringLiteral("setup")))
        demo.setup = parseSetup(f, f.object(o, at, "setup"), JsonFields::join(at, QStringLiteral("setup")));
    if ((demo.opens("window") || demo.opens("arena")) && !demo.setup)
        f.fail(JsonFields::join(at, QStringLiteral("setup")),
               QStringLiteral("is missing (the window and the arena need a run)"));
    if (demo.opens("arena")) {
        demo.arenaLanes = f.strings(o, at, "arena", 2, 6);
        for (int i = 0; i < demo.arenaLanes.size(); ++i) {
            try {
                ModelSpec::parse(demo.arenaLanes[i].section(QLatin1Char(' '), 0, 0).toStdString());
            } catch (const Error &e) {
                f.fail(QStringLiteral("%1[%2]").arg(JsonFields::join(at, QStringLiteral("arena"))).arg(i),
                       fromStd(e.what()));
            }
        }
    } else if (o.contains(QStringLiteral("arena"))) {
        f.fail(JsonFields::join(at, QStringLiteral("arena")), QStringLiteral("is given but \"open\" has no \"arena\""));
    }
    if (o.contains(QStringLiteral("lab")))
        demo.lab = parseLab(f, f.object(o, at, "lab"), JsonFields::join(at, QStringLiteral("lab")));
    else if (demo.opens("lab"))
        demo.lab = LabDemo{};
    if (o.contains(QStringLiteral("theory"))) {
        const QString t = JsonFields::join(at, QStringLiteral("theory"));
        const QJsonObject th = f.object(o, at, "theory");
        f.onlyKeys(th, t, {QStringLiteral("alpha"), QStringLiteral("k"), QStringLiteral("c")});
        demo.theory = TheoryDemo{f.number(th, t, "alpha", 0, 0.99), f.integer(th, t, "k", 1, 16),
                                 f.number(th, t, "c", 0, 1)};
    } else if (demo.opens("theory")) {
        demo.theory = TheoryDemo{};
    }
    demo.rounds = f.optionalInteger(o, at, "rounds", 0, 10000, 0);
    demo.phase = f.optionalString(o, at, "phase", {});
    if (!demo.phase.isEmpty() && !demonstrationPhases().contains(demo.phase))
        f.fail(JsonFields::join(at, QStringLiteral("phase")),
               QStringLiteral("must be one of %1; got '%2'")
                   .arg(demonstrationPhases().join(QStringLiteral(", ")), demo.phase));
    return demo;
}

namespace {

LessonFile fromObject(const JsonFields &f, const QJsonObject &root, const QString &path)
{
    f.onlyKeys(root, {},
               {QStringLiteral("format"), QStringLiteral("version"), QStringLiteral("id"), QStringLiteral("order"),
                QStringLiteral("title"), QStringLiteral("summary"), QStringLiteral("steps"), QStringLiteral("demo"),
                QStringLiteral("claims")});
    if (f.string(root, {}, "format") != kFormat)
        f.fail(QStringLiteral("format"), QStringLiteral("must be \"%1\"").arg(kFormat));
    const int version = f.integer(root, {}, "version", 0, 1000);
    if (version != LessonFile::kVersion)
        f.fail(QStringLiteral("version"),
               QStringLiteral("%1 is not supported (this build reads version %2)").arg(version).arg(LessonFile::kVersion));
    LessonFile lesson;
    lesson.path = path;
    lesson.id = f.string(root, {}, "id");
    if (lesson.id.isEmpty() || lesson.id.contains(QLatin1Char(' ')))
        f.fail(QStringLiteral("id"), QStringLiteral("must be a non-empty word (letters, digits, '-')"));
    lesson.order = f.optionalInteger(root, {}, "order", 0, 10000, 1000);
    lesson.title = f.localized(root, {}, "title");
    lesson.summary = f.localized(root, {}, "summary");
    const QJsonArray steps = f.array(root, {}, "steps", 1, 40);
    for (int i = 0; i < steps.size(); ++i)
        lesson.steps << f.localized(steps[i], QStringLiteral("steps[%1]").arg(i));
    lesson.demo = parseDemonstration(f, f.object(root, {}, "demo"), QStringLiteral("demo"));
    if (root.contains(QStringLiteral("claims")))
        lesson.claims = f.strings(root, {}, "claims", 0, 40);
    const QStringList lanes = demonstrationLanes(lesson.demo);
    for (int i = 0; i < lesson.claims.size(); ++i) {
        const QString field = QStringLiteral("claims[%1]").arg(i);
        try {
            const Claim claim = Claim::parse(lesson.claims[i]);
            for (const ClaimTerm *t : {&claim.left, &claim.right})
                if (t->kind == ClaimTerm::Kind::Metric && laneNamed(t->lane, lanes).isEmpty())
                    f.fail(field,
                           QStringLiteral("names lane '%1', which is not one of the lesson's drafts (%2)")
                               .arg(t->lane, lanes.join(QStringLiteral(", "))));
        } catch (const Error &e) {
            if (QString::fromUtf8(e.what()).startsWith(QLatin1String("lesson file")))
                throw;
            f.fail(field, fromStd(e.what()));
        }
    }
    return lesson;
}

} // namespace

LessonFile LessonFile::load(const QString &path)
{
    const JsonFields f(QStringLiteral("lesson file"), path);
    return fromObject(f, f.readFile(path, kMaxBytes), path);
}

LessonFile LessonFile::parse(const QByteArray &bytes, const QString &name)
{
    const JsonFields f(QStringLiteral("lesson file"), name);
    if (bytes.size() > kMaxBytes)
        f.fail({}, QStringLiteral("is %1 bytes; at most %2 are read").arg(bytes.size()).arg(kMaxBytes));
    return fromObject(f, f.parse(bytes), name);
}

QList<LessonFile> loadLessonFolder(const QString &folder, QStringList *errors)
{
    QList<LessonFile> lessons;
    const QDir dir(folder);
    const QStringList files = dir.entryList({QStringLiteral("*.lesson.json")}, QDir::Files, QDir::Name);
    for (const QString &name : files.mid(0, 200)) {
        try {
            lessons << LessonFile::load(dir.filePath(name));
        } catch (const Error &e) {
            if (errors)
                *errors << fromStd(e.what());
        }
    }
    std::stable_sort(lessons.begin(), lessons.end(), [](const LessonFile &a, const LessonFile &b) {
        return a.order != b.order ? a.order < b.order : a.id < b.id;
    });
    return lessons;
}

} // namespace specdec::app
