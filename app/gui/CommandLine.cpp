// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLine.h"

#include "AppPaths.h"
#include "LessonClaims.h"

#include <QCommandLineParser>
#include <QCoreApplication>

namespace specdec::gui {

CommandLine parseCommandLine(const QStringList &given, const Setup &saved)
{
    CommandLine cl;
    cl.setup = saved;
    // --quiz takes an optional question number, which QCommandLineParser cannot express: take it out here.
    QStringList arguments;
    for (int i = 0; i < given.size(); ++i) {
        const QString &a = given[i];
        if (a == QLatin1String("--quiz") || a.startsWith(QLatin1String("--quiz="))) {
            QString value = a.mid(7);
            bool ok = true;
            if (value.isEmpty() && i + 1 < given.size()) {
                given[i + 1].toInt(&ok);
                if (ok)
                    value = given[++i];
            }
            cl.quiz = value.isEmpty() ? 0 : value.toInt(&ok) - 1;
            if (!ok || cl.quiz < 0) {
                cl.error = QCoreApplication::translate("CommandLine", "--quiz expects a question number from 1, got '%1'")
                               .arg(value);
                return cl;
            }
            continue;
        }
        arguments << a;
    }
    QCommandLineParser p;
    p.setApplicationDescription(
        QCoreApplication::translate("CommandLine", "Speculative decoding lab: run it for real and see every step."));
    p.addHelpOption();
    p.addVersionOption();
    p.addOptions({
        {QStringLiteral("corpus"),
         QCoreApplication::translate("CommandLine", "Corpus: a built corpus name (kjv, tang-song) or a UTF-8 file."),
         QCoreApplication::translate("CommandLine", "name|path")},
        {QStringLiteral("tokenizer"),
         QCoreApplication::translate("CommandLine",
                                     "Tokenizer shared by target and draft: chars (characters) or a tokenizer.json."),
         QCoreApplication::translate("CommandLine", "chars|path")},
        {QStringLiteral("target"),
         QCoreApplication::translate("CommandLine", "Target model spec (ngram:6, onnx:PATH, hf:FOLDER)."),
         QCoreApplication::translate("CommandLine", "spec")},
        {QStringLiteral("draft"),
         QCoreApplication::translate("CommandLine", "Draft model spec (ngram:2, uniform, same, onnx:PATH, hf:FOLDER)."),
         QCoreApplication::translate("CommandLine", "spec")},
        {QStringLiteral("draft-corpus"), QCoreApplication::translate("CommandLine", "Train the draft on another corpus."),
         QCoreApplication::translate("CommandLine", "name|path")},
        {QStringLiteral("prompt"), QCoreApplication::translate("CommandLine", "Text to continue."),
         QCoreApplication::translate("CommandLine", "text")},
        {{QStringLiteral("k"), QStringLiteral("draft-length")},
         QCoreApplication::translate("CommandLine", "Draft length K (1-64)."),
         QCoreApplication::translate("CommandLine", "K")},
        {QStringLiteral("tree"),
         QCoreApplication::translate("CommandLine", "Token tree: children per depth, e.g. 3,2,1 (default: a chain of K)."),
         QCoreApplication::translate("CommandLine", "shape")},
        {QStringLiteral("temperature"), QCoreApplication::translate("CommandLine", "Target temperature; 0 = greedy."),
         QCoreApplication::translate("CommandLine", "T")},
        {QStringLiteral("draft-temperature"),
         QCoreApplication::translate("CommandLine", "Draft temperature (default: the target's)."),
         QCoreApplication::translate("CommandLine", "T")},
        {QStringLiteral("top-k"), QCoreApplication::translate("CommandLine", "Keep the k most probable tokens (0 = off)."),
         QCoreApplication::translate("CommandLine", "k")},
        {QStringLiteral("top-p"), QCoreApplication::translate("CommandLine", "Nucleus sampling mass in (0, 1]."),
         QCoreApplication::translate("CommandLine", "p")},
        {QStringLiteral("seed"), QCoreApplication::translate("CommandLine", "Random seed."),
         QCoreApplication::translate("CommandLine", "n")},
        {QStringLiteral("screenshot"),
         QCoreApplication::translate("CommandLine", "Render the window offscreen to FILE (PNG) and exit."),
         QCoreApplication::translate("CommandLine", "FILE")},
        {QStringLiteral("handout"),
         QCoreApplication::translate("CommandLine", "Write the handout of the round shown to FILE (PDF) and exit."),
         QCoreApplication::translate("CommandLine", "FILE")},
        {QStringLiteral("quiz-sheet"),
         QCoreApplication::translate("CommandLine",
                                     "Write the quiz sheet (questions, then answers) to FILE (PDF) and exit."),
         QCoreApplication::translate("CommandLine", "FILE")},
        {QStringLiteral("benchmark-ui"),
         QCoreApplication::translate("CommandLine", "Play rounds at full speed offscreen and print timing JSON.")},
        {QStringLiteral("rounds"),
         QCoreApplication::translate("CommandLine", "Rounds to play before the screenshot or in the benchmark."),
         QCoreApplication::translate("CommandLine", "N")},
        {QStringLiteral("rss-at"),
         QCoreApplication::translate(
             "CommandLine", "The benchmark reports resident memory after N rounds and at the end over it (default 20000)."),
         QCoreApplication::translate("CommandLine", "N")},
        {QStringLiteral("phase"),
         QCoreApplication::translate("CommandLine",
                                     "Phase of the last round in the screenshot: draft, verify, dice, residual, "
                                     "bonus or commit."),
         QCoreApplication::translate("CommandLine", "NAME")},
        {QStringLiteral("card"),
         QCoreApplication::translate("CommandLine", "Card whose distributions the screenshot shows (1..K+1)."),
         QCoreApplication::translate("CommandLine", "N")},
        {QStringLiteral("size"),
         QCoreApplication::translate("CommandLine", "Window size for --screenshot, e.g. 1600x1000."),
         QCoreApplication::translate("CommandLine", "WxH")},
        {QStringLiteral("language"), QCoreApplication::translate("CommandLine", "Interface language: en or zh_CN."),
         QCoreApplication::translate("CommandLine", "code")},
        {QStringLiteral("lesson"),
         QCoreApplication::translate("CommandLine", "Open a lesson file (see docs/lessons.md) and run its setup."),
         QCoreApplication::translate("CommandLine", "FILE")},
        {QStringLiteral("quiz"), QCoreApplication::translate("CommandLine", "Open the quiz, at question N (default 1).")},
        {QStringLiteral("presenter"),
         QCoreApplication::translate("CommandLine",
                                     "Start in presenter mode (large text, one stage at a time; F5 or Esc leaves).")},
        {QStringLiteral("stage"),
         QCoreApplication::translate(
             "CommandLine",
             "With --presenter: the stage shown first: round, distributions, plots (the live plots), numbers (the "
             "theory panel), lab, arena, theory (the theory explorer), quiz or race."),
         QCoreApplication::translate("CommandLine", "NAME")},
        {QStringLiteral("predict"),
         QCoreApplication::translate("CommandLine",
                                     "Predict before reveal: each verdict of the dice waits for → (P toggles it).")},
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
            cl.error = QCoreApplication::translate("CommandLine", "--%1 expects a number, got '%2'").arg(key, p.value(key));
        cl.setupGiven = true;
        return ok;
    };
    // Whole numbers as the CLI reads them (app/cli/CliOptions.cpp): "4.7", "1e300", "abc" are errors, and a
    // value outside [low, high] is a range error naming the text given.
    auto integer = [&](const char *name, std::int64_t low, std::int64_t high, std::int64_t &out) {
        const QString key = QLatin1String(name);
        if (!p.isSet(key))
            return false;
        bool ok = false;
        const QString written = p.value(key);
        const qlonglong value = written.trimmed().toLongLong(&ok);
        if (!ok) {
            cl.error = QCoreApplication::translate("CommandLine", "--%1 expects a whole number, got '%2'").arg(key, written);
            return false;
        }
        if (value < low || value > high) {
            cl.error = QCoreApplication::translate("CommandLine", "--%1 is out of range: %2").arg(key, written);
            return false;
        }
        out = value;
        return true;
    };
    auto text = [&](const char *name, std::string &out) {
        if (p.isSet(QLatin1String(name))) {
            out = p.value(QLatin1String(name)).toStdString();
            cl.setupGiven = true;
        }
    };
    Setup &s = cl.setup;
    text("corpus", s.corpus);
    // A prompt belongs to its corpus's vocabulary (as in the setup bar): another corpus without --prompt
    // starts from an empty prompt.
    if (s.corpus != saved.corpus && !p.isSet(QStringLiteral("prompt")))
        s.prompt.clear();
    text("tokenizer", s.tokenizer);
    text("target", s.target);
    text("draft", s.draft);
    text("draft-corpus", s.draftCorpus);
    text("prompt", s.prompt);
    if (p.isSet(QStringLiteral("tree"))) {
        try {
            s.decoding.tree = TreeShape::parse(p.value(QStringLiteral("tree")).toStdString());
            cl.setupGiven = true;
        } catch (const std::exception &e) {
            cl.error = QString::fromStdString(e.what());
            return cl;
        }
    }
    double v = 0;
    std::int64_t whole = 0;
    if (integer("k", INT32_MIN, INT32_MAX, whole)) {
        s.decoding.draftLength = static_cast<int>(whole);
        cl.setupGiven = true;
    }
    const double previousTemperature = s.decoding.target.temperature;
    if (number("temperature", v))
        s.decoding.target.temperature = v;
    if (integer("top-k", INT32_MIN, INT32_MAX, whole)) {
        s.decoding.target.topK = static_cast<int>(whole);
        cl.setupGiven = true;
    }
    if (number("top-p", v))
        s.decoding.target.topP = v;
    const double draftTemperature = s.decoding.draft.temperature == previousTemperature ? s.decoding.target.temperature
                                                                                        : s.decoding.draft.temperature;
    s.decoding.draft = s.decoding.target;
    s.decoding.draft.temperature = draftTemperature;
    if (number("draft-temperature", v))
        s.decoding.draft.temperature = v;
    if (p.isSet(QStringLiteral("seed"))) { // 64 bits, as the CLI: a double would round 9007199254740993
        const QString written = p.value(QStringLiteral("seed"));
        bool ok = false;
        const qulonglong seed = written.trimmed().toULongLong(&ok);
        if (!ok || written.trimmed().startsWith(QLatin1Char('-')))
            cl.error = QCoreApplication::translate(
                           "CommandLine", "--seed expects a whole number from 0 to 18446744073709551615, got '%1'")
                           .arg(written);
        else
            s.decoding.seed = seed;
        cl.setupGiven = true;
    }
    s.decoding.recordDistributions = true;

    cl.screenshot = p.value(QStringLiteral("screenshot"));
    cl.handout = p.value(QStringLiteral("handout"));
    cl.quizSheet = p.value(QStringLiteral("quiz-sheet"));
    cl.benchmark = p.isSet(QStringLiteral("benchmark-ui"));
    if (integer("rounds", 0, INT32_MAX, whole))
        cl.rounds = static_cast<int>(whole);
    if (p.isSet(QStringLiteral("rss-at"))) {
        bool ok = false;
        cl.rssAt = p.value(QStringLiteral("rss-at")).toInt(&ok);
        if (!ok || cl.rssAt < 1)
            cl.error = QCoreApplication::translate("CommandLine", "--rss-at expects a number of rounds from 1, got '%1'")
                           .arg(p.value(QStringLiteral("rss-at")));
    }
    if (p.isSet(QStringLiteral("phase"))) {
        cl.phase = phaseFromKey(p.value(QStringLiteral("phase")));
        if (!cl.phase)
            cl.error = QCoreApplication::translate(
                           "CommandLine", "--phase must be draft, verify, dice, residual, bonus or commit, got '%1'")
                           .arg(p.value(QStringLiteral("phase")));
    }
    if (integer("card", 1, 65, whole))
        cl.card = static_cast<int>(whole) - 1;
    if (p.isSet(QStringLiteral("size"))) {
        // Each side at most kMaxWindowSide: a 20000x20000 window took 3.7 GB and 23 s.
        const QString written = p.value(QStringLiteral("size"));
        const QStringList wh = written.split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
        const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
        if (!okW || !okH || w < 1 || h < 1 || w > kMaxWindowSide || h > kMaxWindowSide)
            cl.error = QCoreApplication::translate(
                           "CommandLine", "--size expects WxH with sides from 1 to %1, e.g. 1600x1000, got '%2'")
                           .arg(kMaxWindowSide)
                           .arg(written);
        else
            cl.size = QSize(w, h);
    }
    cl.language = p.value(QStringLiteral("language"));
    cl.presenter = p.isSet(QStringLiteral("presenter"));
    cl.predict = p.isSet(QStringLiteral("predict"));
    if (p.isSet(QStringLiteral("stage"))) {
        cl.stage = presenterStageFromKey(p.value(QStringLiteral("stage")));
        if (!cl.stage)
            cl.error = QCoreApplication::translate("CommandLine", "--stage must be one of %1, got '%2'")
                           .arg(presenterStageKeys().join(QStringLiteral(", ")), p.value(QStringLiteral("stage")));
        else if (!cl.presenter)
            cl.error = QCoreApplication::translate("CommandLine",
                                                   "--stage shows a stage of presenter mode: give --presenter too");
    }
    if (p.isSet(QStringLiteral("lesson"))) {
        cl.lesson = p.value(QStringLiteral("lesson"));
        try { // the lesson's setup is the run; options given on the command line are not mixed into it
            const app::LessonFile lesson = app::LessonFile::load(cl.lesson);
            const app::Demonstration demo = app::resolvedDemonstration(lesson.demo, onnxModelFiles());
            if (demo.setup)
                cl.setup = *demo.setup;
        } catch (const std::exception &e) {
            cl.error = QString::fromUtf8(e.what());
            return cl;
        }
    }
    try {
        s.validate();
    } catch (const std::exception &e) {
        cl.error = QString::fromStdString(e.what());
    }
    return cl;
}

} // namespace specdec::gui
