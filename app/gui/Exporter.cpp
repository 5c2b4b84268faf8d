// SPDX-License-Identifier: GPL-3.0-or-later
#include "Exporter.h"

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

bool paintHandout(QPaintDevice *device, const QString &title, QWidget *roundView, QWidget *distributionView,
                  const QString &theoryHtml)
{
    QPainter painter;
    if (!painter.begin(device))
        return false;
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    const QRect page(0, 0, device->width(), device->height());
    const int margin = page.width() / 20;
    int y = margin;
    QFont heading = painter.font();
    heading.setPointSizeF(14);
    heading.setBold(true);
    painter.setFont(heading);
    const int headingHeight = painter.fontMetrics().height() + 10;
    painter.drawText(QRect(margin, y, page.width() - 2 * margin, headingHeight), Qt::AlignLeft, title);
    y += headingHeight + margin / 3;
    // The round view across the page; below it the distribution view (left) beside the theory text (right).
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
    const double width = page.width() - 2.0 * margin;
    y += static_cast<int>(place(roundView, QRectF(margin, y, width, 0.4 * page.height()))) + margin / 3;
    const double half = (width - margin / 2.0) / 2;
    place(distributionView, QRectF(margin, y, half, page.height() - y - margin));
    QTextDocument doc;
    QFont body = painter.font();
    body.setPointSizeF(8);
    body.setBold(false);
    doc.setDefaultFont(body);
    doc.documentLayout()->setPaintDevice(device);
    doc.setHtml(theoryHtml);
    doc.setTextWidth(half);
    painter.translate(margin + half + margin / 2.0, y);
    doc.drawContents(&painter, QRectF(0, 0, half, page.height() - y - margin));
    return painter.end();
}

QString writeHandout(const QString &path, const QString &title, QWidget *roundView, QWidget *distributionView,
                     const QString &theoryHtml)
{
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(150);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("specdec-lab"));
    if (!paintHandout(&pdf, title, roundView, distributionView, theoryHtml))
        return QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    return {};
}

} // namespace specdec::gui
