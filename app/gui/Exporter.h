// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exporting what the window shows: any QCustomPlot as PNG, PDF or SVG (by the file's suffix); a one-page
// PDF handout of the current round — the setup, the round view, the run's numbers, the algorithm in five
// lines, the colour legend, the distribution view and the theory numbers. (The quiz sheet: QuizSheet.h.)

#include <QString>
#include <QStringList>

class QCustomPlot;
class QPaintDevice;
class QWidget;

namespace specdec::gui {

/// Writes `bytes` to `path` through the one atomic path of both programs (engine/FileIo.h: write aside, fsync,
/// rename; a FIFO or a device is refused), so a full disk or a kill leaves the previous file unchanged. Every
/// export of the window (plots, handout, quiz sheet, screenshot) renders into memory and saves with it.
/// Returns an empty string or the error ("… no space left on device …").
QString saveFile(const QString &path, const QByteArray &bytes);

/// Writes `plot` to `path` (.png, .pdf or .svg); returns an empty string or a readable error.
QString exportPlot(QCustomPlot *plot, const QString &path);

/// Whether SVG export was built in (Qt SVG present at build time).
bool svgExportAvailable();

/// The texts of a handout besides the widgets it draws.
struct HandoutText
{
    QString title;
    QStringList setup;   ///< "Corpus: kjv", "Target: …", … (one line each)
    QStringList numbers; ///< "α̂ = 0.61", "Tokens per round: 2.17", … (the run so far)
    QString theoryHtml;  ///< the theory panel's text
};

/// The handout's fixed texts in the current language: the algorithm in five lines and the colour legend.
QStringList handoutAlgorithm();
QStringList handoutLegend();

/// Paints the handout page on `device` (a PDF page, or an image for a preview); false when the device cannot
/// be painted on.
bool paintHandout(QPaintDevice *device, const HandoutText &text, QWidget *roundView, QWidget *distributionView);

/// The handout as one A4 page of a PDF at `path`; returns an empty string or an error.
QString writeHandout(const QString &path, const HandoutText &text, QWidget *roundView, QWidget *distributionView);

} // namespace specdec::gui
