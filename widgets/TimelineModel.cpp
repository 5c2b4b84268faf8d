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

void TimelineModel::appendRounds(const History &history)
{
    const int first = static_cast<int>(m_rounds.size());
    const int last = static_cast<int>(history.size()) - 1;
    if (last < first)
        return;
    beginInsertRows({}, first, last);
    m_rounds.insert(m_rounds.end(), history.begin() + first, history.end());
    endInsertRows();
}

void TimelineModel::clear()
{
    beginResetModel();
    m_rounds.clear();
    endResetModel();
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rounds.size());
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const RoundTrace &t = m_rounds[static_cast<std::size_t>(index.row())]->trace;
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
