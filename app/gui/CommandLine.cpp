#include "CommandLine.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace specdec::gui {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("CommandLine", text);
}
} // namespace

CommandLine parseCommandLine(const QStringList &arguments, const Setup &saved)
{
    CommandLine cl;
    cl.setup = saved;
    QCommandLineParser p;
    p.setApplicationDescription(tr("Speculative decoding lab: run it for real and see every step."));
    p.addHelpOption();
    p.addVersionOption();
    p.addOptions({
        {QStringLiteral("corpus"), tr("Corpus: a built corpus name (kjv, tang-song) or a UTF-8 file."), tr("name|path")},
        {QStringLiteral("target"), tr("Target model spec (ngram:6, onnx:PATH)."), tr("spec")},
        {QStringLiteral("draft"), tr("Draft model spec (ngram:2, uniform, same, onnx:PATH)."), tr("spec")},
        {QStringLiteral("draft-corpus"), tr("Train the draft on another corpus."), tr("name|path")},
        {QStringLiteral("prompt"), tr("Text to continue."), tr("text")},
        {{QStringLiteral("k"), QStringLiteral("draft-length")}, tr("Draft length K (1-64)."), tr("K")},
        {QStringLiteral("temperature"), tr("Target temperature; 0 = greedy."), tr("T")},
        {QStringLiteral("draft-temperature"), tr("Draft temperature (default: the target's)."), tr("T")},
        {QStringLiteral("top-k"), tr("Keep the k most probable tokens (0 = off)."), tr("k")},
        {QStringLiteral("top-p"), tr("Nucleus sampling mass in (0, 1]."), tr("p")},
        {QStringLiteral("seed"), tr("Random seed."), tr("n")},
        {QStringLiteral("screenshot"), tr("Render the window offscreen to FILE (PNG) and exit."), tr("FILE")},
        {QStringLiteral("benchmark-ui"), tr("Play rounds at full speed offscreen and print timing JSON.")},
        {QStringLiteral("rounds"), tr("Rounds to play before the screenshot or in the benchmark."), tr("N")},
        {QStringLiteral("phase"), tr("Phase of the last round in the screenshot: draft, verify, dice, residual, "
                                     "bonus or commit."), tr("NAME")},
        {QStringLiteral("card"), tr("Card whose distributions the screenshot shows (1..K+1)."), tr("N")},
        {QStringLiteral("size"), tr("Window size for --screenshot, e.g. 1600x1000."), tr("WxH")},
        {QStringLiteral("language"), tr("Interface language: en or zh_CN."), tr("code")},
    });
    if (!p.parse(arguments)) {
        cl.error = p.errorText();
        return cl;
    }
    if (p.isSet(QStringLiteral("help")))
        p.showHelp(0);
    if (p.isSet(QStringLiteral("version")))
        p.showVersion();

    auto number = [&](const char *name, double &out) {
        const QString key = QLatin1String(name);
        if (!p.isSet(key))
            return false;
        bool ok = false;
        out = p.value(key).toDouble(&ok);
        if (!ok)
            cl.error = tr("--%1 expects a number, got '%2'").arg(key, p.value(key));
        cl.setupGiven = true;
        return ok;
    };
    auto text = [&](const char *name, std::string &out) {
        if (p.isSet(QLatin1String(name))) {
            out = p.value(QLatin1String(name)).toStdString();
            cl.setupGiven = true;
        }
    };
    Setup &s = cl.setup;
    text("corpus", s.corpus);
    text("target", s.target);
    text("draft", s.draft);
    text("draft-corpus", s.draftCorpus);
    text("prompt", s.prompt);
    double v = 0;
    if (number("k", v))
        s.decoding.draftLength = static_cast<int>(v);
    const double previousTemperature = s.decoding.target.temperature;
    if (number("temperature", v))
        s.decoding.target.temperature = v;
    if (number("top-k", v))
        s.decoding.target.topK = static_cast<int>(v);
    if (number("top-p", v))
        s.decoding.target.topP = v;
    const double draftTemperature = s.decoding.draft.temperature == previousTemperature
                                        ? s.decoding.target.temperature
                                        : s.decoding.draft.temperature;
    s.decoding.draft = s.decoding.target;
    s.decoding.draft.temperature = draftTemperature;
    if (number("draft-temperature", v))
        s.decoding.draft.temperature = v;
    if (number("seed", v))
        s.decoding.seed = static_cast<std::uint64_t>(v);
    s.decoding.recordDistributions = true;

    cl.screenshot = p.value(QStringLiteral("screenshot"));
    cl.benchmark = p.isSet(QStringLiteral("benchmark-ui"));
    if (p.isSet(QStringLiteral("rounds")))
        cl.rounds = p.value(QStringLiteral("rounds")).toInt();
    if (p.isSet(QStringLiteral("phase"))) {
        cl.phase = phaseFromKey(p.value(QStringLiteral("phase")));
        if (!cl.phase)
            cl.error = tr("--phase must be draft, verify, dice, residual, bonus or commit, got '%1'")
                           .arg(p.value(QStringLiteral("phase")));
    }
    if (p.isSet(QStringLiteral("card")))
        cl.card = p.value(QStringLiteral("card")).toInt() - 1;
    if (p.isSet(QStringLiteral("size"))) {
        const QStringList wh = p.value(QStringLiteral("size")).split(QLatin1Char('x'));
        if (wh.size() == 2)
            cl.size = QSize(wh[0].toInt(), wh[1].toInt());
        if (!cl.size.isValid() || cl.size.isEmpty())
            cl.error = tr("--size expects WxH, e.g. 1600x1000");
    }
    cl.language = p.value(QStringLiteral("language"));
    try {
        s.validate();
    } catch (const std::exception &e) {
        cl.error = QString::fromStdString(e.what());
    }
    return cl;
}

} // namespace specdec::gui
