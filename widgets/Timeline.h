// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Timeline: every round so far as a list; clicking one asks to replay it from its stored trace.

#include "TimelineModel.h"

#include <QWidget>

class QListView;

namespace specdec::gui {

class Timeline : public QWidget
{
    Q_OBJECT
public:
    explicit Timeline(QWidget *parent = nullptr);

    TimelineModel *model() const { return m_model; }
    QListView *view() const { return m_view; }
    /// Highlights the row of `round` (without emitting roundActivated); -1 highlights none.
    void setCurrentRound(int round);

signals:
    void roundActivated(int round);

private:
    TimelineModel *m_model;
    QListView *m_view;
};

} // namespace specdec::gui
