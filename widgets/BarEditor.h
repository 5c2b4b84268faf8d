// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// BarEditor: a probability distribution over a small alphabet as bars the user drags to edit. Setting one
// bar rescales the others so the bars always sum to one.

#include <QStringList>
#include <QVector>
#include <QWidget>

namespace specdec::gui {

class BarEditor : public QWidget
{
    Q_OBJECT
public:
    explicit BarEditor(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    void setColor(const QColor &color);
    /// Shows `values` (normalised here if they do not sum to one) over `labels` (same length).
    void setValues(const QVector<double> &values, const QStringList &labels);
    QVector<double> values() const { return m_values; }
    QStringList labels() const { return m_labels; }

    /// Sets bar `index` to `value` (clamped to [0, 1]) and rescales the others to keep the sum at one;
    /// what a drag does.
    void setBar(int index, double value);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void edited(const QVector<double> &values);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QRectF plotRect() const;
    void dragTo(const QPointF &position);

    QString m_title;
    QColor m_color;
    QVector<double> m_values;
    QStringList m_labels;
    int m_dragged = -1;
};

} // namespace specdec::gui
