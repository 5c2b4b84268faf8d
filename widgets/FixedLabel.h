// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FixedLabel: a label for text that changes every frame (round counters, the numbers of a card). Its size
// hint depends on its font and line count only, never on its text, so a new text repaints the label alone
// instead of relayouting the window as QLabel::setText does. Plain or rich (HTML) text; a line that does not
// fit is clipped at the right edge.

#include <QTextDocument>
#include <QWidget>

namespace specdec::gui {

class FixedLabel : public QWidget
{
    Q_OBJECT
public:
    explicit FixedLabel(int lines = 1, QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    void clear() { setText(QString()); }
    void setRichText(bool rich);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void relayout();

    int m_lines;
    bool m_rich = false;
    QString m_text;
    QTextDocument m_document;
};

} // namespace specdec::gui
