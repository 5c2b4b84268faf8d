// SPDX-License-Identifier: GPL-3.0-or-later
#include "LabColors.h"

namespace specdec::gui {

namespace {
QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                            static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                            static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}
} // namespace

LabColors LabColors::from(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightnessF() < 0.5;
    LabColors c;
    c.base = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.muted = mix(c.text, c.base, 0.38); // 5.4:1 on a light window (#EFEFEF): legible text (WCAG AA, 4.5:1)
    c.card = dark ? palette.color(QPalette::AlternateBase).lighter(115) : c.base;
    c.border = mix(c.text, c.base, 0.8);
    if (dark) {
        c.draft = QColor(0x4f, 0xc3, 0xb4);
        c.target = QColor(0x7c, 0x9c, 0xff);
        c.accepted = QColor(0x5c, 0xc9, 0x6b);
        c.rejected = QColor(0xff, 0x6b, 0x6b);
        c.residual = QColor(0xff, 0xa9, 0x4d);
        c.bonus = QColor(0xb1, 0x97, 0xfc);
    } else {
        c.draft = QColor(0x0c, 0x8a, 0x7b);
        c.target = QColor(0x3b, 0x5b, 0xdb);
        c.accepted = QColor(0x2b, 0x8a, 0x3e);
        c.rejected = QColor(0xc9, 0x2a, 0x2a);
        c.residual = QColor(0xd9, 0x48, 0x0f);
        c.bonus = QColor(0x70, 0x48, 0xe8);
    }
    c.overlap = mix(c.draft, c.target, 0.5);
    c.discarded = mix(c.text, c.base, 0.6);
    return c;
}

QColor LabColors::tint(const QColor &color, double amount) const
{
    return mix(base, color, amount);
}

} // namespace specdec::gui
