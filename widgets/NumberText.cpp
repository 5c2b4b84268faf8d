// SPDX-License-Identifier: GPL-3.0-or-later
#include "NumberText.h"

namespace specdec::gui {

QString probabilityText(double value)
{
    return QString::number(value, 'f', value < 0.001 && value > 0 ? 4 : 3);
}

} // namespace specdec::gui
