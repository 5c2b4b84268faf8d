// SPDX-License-Identifier: GPL-3.0-or-later
#include "QuizSheet.h"

#include "Exporter.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCoreApplication>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>

#include <memory>

namespace specdec::gui {

namespace {

// lupdate files a tr() of a local lambda under the enclosing namespace: that is the context at run time.
constexpr const char *kContext = "specdec::gui";
constexpr double kPointSize = 10.0;

QString tr(const char *text)
{
    return QCoreApplication::translate(kContext, text);
}

/// The page's text area: A4 less a margin of 1/14 of its width on every side.
QRectF textArea(const QPaintDevice *device)
{
    const double margin = device->width() / 14.0;
    return {margin, margin, device->width() - 2 * margin, device->height() - 2 * margin};
}

std::unique_ptr<QTextDocument> blockDocument(const QString &html, QPaintDevice *device, double width)
{
    auto doc = std::make_unique<QTextDocument>();
    QFont font;
    font.setPointSizeF(kPointSize);
    doc->setDefaultFont(font);
    doc->documentLayout()->setPaintDevice(device);
    doc->setDocumentMargin(0);
    doc->setHtml(html);
    doc->setTextWidth(width);
    return doc;
}

} // namespace

std::array<QStringList, 2> quizSheetParts(const app::QuizFile &quiz, const QString &language)
{
    std::array<QStringList, 2> parts;
    parts[0] << QStringLiteral("<h2>%1</h2><p>%2</p>")
                    .arg(quiz.title.text(language).toHtmlEscaped(),
                         tr("Name: ____________________   Tick one box, or every box where the question says so.")
                             .toHtmlEscaped());
    for (int i = 0; i < quiz.questions.size(); ++i) {
        const app::QuizQuestion &q = quiz.questions[i];
        QString html = QStringLiteral("<p style=\"margin:0\"><b>%1. %2</b> <i>(%3)</i></p>")
                           .arg(i + 1)
                           .arg(q.text.text(language).toHtmlEscaped(),
                                (q.multiple ? tr("choose all that apply") : tr("choose one")).toHtmlEscaped());
        for (int o = 0; o < q.options.size(); ++o)
            // A hanging indent: a long option wraps under its text, not under its box.
            html += QStringLiteral("<p style=\"margin:0; margin-left:28px; text-indent:-18px\">☐ %1. %2</p>")
                        .arg(app::QuizQuestion::letter(o), q.options[o].text(language).toHtmlEscaped());
        parts[0] << html;
    }
    parts[1] << QStringLiteral("<h2>%1</h2>").arg(tr("Answers").toHtmlEscaped());
    for (int i = 0; i < quiz.questions.size(); ++i) {
        const app::QuizQuestion &q = quiz.questions[i];
        parts[1] << QStringLiteral("<p style=\"margin:0\"><b>%1. %2</b> — %3<br><i>%4</i></p>")
                        .arg(i + 1)
                        .arg(q.correct, q.explanation.text(language).toHtmlEscaped(),
                             tr("In the app: %1").arg(q.showMeCaption.text(language)).toHtmlEscaped());
    }
    return parts;
}

QList<QuizSheetBlock> layoutQuizSheet(const app::QuizFile &quiz, const QString &language, QPaintDevice *device)
{
    QList<QuizSheetBlock> blocks;
    const QRectF area = textArea(device);
    const double gap = device->logicalDpiY() * kPointSize / 72.0 * 0.8; // most of a line between blocks
    const auto parts = quizSheetParts(quiz, language);
    int page = -1;
    for (int part = 0; part < 2; ++part) {
        ++page; // each part from a new page
        // The questions (short options) in two columns, the answers (sentences) in one; a part's first block
        // (its heading) spans the page.
        const int columns = part == 0 ? 2 : 1;
        const double columnWidth = (area.width() - (columns - 1) * 2 * gap) / columns;
        double top = area.top();
        double y = top;
        int column = 0;
        for (int i = 0; i < parts[part].size(); ++i) {
            const bool heading = i == 0;
            const double width = heading ? area.width() : columnWidth;
            const double h = blockDocument(parts[part][i], device, width)->size().height();
            if (y > top && y + h > area.bottom()) { // the block goes whole to the next column or page
                y = top;
                if (++column == columns) {
                    column = 0;
                    ++page;
                    y = top = area.top();
                }
            }
            const double x = area.left() + column * (columnWidth + 2 * gap);
            blocks << QuizSheetBlock{part, i, page, QRectF(x, y, width, h)};
            y += h + gap;
            if (heading)
                top = y; // the columns start below the heading
        }
    }
    return blocks;
}

QString writeQuizSheet(const QString &path, const app::QuizFile &quiz, const QString &language)
{
    const QString error = QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    if (quiz.questions.isEmpty())
        return error;
    QBuffer buffer; // rendered in memory, then saved atomically (Exporter.h, saveFile)
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setResolution(150);
        pdf.setTitle(quiz.title.text(language));
        pdf.setCreator(QStringLiteral("specdec-lab"));
        const QList<QuizSheetBlock> blocks = layoutQuizSheet(quiz, language, &pdf);
        const auto parts = quizSheetParts(quiz, language);
        QPainter painter;
        if (!painter.begin(&pdf))
            return error;
        int page = 0;
        for (const QuizSheetBlock &b : blocks) {
            for (; page < b.page; ++page)
                if (!pdf.newPage())
                    return error;
            const auto doc = blockDocument(parts[static_cast<std::size_t>(b.part)][b.index], &pdf, b.rect.width());
            painter.save();
            painter.translate(b.rect.topLeft());
            doc->drawContents(&painter, QRectF(QPointF(0, 0), b.rect.size()));
            painter.restore();
        }
        if (!painter.end())
            return error;
    }
    return saveFile(path, buffer.data());
}

} // namespace specdec::gui
