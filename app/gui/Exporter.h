// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exporting what the window shows: any QCustomPlot as PNG, PDF or SVG (by the file's suffix), and a
// one-page PDF handout of the current round — the round view, the distribution view and the theory numbers.

#include <QString>

class QCustomPlot;
class QPaintDevice;
class QWidget;

namespace specdec::gui {

/// Writes `plot` to `path` (.png, .pdf or .svg); returns an empty string or a readable error.
QString exportPlot(QCustomPlot *plot, const QString &path);

/// Whether SVG export was built in (Qt SVG present at build time).
bool svgExportAvailable();

/// Paints the handout page — title, round view, distribution view, theory text — on `device` (a PDF page, or
/// an image for a preview); false when the device cannot be painted on.
bool paintHandout(QPaintDevice *device, const QString &title, QWidget *roundView, QWidget *distributionView,
                  const QString &theoryHtml);

/// Renders the three widgets, titled, onto one A4 page of a PDF at `path`; returns an empty string or an error.
QString writeHandout(const QString &path, const QString &title, QWidget *roundView, QWidget *distributionView,
                     const QString &theoryHtml);

} // namespace specdec::gui
