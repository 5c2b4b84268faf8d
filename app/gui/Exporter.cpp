// SPDX-License-Identifier: GPL-3.0-or-later
#include "Exporter.h"

#include "LabColors.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QAbstractTextDocumentLayout>
#include <QTextDocument>

#ifdef SPECDEC_HAVE_SVG
#include <QSvgGenerator>
#endif

namespace specdec::gui {

bool svgExportAvailable()
{
#ifdef SPECDEC_HAVE_SVG
    return true;
#else
    return false;
#endif
}

QString exportPlot(QCustomPlot *plot, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = plot->savePng(path, 0, 0, 2.0);
    } else if (suffix == QLatin1String("pdf")) {
        ok = plot->savePdf(path);
    } else if (suffix == QLatin1String("svg")) {
#ifdef SPECDEC_HAVE_SVG
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(plot->size());
        svg.setViewBox(QRect(QPoint(0, 0), plot->size()));
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            plot->toPainter(&painter, plot->width(), plot->height());
            ok = painter.end();
        }
#else
        return QCoreApplication::translate("specdec::gui::Exporter",
                                           "SVG export needs Qt SVG (package qt6-svg-dev), which this build lacks.");
#endif
    } else {
        return QCoreApplication::translate("specdec::gui::Exporter", "Unknown plot format \"%1\": use .png, .pdf or .svg.")
            .arg(suffix);
    }
    return ok ? QString() : QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
}

QStringList handoutAlgorithm()
{
    auto tr = [](const char *text) { return QCoreApplication::translate("specdec::gui::Exporter", text); };
    return {tr("1. The draft writes K tokens x₁ … x_K, each drawn from its distribution q."),
            tr("2. The target scores all K + 1 positions in one forward pass: p₁ … p_{K+1}."),
            tr("3. Token i passes when a uniform u < min(1, p(xᵢ) / q(xᵢ)); at T = 0, when xᵢ = argmax p."),
            tr("4. At the first failure a replacement is drawn from norm(max(0, p − q)); the round ends."),
            tr("5. If all K pass, a bonus token is drawn from p_{K+1}. The output follows p exactly.")};
}

QStringList handoutLegend()
{
    auto tr = [](const char *text) { return QCoreApplication::translate("specdec::gui::Exporter", text); };
    return {tr("draft (apprentice), q"), tr("target (head chef), p"), tr("accepted"), tr("rejected"),
            tr("residual (replacement)"), tr("bonus"), tr("discarded")};
}

namespace {

/// Paints `doc` from `top` on the page; returns its height.
double drawText(QPainter &painter, QPaintDevice *device, const QString &html, const QRectF &box, double pointSize)
{
    QTextDocument doc;
    QFont body = painter.font();
    body.setPointSizeF(pointSize);
    body.setBold(false);
    doc.setDefaultFont(body);
    doc.documentLayout()->setPaintDevice(device);
    doc.setHtml(html);
    doc.setTextWidth(box.width());
    painter.save();
    painter.translate(box.topLeft());
    doc.drawContents(&painter, QRectF(0, 0, box.width(), box.height()));
    painter.restore();
    return std::min(box.height(), doc.size().height());
}

QString htmlLines(const QString &heading, const QStringList &lines)
{
    QString html = QStringLiteral("<p><b>%1</b><br>").arg(heading.toHtmlEscaped());
    for (const QString &line : lines)
        html += line.toHtmlEscaped() + QStringLiteral("<br>");
    return html + QStringLiteral("</p>");
}

} // namespace

bool paintHandout(QPaintDevice *device, const HandoutText &text, QWidget *roundView, QWidget *distributionView)
{
    auto tr = [](const char *t) { return QCoreApplication::translate("specdec::gui::Exporter", t); };
    QPainter painter;
    if (!painter.begin(device))
        return false;
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect page(0, 0, device->width(), device->height());
    const int margin = page.width() / 20;
    const double width = page.width() - 2.0 * margin;
    double y = margin;
    QFont heading = painter.font();
    heading.setPointSizeF(14);
    heading.setBold(true);
    painter.setFont(heading);
    const int headingHeight = painter.fontMetrics().height() + 4;
    painter.drawText(QRectF(margin, y, width, headingHeight), Qt::AlignLeft, text.title);
    y += headingHeight;
    y += drawText(painter, device, QStringLiteral("<p>%1</p>").arg(text.setup.join(QStringLiteral(" · ")).toHtmlEscaped()),
                  QRectF(margin, y, width, page.height() * 0.08), 8) + margin / 4.0;
    // Widgets are drawn as they look on screen, scaled to fit (keeping their aspect ratio).
    auto place = [&](QWidget *widget, const QRectF &box) {
        if (!widget || widget->width() <= 0 || widget->height() <= 0)
            return 0.0;
        const QPixmap shot = widget->grab();
        const double scale = std::min(box.width() / shot.width(), box.height() / shot.height());
        const QRectF target(box.left(), box.top(), shot.width() * scale, shot.height() * scale);
        painter.drawPixmap(target, shot, shot.rect());
        return target.height();
    };
    y += place(roundView, QRectF(margin, y, width, 0.34 * page.height())) + margin / 3.0;
    // Below the round: the distribution view (left); the run's numbers, the algorithm, the legend and the
    // theory numbers (right).
    const double half = (width - margin / 2.0) / 2;
    const double left = margin, right = margin + half + margin / 2.0;
    place(distributionView, QRectF(left, y, half, 0.3 * page.height()));
    double ry = y;
    ry += drawText(painter, device, htmlLines(tr("This run"), text.numbers), QRectF(right, ry, half, page.height() - ry - margin), 8);
    ry += drawText(painter, device, htmlLines(tr("The algorithm in five lines"), handoutAlgorithm()),
                   QRectF(right, ry, half, page.height() - ry - margin), 8);
    // The legend: a swatch per colour, in the palette the views draw with.
    const LabColors colors = LabColors::from(roundView ? roundView->palette() : QPalette());
    const QList<QColor> swatches{colors.draft, colors.target, colors.accepted, colors.rejected,
                                 colors.residual, colors.bonus, colors.discarded};
    QFont legendFont = painter.font();
    legendFont.setPointSizeF(8);
    legendFont.setBold(true);
    painter.setFont(legendFont);
    painter.drawText(QPointF(right, ry + painter.fontMetrics().ascent()), tr("Colours"));
    ry += painter.fontMetrics().height() * 1.2;
    legendFont.setBold(false);
    painter.setFont(legendFont);
    const QStringList legend = handoutLegend();
    const double line = painter.fontMetrics().height() * 1.25;
    for (int i = 0; i < legend.size() && i < swatches.size(); ++i) {
        const double column = (i % 2) * half / 2;
        const double row = ry + (i / 2) * line;
        painter.fillRect(QRectF(right + column, row + line * 0.15, line * 0.7, line * 0.7), swatches[i]);
        painter.drawText(QRectF(right + column + line, row, half / 2 - line, line), Qt::AlignVCenter | Qt::AlignLeft, legend[i]);
    }
    ry += (static_cast<int>(legend.size()) + 1) / 2 * line + margin / 4.0;
    drawText(painter, device, text.theoryHtml, QRectF(right, ry, half, page.height() - ry - margin), 8);
    return painter.end();
}

