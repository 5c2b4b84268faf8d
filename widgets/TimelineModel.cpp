// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineModel.h"

#include "TokenText.h"

namespace specdec::gui {

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void TimelineModel::setVocabulary(std::shared_ptr<const Vocabulary> vocabulary)
{
    m_vocabulary = std::move(vocabulary);
}

void TimelineModel::setHistory(const RoundHistory *history)
{
    beginResetModel();
    disconnect(m_added);
    disconnect(m_cleared);
    m_history = history;
    m_rows = history ? history->size() : 0;
    if (history) {
        m_added = connect(history, &RoundHistory::roundsAdded, this, &TimelineModel::onRoundsAdded);
        m_cleared = connect(history, &RoundHistory::cleared, this, [this] {
            beginResetModel();
            m_rows = 0;
            endResetModel();
        });
        connect(history, &QObject::destroyed, this, [this, history] {
            if (m_history == history)
                setHistory(nullptr);
        });
    }
    endResetModel();
}

void TimelineModel::onRoundsAdded()
{
    const int size = m_history ? m_history->size() : 0;
    if (size <= m_rows)
        return;
    beginInsertRows({}, m_rows, size - 1);
    m_rows = size;
    endInsertRows();
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || !m_history)
        return {};
    const RoundTrace &t = m_history->at(index.row()).trace;
    // A view asks for many roles per row and paint; only the text roles need the glyphs.
    auto committedGlyphs = [&] { return m_vocabulary ? tokensGlyphs(*m_vocabulary, t.committed) : QString(); };
    switch (role) {
    case Qt::DisplayRole: {
        QString marks;
        for (int i = 0; i < t.draftLength; ++i) {
            const Verdict v = t.positions[static_cast<std::size_t>(i)].verdict;
            marks += v == Verdict::Accepted ? QStringLiteral("✓") : v == Verdict::Rejected ? QStringLiteral("✗")
                                                                                            : QStringLiteral("·");
        }
        return QStringLiteral("%1   %2   %3").arg(t.index + 1, 3).arg(marks, committedGlyphs());
    }
    case Qt::ToolTipRole:
        return tr("Round %1: %2 of %3 drafts accepted, %4 tokens committed (“%5”). Click to replay it.")
            .arg(t.index + 1)
            .arg(t.acceptedCount())
            .arg(t.draftLength)
            .arg(t.committed.size())
            .arg(committedGlyphs());
    case RoundRole: return t.index;
    case AcceptedRole: return t.acceptedCount();
    case CommittedRole: return committedGlyphs();
    default: return {};
    }
}

} // namespace specdec::gui
