// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Quiz files: questions with lettered options, the correct letters, an explanation and a "Show me"
// demonstration that proves the answer on a real run (the lab, the arena, the theory explorer, the window).
// Single choice has exactly one correct letter, multiple choice one or more. Texts in English and Chinese.
// One JSON file (lessons/quiz.json; format: docs/lessons.md), validated like a lesson file.

#include "LessonFile.h"

namespace specdec::app {

struct QuizQuestion
{
    QString id;            ///< "q1" …
    bool multiple = false; ///< multiple choice (else single)
    LocalizedText text;
    QList<LocalizedText> options; ///< option i has the letter 'A' + i
    QString correct;              ///< the correct letters, sorted ("B", "ABC")
    LocalizedText explanation;
    LocalizedText showMeCaption; ///< what the demonstration shows
    Demonstration showMe;

    static QString letter(int option) { return QString(QChar(u'A' + option)); }
    /// Whether `chosen` (letters, any order) is exactly the correct set.
    bool isCorrect(const QString &chosen) const;
};

struct QuizFile
{
    QString path;
    LocalizedText title;
    QList<QuizQuestion> questions;

    /// Throws specdec::Error naming the file and the field.
    static QuizFile load(const QString &path);
    static QuizFile parse(const QByteArray &bytes, const QString &name);

    static constexpr int kVersion = 1;
    static constexpr qint64 kMaxBytes = 512 * 1024;
};

} // namespace specdec::app
