// SPDX-License-Identifier: GPL-3.0-or-later
#include "NumberText.h"

#include <algorithm>
#include <cmath>

namespace specdec::gui {

QString probabilityText(double value)
{
    return QString::number(value, 'f', value < 0.001 && value > 0 ? 4 : 3);
}

DieTexts dieTexts(double u, double threshold, int decimals)
{
    const bool accepted = u < threshold;
    DieTexts texts;
    for (int d = std::max(0, decimals); d <= 8; ++d) {
        const double scale = std::pow(10.0, d);
        const double shownU = std::floor(u * scale) / scale;
        texts = {QString::number(shownU, 'f', d), QString::number(threshold, 'f', d)};
        const double shownT = texts.threshold.toDouble();
        if (accepted ? shownU < shownT : shownU >= shownT)
            break;
    }
    return texts;
}

} // namespace specdec::gui
