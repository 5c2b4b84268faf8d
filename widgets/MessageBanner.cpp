// SPDX-License-Identifier: GPL-3.0-or-later
#include "MessageBanner.h"

#include "LabColors.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace specdec::gui {

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_action(new QToolButton(this))
    , m_close(new QToolButton(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 8, 8);
    layout->addWidget(m_icon);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_action);
    layout->addWidget(m_close);
    m_action->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_action->hide();
    QFont iconFont = m_icon->font(); // relative to the window's font, so presenter mode scales it too
    if (iconFont.pointSizeF() > 0)
        iconFont.setPointSizeF(iconFont.pointSizeF() * 1.5);
    else
        iconFont.setPixelSize(iconFont.pixelSize() * 3 / 2);
    m_icon->setFont(iconFont);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    setObjectName(QStringLiteral("MessageBanner"));
    hide();
}

void MessageBanner::showMessage(Kind kind, const QString &text, QAction *action)
{
    if (m_action->defaultAction() != action) {
        if (m_action->defaultAction())
            m_action->removeAction(m_action->defaultAction());
        m_action->setDefaultAction(action);
    }
    m_action->setVisible(action != nullptr);
    m_kind = kind;
    const LabColors c = LabColors::from(palette());
    const QColor accent = kind == Kind::Error ? c.rejected : kind == Kind::Warning ? c.residual : c.target;
    setStyleSheet(QStringLiteral("#MessageBanner { background: %1; border: 1px solid %2; border-radius: 8px; }")
                      .arg(c.tint(accent, 0.12).name(), c.tint(accent, 0.6).name()));
    m_icon->setText(kind == Kind::Error ? QStringLiteral("⚠") : QStringLiteral("ℹ"));
    m_icon->setStyleSheet(QStringLiteral("color: %1;").arg(accent.name())); // its size: the font, 1.5× (below)
    m_text->setText(text);
    show();
}

QString MessageBanner::text() const
{
    return isVisible() ? m_text->text() : QString();
}

} // namespace specdec::gui
