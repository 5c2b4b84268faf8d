// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the window finds the lessons and the quiz (files, see docs/lessons.md), and how a lesson reads in
// the lesson panel in the current language. The lessons themselves are data in lessons/.

#include "LessonFile.h"
#include "LessonPanel.h"
#include "QuizFile.h"

namespace specdec::gui {

/// The folder of the shipped lessons: $SPECDEC_LESSON_DIR, else lessons/ of the first data directory that
/// has one (app::dataPath: an installed app's share/specdec-lab, or the build tree, which links lessons/).
QString lessonsFolder();
/// The shipped quiz: ten-questions.quiz.json in lessonsFolder().
QString quizPath();

/// The language code texts of files are chosen by: the current default locale ("zh_CN", "en_US", …).
QString contentLanguage();

/// The lesson's title, question and steps in the current language.
LessonPanel::Entry lessonEntry(const app::LessonFile &lesson);

} // namespace specdec::gui
