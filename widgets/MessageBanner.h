// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MessageBanner: a calm strip above the round view that says what went wrong (or what to know) in words a
// person can act on; the session stays usable underneath.

#include <QFrame>

class QAction;
class QLabel;
class QToolButton;

namespace specdec::gui {

class MessageBanner : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Info, Warning, Error };

    explicit MessageBanner(QWidget *parent = nullptr);

    /// Shows `text`; with `action`, a button for it (e.g. "Back to my session") beside the text.
    void showMessage(Kind kind, const QString &text, QAction *action = nullptr);
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel *m_icon;
    QLabel *m_text;
    QToolButton *m_action;
    QToolButton *m_close;
    Kind m_kind = Kind::Info;
};

} // namespace specdec::gui
