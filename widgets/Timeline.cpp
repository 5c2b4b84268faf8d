// SPDX-License-Identifier: GPL-3.0-or-later
#include "Timeline.h"

#include "TimelineDelegate.h"

#include <QListView>
#include <QVBoxLayout>

namespace specdec::gui {

Timeline::Timeline(QWidget *parent)
    : QWidget(parent)
    , m_model(new TimelineModel(this))
    , m_view(new QListView(this))
{
    m_view->setModel(m_model);
    auto *delegate = new TimelineDelegate(m_view);
    m_view->setItemDelegate(delegate);
    connect(m_model, &QAbstractItemModel::modelReset, delegate, &TimelineDelegate::clearCache);
    m_view->setUniformItemSizes(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setAlternatingRowColors(true);
    // Wide enough for the round number, K = 8 verdicts and a few committed tokens.
    setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("000   ✓✓✓✓✓✓✓✓   abcdef")) + 12);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    connect(m_view, &QListView::clicked, this,
            [this](const QModelIndex &index) { emit roundActivated(index.data(TimelineModel::RoundRole).toInt()); });
    connect(m_view, &QListView::activated, this,
            [this](const QModelIndex &index) { emit roundActivated(index.data(TimelineModel::RoundRole).toInt()); });
}

void Timeline::setCurrentRound(int round)
{
    const QModelIndex index = m_model->index(round, 0);
    if (!index.isValid()) {
        m_view->selectionModel()->clear(); // no round on screen (Home): nothing highlighted
        return;
    }
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    m_view->scrollTo(index);
}

} // namespace specdec::gui
