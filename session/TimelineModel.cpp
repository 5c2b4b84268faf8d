// SPDX-License-Identifier: GPL-3.0-or-later
#include "TimelineModel.h"

#include "TokenText.h"

namespace specdec::gui {

TimelineModel::TimelineModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void TimelineModel::setVocabulary(std::shared_ptr<const Tokenizer> vocabulary)
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
    const int before = rowCount();
    if (visibleRows(size) == before) { // played ahead: listed once the frame reveals them
        m_rows = size;
        return;
    }
    beginInsertRows({}, before, visibleRows(size) - 1);
    m_rows = size;
    endInsertRows();
}

void TimelineModel::setRevealed(int rows, int verdicts, bool committed)
{
    const int before = rowCount();
    const int lastBefore = before - 1;
    const int after = std::min(std::max(0, rows), m_rows);
    if (after > before)
        beginInsertRows({}, before, after - 1);
    else if (after < before)
        beginRemoveRows({}, after, before - 1);
    m_revealedRows = std::max(0, rows);
    m_partialVerdicts = verdicts;
    m_partialCommitted = committed;
    if (after > before)
        endInsertRows();
    else if (after < before)
        endRemoveRows();
    for (int row : {lastBefore, after - 1})
        if (row >= 0 && row < after)
            emit dataChanged(index(row), index(row));
}

int TimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : visibleRows(m_rows);
}

QVariant TimelineModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || !m_history)
        return {};
    if (!m_history->contains(index.row())) { // older than the rounds kept: only counted in the sums
        switch (role) {
        case Qt::DisplayRole: return QStringLiteral("%1   …").arg(index.row() + 1, 3);
        case Qt::ToolTipRole:
            return tr("Round %1: older than the %2 rounds kept; its numbers are in the totals only.")
                .arg(index.row() + 1)
                .arg(m_history->size() - m_history->first());
        case RoundRole: return index.row();
        default: return {};
        }
    }
    const RoundTrace &t = m_history->at(index.row()).trace;
    // The last row revealed may be a round still on screen: only its verdicts and tokens shown so far.
    const bool partial = m_revealedRows >= 0 && index.row() == rowCount() - 1;
    const int verdicts = partial ? m_partialVerdicts : t.draftLength;
    const bool committed = !partial || m_partialCommitted;
    // A view asks for many roles per row and paint; only the text roles need the glyphs.
    auto committedGlyphs = [&] {
        return m_vocabulary && committed ? tokensGlyphs(*m_vocabulary, t.committed) : QString();
    };
    switch (role) {
    case Qt::DisplayRole: {
        QString marks;
        for (int i = 0; i < t.draftLength; ++i) {
            const Verdict v = i < verdicts ? t.positions[static_cast<std::size_t>(i)].verdict : Verdict::Discarded;
            marks += v == Verdict::Accepted ? QStringLiteral("✓")
                : v == Verdict::Rejected    ? QStringLiteral("✗")
                                            : QStringLiteral("·");
        }
        return QStringLiteral("%1   %2   %3").arg(t.index + 1, 3).arg(marks, committedGlyphs());
    }
    case Qt::ToolTipRole:
        if (!committed)
            return tr("Round %1: on screen now. Click to replay it from its first phase.").arg(t.index + 1);
        return tr("Round %1: %2 of %3 drafts accepted, %4 tokens committed (“%5”). Click to replay it.")
            .arg(t.index + 1)
            .arg(t.acceptedCount())
            .arg(t.draftLength)
            .arg(t.committed.size())
            .arg(committedGlyphs());
    case RoundRole: return t.index;
    case AcceptedRole: return committed ? QVariant(t.acceptedCount()) : QVariant();
    case CommittedRole: return committedGlyphs();
    default: return {};
    }
}

} // namespace specdec::gui