QString writeHandout(const QString &path, const HandoutText &text, QWidget *roundView, QWidget *distributionView)
{
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(150);
    pdf.setTitle(text.title);
    pdf.setCreator(QStringLiteral("specdec-lab"));
    if (!paintHandout(&pdf, text, roundView, distributionView))
        return QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    return {};
}

QString quizQuestionsHtml(const app::QuizFile &quiz, const QString &language)
{
    auto tr = [](const char *t) { return QCoreApplication::translate("specdec::gui::Exporter", t); };
    QString html = QStringLiteral("<h2>%1</h2><p>%2</p>")
                       .arg(quiz.title.text(language).toHtmlEscaped(),
                            tr("Name: ____________________   Tick one box, or every box where the question says so.").toHtmlEscaped());
    for (int i = 0; i < quiz.questions.size(); ++i) {
        const app::QuizQuestion &q = quiz.questions[i];
        html += QStringLiteral("<p><b>%1. %2</b> <i>(%3)</i><br>")
                    .arg(i + 1)
                    .arg(q.text.text(language).toHtmlEscaped(),
                         (q.multiple ? tr("choose all that apply") : tr("choose one")).toHtmlEscaped());
        for (int o = 0; o < q.options.size(); ++o)
            html += QStringLiteral("&nbsp;&nbsp;☐ %1. %2<br>").arg(app::QuizQuestion::letter(o), q.options[o].text(language).toHtmlEscaped());
        html += QStringLiteral("</p>");
    }
    return html;
}

QString quizAnswersHtml(const app::QuizFile &quiz, const QString &language)
{
    auto tr = [](const char *t) { return QCoreApplication::translate("specdec::gui::Exporter", t); };
    QString html = QStringLiteral("<h2>%1</h2>").arg(tr("Answers").toHtmlEscaped());
    for (int i = 0; i < quiz.questions.size(); ++i) {
        const app::QuizQuestion &q = quiz.questions[i];
        html += QStringLiteral("<p><b>%1. %2</b> — %3<br><i>%4</i></p>")
                    .arg(i + 1)
                    .arg(q.correct, q.explanation.text(language).toHtmlEscaped(),
                         tr("In the app: %1").arg(q.showMeCaption.text(language)).toHtmlEscaped());
    }
    return html;
}

QString writeQuizSheet(const QString &path, const app::QuizFile &quiz, const QString &language)
{
    const QString error = QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    if (quiz.questions.isEmpty())
        return error;
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(150);
    pdf.setTitle(quiz.title.text(language));
    pdf.setCreator(QStringLiteral("specdec-lab"));
    QPainter painter;
    if (!painter.begin(&pdf))
        return error;
    const int margin = pdf.width() / 14;
    const QSizeF area(pdf.width() - 2.0 * margin, pdf.height() - 2.0 * margin);
    bool first = true;
    // Each part starts on a new page and flows over as many pages as it needs.
    for (const QString &html : {quizQuestionsHtml(quiz, language), quizAnswersHtml(quiz, language)}) {
        QTextDocument doc;
        QFont font = painter.font();
        font.setPointSizeF(10);
        doc.setDefaultFont(font);
        doc.documentLayout()->setPaintDevice(&pdf);
        doc.setHtml(html);
        doc.setPageSize(area);
        for (int pageIndex = 0; pageIndex < doc.pageCount(); ++pageIndex) {
            if (!first && !pdf.newPage())
                return error;
            first = false;
            painter.save();
            painter.translate(margin, margin - pageIndex * area.height());
            doc.drawContents(&painter, QRectF(QPointF(0, pageIndex * area.height()), area));
            painter.restore();
        }
    }
    return painter.end() ? QString() : error;
}

} // namespace specdec::gui
