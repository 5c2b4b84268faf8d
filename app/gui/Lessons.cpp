// SPDX-License-Identifier: GPL-3.0-or-later
#include "Lessons.h"

#include "CorpusLocations.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

namespace specdec::gui {

QString lessonsFolder()
{
    const QString env = qEnvironmentVariable("SPECDEC_LESSON_DIR");
    if (!env.isEmpty() && QFileInfo(env).isDir())
        return QDir(env).canonicalPath();
    return app::dataPath(QStringLiteral("lessons"));
}

QString quizPath()
{
    return QDir(lessonsFolder()).filePath(QStringLiteral("ten-questions.quiz.json"));
}

QString contentLanguage()
{
    return QLocale().name();
}

LessonPanel::Entry lessonEntry(const app::LessonFile &lesson)
{
    const QString language = contentLanguage();
    LessonPanel::Entry entry;
    entry.title = lesson.title.text(language);
    entry.summary = lesson.summary.text(language);
    for (const app::LocalizedText &step : lesson.steps)
        entry.steps << step.text(language);
    return entry;
}

} // namespace specdec::gui
