// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The look shared by every QCustomPlot of the lab: palette colours, readable fonts, a title.

#include "LabColors.h"

#include <QPixmap>
#include <QString>

class QCustomPlot;
class QCPTextElement;

namespace specdec::gui {

/// Colours the axes, grid, legend and background of `plot` from `colors`.
void stylePlot(QCustomPlot *plot, const LabColors &colors);
/// Moves the legend from inside the axis rect to a row below it, so it never covers data. As many entries
/// share a row as fit the plot's width (fitLegend, on every resize), so no entry is cut.
void legendBelow(QCustomPlot *plot);
/// Sets the legend's entries per row to the most that fit the plot's width.
void fitLegend(QCustomPlot *plot);
/// Adds (or returns the existing) title element at the top of `plot`.
QCPTextElement *plotTitle(QCustomPlot *plot);
/// A filled, antialiased disc of `diameter` pixels: a scatter symbol drawn as one pixmap blit per point, several
/// times cheaper than QCustomPlot's ssDisc, which strokes and fills an ellipse per point.
QPixmap discPixmap(const QColor &color, int diameter);

} // namespace specdec::gui
