#include "Exporter.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
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

QString writeHandout(const QString &path, const QString &title, QWidget *roundView, QWidget *distributionView,
                     const QString &theoryHtml)
{
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(150);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("specdec-lab"));
    QPainter painter;
    if (!painter.begin(&pdf))
        return QCoreApplication::translate("specdec::gui::Exporter", "Could not write %1.").arg(path);
    const QRect page = painter.viewport();
    const int margin = 60;
    int y = margin;
    QFont heading = painter.font();
    heading.setPointSizeF(14);
    heading.setBold(true);
    painter.setFont(heading);
    const int headingHeight = painter.fontMetrics().height() + 10;
    painter.drawText(QRect(margin, y, page.width() - 2 * margin, headingHeight), Qt::AlignLeft, title);
    y += headingHeight + 10;
    // Each widget is drawn at its on-screen size, scaled to the page width (keeping its aspect ratio).
    auto place = [&](QWidget *widget, double maxHeightShare) {
        if (!widget || widget->width() <= 0 || widget->height() <= 0)
            return;
        const QPixmap shot = widget->grab();
        const double width = page.width() - 2.0 * margin;
        double scale = width / shot.width();
        scale = std::min(scale, maxHeightShare * page.height() / shot.height());
        const QRectF target(margin, y, shot.width() * scale, shot.height() * scale);
        painter.drawPixmap(target, shot, shot.rect());
        y += static_cast<int>(target.height()) + 20;
    };
    place(roundView, 0.36);
    place(distributionView, 0.30);
    QTextDocument doc;
    QFont body = painter.font();
    body.setPointSizeF(9);
    body.setBold(false);
    doc.setDefaultFont(body);
    doc.setHtml(theoryHtml);
    doc.setTextWidth(page.width() - 2.0 * margin);
    painter.translate(margin, y);
    doc.drawContents(&painter, QRectF(0, 0, page.width() - 2.0 * margin, page.height() - y - margin));
    painter.end();
    return {};
}

} // namespace specdec::gui
