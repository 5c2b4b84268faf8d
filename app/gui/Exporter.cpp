// SPDX-License-Identifier: GPL-3.0-or-later
#include "Exporter.h"

#include "LabColors.h"
#include "RoundView.h"

#include <qcustomplot.h>

#include "Error.h"
#include "FileIo.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>

#include <cmath>

#ifdef SPECDEC_HAVE_SVG
#include <QSvgGenerator>
#endif

namespace specdec::gui {

namespace {
// The handout's and the quiz sheet's texts: lupdate files a tr() of a local lambda under the enclosing
// namespace, so that is the context they are looked up in (a different one would leave them in English).
constexpr const char *kContext = "specdec::gui";
} // namespace

bool svgExportAvailable()
{
#ifdef SPECDEC_HAVE_SVG
    return true;
#else
    return false;
#endif
}

QString saveFile(const QString &path, const QByteArray &bytes)
{
    try {
        writeFileAtomically(QFile::encodeName(path).toStdString(),
                            std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const Error &e) {
        return QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1: %2")
            .arg(path, QString::fromUtf8(e.what()));
    }
    return {};
}

QString exportPlot(QCustomPlot *plot, const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QString failed = QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("png")) {
        if (!plot->toPixmap(0, 0, 2.0).save(&buffer, "PNG"))
            return failed;
    } else if (suffix == QLatin1String("pdf")) {
        // As QCustomPlot::savePdf, into memory: one page of the plot's size in points.
        QPdfWriter pdf(&buffer);
        pdf.setResolution(72);
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setPageSize(
            QPageSize(QSizeF(plot->width(), plot->height()), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setCreator(QStringLiteral("specdec-lab"));
        QCPPainter painter;
        if (!painter.begin(&pdf))
            return failed;
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        plot->toPainter(&painter, plot->width(), plot->height());
        if (!painter.end())
            return failed;
    } else if (suffix == QLatin1String("svg")) {
#ifdef SPECDEC_HAVE_SVG
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(plot->size());
        svg.setViewBox(QRect(QPoint(0, 0), plot->size()));
        QCPPainter painter;
        if (!painter.begin(&svg))
            return failed;
        plot->toPainter(&painter, plot->width(), plot->height());
        if (!painter.end())
            return failed;
#else
        return QCoreApplication::translate("specdec::gui::Exporter",
                                           "SVG export needs Qt SVG (package qt6-svg-dev), which this build lacks.");
#endif
    } else {
        return QCoreApplication::translate("specdec::gui::Exporter", "Unknown plot format \"%1\": use .png, .pdf or .svg.")
            .arg(suffix);
    }
    return saveFile(path, buffer.data());
}

QStringList handoutAlgorithm()
{
    auto tr = [](const char *text) { return QCoreApplication::translate(kContext, text); };
    return {tr("1. The draft writes K tokens x₁, x₂, …, each drawn from its distribution q."),
            tr("2. The target scores all K + 1 positions in one forward pass: p at each of them."),
            tr("3. Token i passes when a uniform u < min(1, p(xᵢ) / q(xᵢ)); at T = 0, when xᵢ = argmax p."),
            tr("4. At the first failure a replacement is drawn from norm(max(0, p − q)); the round ends."),
            tr("5. If all K pass, a bonus token is drawn from p at position K + 1. The output follows p exactly.")};
}

QStringList handoutLegend()
{
    auto tr = [](const char *text) { return QCoreApplication::translate(kContext, text); };
    return {tr("draft (apprentice), q"),
            tr("target (head chef), p"),
            tr("accepted"),
            tr("rejected"),
            tr("residual (replacement)"),
            tr("bonus"),
            tr("discarded")};
}

namespace {

/// Paints `html` in `box` at `pointSize`, or smaller (down to 70 %) when it would not fit the box's height, so
/// that no line is cut at the bottom of the page; returns the height used.
double drawText(QPainter &painter, QPaintDevice *device, const QString &html, const QRectF &box, double pointSize)
{
    QTextDocument doc;
    QFont body = painter.font();
    body.setBold(false);
    doc.documentLayout()->setPaintDevice(device);
    for (double size = pointSize; size >= pointSize * 0.7 - 1e-9; size -= pointSize * 0.05) {
        body.setPointSizeF(size);
        doc.setDefaultFont(body);
        doc.setHtml(html);
        doc.setTextWidth(box.width());
        if (doc.size().height() <= box.height())
            break;
    }
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

/// `widget` as it looks, less the empty part of the round's transcript (a short text leaves most of it blank).
QPixmap grabCompact(QWidget *widget)
{
    const QPixmap shot = widget->grab();
    auto *round = qobject_cast<RoundView *>(widget);
    if (!round)
        return shot;
    const QRect text = round->transcript()->geometry();
    const int used = static_cast<int>(std::ceil(round->transcript()->document()->size().height())) + 8;
    if (used >= text.height())
        return shot;
    const int cut = text.height() - used;
    const qreal dpr = shot.devicePixelRatio();
    QPixmap compact(QSize(shot.width(), shot.height() - qRound(cut * dpr)));
    compact.setDevicePixelRatio(dpr);
    compact.fill(Qt::transparent);
    QPainter p(&compact);
    const int split = text.top() + used;
    p.drawPixmap(QPointF(0, 0), shot, QRectF(0, 0, shot.width(), split * dpr));
    p.drawPixmap(QPointF(0, split), shot,
                 QRectF(0, (split + cut) * dpr, shot.width(), shot.height() - (split + cut) * dpr));
    return compact;
}

} // namespace

bool paintHandout(QPaintDevice *device, const HandoutText &text, QWidget *roundView, QWidget *distributionView)
{
    auto tr = [](const char *t) { return QCoreApplication::translate(kContext, t); };
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
    // The title on the page's width: smaller (down to 9 pt) where long model names would run past its edge,
    // then on two lines ("round 12, Dice (kjv/target-large / kjv/draf" was cut at the right edge).
    while (heading.pointSizeF() > 9 && painter.fontMetrics().horizontalAdvance(text.title) > width) {
        heading.setPointSizeF(heading.pointSizeF() - 0.5);
        painter.setFont(heading);
    }
    const QRectF title = painter.boundingRect(QRectF(margin, y, width, page.height() * 0.1),
                                              Qt::AlignLeft | Qt::TextWordWrap, text.title);
    painter.drawText(QRectF(margin, y, width, title.height()), Qt::AlignLeft | Qt::TextWordWrap, text.title);
    y += title.height() + 4;
    y += drawText(painter, device,
                  QStringLiteral("<p>%1</p>").arg(text.setup.join(QStringLiteral(" · ")).toHtmlEscaped()),
                  QRectF(margin, y, width, page.height() * 0.08), 8)
        + margin / 4.0;
    // Widgets are drawn as they look on screen, scaled to fit (keeping their aspect ratio).
    auto place = [&](QWidget *widget, const QRectF &box) {
        if (!widget || widget->width() <= 0 || widget->height() <= 0)
            return 0.0;
        const QPixmap shot = grabCompact(widget);
        const double scale = std::min(box.width() / shot.width(), box.height() / shot.height());
        const QRectF target(box.left(), box.top(), shot.width() * scale, shot.height() * scale);
        painter.drawPixmap(target, shot, shot.rect());
        return target.height();
    };
    y += place(roundView, QRectF(margin, y, width, 0.30 * page.height())) + margin / 3.0;
    // Below the round: the distribution view (left); the run's numbers, the algorithm and the legend (right);
    // under both, the theory numbers across the page (every line of the panel, wide enough not to wrap).
    const double half = (width - margin / 2.0) / 2;
    const double left = margin, right = margin + half + margin / 2.0;
    const double bottom = page.height() - margin;
    const double ly = y + place(distributionView, QRectF(left, y, half, 0.26 * page.height())) + margin / 4.0;
    // The panel's HTML carries the window's font size and paragraph spacing (QTextEdit::toHtml): the handout
    // sets its own, compact enough for the column.
    QString theory = text.theoryHtml;
    theory.remove(QRegularExpression(QStringLiteral("font-(size|family):[^;\"]*;?")));
    theory.replace(QRegularExpression(QStringLiteral("margin-(top|bottom):\\s*\\d+px")),
                   QStringLiteral("margin-\\1:1px"));
    double ry = y;
    ry += drawText(painter, device, htmlLines(tr("This run"), text.numbers), QRectF(right, ry, half, bottom - ry), 8);
    ry += drawText(painter, device, htmlLines(tr("The algorithm in five lines"), handoutAlgorithm()),
                   QRectF(right, ry, half, bottom - ry), 8);
    // The legend: a swatch per colour, in the palette the views draw with.
    const LabColors colors = LabColors::from(roundView ? roundView->palette() : QPalette());
    const QList<QColor> swatches{colors.draft,    colors.target, colors.accepted, colors.rejected,
                                 colors.residual, colors.bonus,  colors.discarded};
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
        painter.drawText(QRectF(right + column + line, row, half / 2 - line, line), Qt::AlignVCenter | Qt::AlignLeft,
                         legend[i]);
    }
    ry += ((std::min(legend.size(), swatches.size()) + 1) / 2) * line + margin / 4.0;
    const double ty = std::max(ly, ry);
    drawText(painter, device, theory, QRectF(left, ty, width, bottom - ty), 8);
    return painter.end();
}

QString writeHandout(const QString &path, const HandoutText &text, QWidget *roundView, QWidget *distributionView)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&buffer);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setResolution(150);
        pdf.setTitle(text.title);
        pdf.setCreator(QStringLiteral("specdec-lab"));
        if (!paintHandout(&pdf, text, roundView, distributionView))
            return QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    }
    return saveFile(path, buffer.data());
}

} // namespace specdec::gui
