// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TimelineModel: one row per round played — its verdicts (✓ ✗ ·), the tokens it committed and its numbers.
// It reads the session's RoundHistory (it copies no record) and follows its roundsAdded / cleared signals. Rounds
// the engine played ahead stay out until the window's frame reveals them (setRevealed).

#include "RoundHistory.h"

#include <QAbstractListModel>

#include <algorithm>

namespace specdec::gui {

class TimelineModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { RoundRole = Qt::UserRole + 1, AcceptedRole, CommittedRole };

    explicit TimelineModel(QObject *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Tokenizer> vocabulary);
    /// The history to list (not owned; it must outlive the model or be replaced first); nullptr lists none.
    void setHistory(const RoundHistory *history);
    const RoundHistory *history() const { return m_history; }
    /// Lists only what the class has seen (RoundFrame): the first `rows` rounds, the last of them with only
    /// its first `verdicts` verdicts and its tokens only when `committed`. -1 rows: every round (no reveal).
    void setRevealed(int rows, int verdicts, bool committed);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Tokenizer> m_vocabulary;
    void onRoundsAdded();

    const RoundHistory *m_history = nullptr;
    QMetaObject::Connection m_added, m_cleared;
    int m_rows = 0;          ///< rounds known (the history may already hold more, announced by roundsAdded)
    int m_revealedRows = -1; ///< rounds listed at most (-1: all)
    int m_partialVerdicts = 0;
    bool m_partialCommitted = true;
    int visibleRows(int rows) const { return m_revealedRows >= 0 ? std::min(rows, m_revealedRows) : rows; }
};

} // namespace specdec::gui
