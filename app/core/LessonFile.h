// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lesson files: a lesson is a demonstration (a setup to run, the tools to open and what to show in them)
// plus steps of text the teacher advances, in English and Chinese, and the claims its text makes about the
// run, which a test checks against the engine. One JSON file per lesson, in lessons/ (format:
// docs/lessons.md). Loading validates every field and fails with one line naming the file and the field.

#include "Acceptance.h"
#include "Experiment.h"
#include "JsonFields.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace specdec::app {

/// The lossless lab as a demonstration opens it: a rule, optionally p and q over labels, a sample size.
struct LabDemo
{
    Variant variant = Variant::Correct;
    QVector<double> p, q; ///< empty: keep the lab's bars (or, with fromModels, take the current round's)
    QStringList labels;
    bool fromModels = false;
    qint64 samples = 0; ///< > 0: run this many samples at once
};

/// The theory explorer's sliders.
struct TheoryDemo
{
    double alpha = 0.8;
    int k = 4;
    double c = 0.05;
};

/// What a lesson or a quiz's "Show me" sets up.
struct Demonstration
{
    std::optional<Setup> setup; ///< the run for the main window (and the arena's target)
    QStringList open;           ///< tools in the order they are shown: window, arena, lab, theory
    QStringList arenaLanes;     ///< draft specs of the arena's lanes (with "arena" in open)
    std::optional<LabDemo> lab;
    std::optional<TheoryDemo> theory;
    int rounds = 0; ///< rounds to play in the window before showing
    QString phase;  ///< phase of the last round to show ("draft" … "commit"; "" = as played)

    bool opens(const char *tool) const { return open.contains(QLatin1String(tool)); }
};

struct LessonFile
{
    QString path;
    QString id;    ///< stable, untranslated ("classic-demo")
    int order = 0; ///< position in the lesson list
    LocalizedText title;
    LocalizedText summary;      ///< one sentence: the question the lesson settles
    QList<LocalizedText> steps; ///< the texts the teacher advances
    Demonstration demo;
    QStringList claims; ///< "alpha(draft-small) > alpha(ngram:3)", checked by LessonClaims

    /// Throws specdec::Error naming the file and the field.
    static LessonFile load(const QString &path);
    static LessonFile parse(const QByteArray &bytes, const QString &name);

    static constexpr int kVersion = 1;
    static constexpr qint64 kMaxBytes = 256 * 1024;
};

/// Every *.lesson.json in `folder`, sorted by order then id; a file that fails goes to `errors` (one line each).
QList<LessonFile> loadLessonFolder(const QString &folder, QStringList *errors);

/// Reads a demonstration object (shared by lessons and quiz questions); `at` is its field path.
Demonstration parseDemonstration(const JsonFields &fields, const QJsonObject &o, const QString &at);

/// Phase keys a demonstration may name.
QStringList demonstrationPhases();

} // namespace specdec::app
