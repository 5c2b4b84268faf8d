// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The quiz sheet a class can keep (File > Export quiz sheet): the questions without answers, a box per option
// and "choose one" or "choose all that apply" (in two columns: the shipped ten fit one page), then from a new
// page the answers with their explanations. Each question and each answer is one block that never breaks
// across a column or a page. The layout is its own function, so a test can check it without reading a PDF.

#include "QuizFile.h"

#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <array>

class QPaintDevice;

namespace specdec::gui {

/// The sheet's two parts as HTML blocks in `language`: [0] the title and name line, then one block per
/// question (no answers); [1] the heading "Answers", then one block per answer.
std::array<QStringList, 2> quizSheetParts(const app::QuizFile &quiz, const QString &language);

/// One block placed on the sheet: which part and block, its page (0-based) and its box on the page in the
/// device's pixels (inside the margins).
struct QuizSheetBlock
{
    int part = 0;
    int index = 0;
    int page = 0;
    QRectF rect;
};

/// Places both parts on pages of `device` (A4 at its resolution): each part's heading across the page, then
/// its blocks top to bottom in columns (questions two, answers one); a block that does not fit starts the
/// next column or page; the answers start a new page.
QList<QuizSheetBlock> layoutQuizSheet(const app::QuizFile &quiz, const QString &language, QPaintDevice *device);

/// The quiz sheet as an A4 PDF at `path`; returns an empty string or a readable error.
QString writeQuizSheet(const QString &path, const app::QuizFile &quiz, const QString &language);

} // namespace specdec::gui
