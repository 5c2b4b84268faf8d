// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TimelineModel: one row per round played — its verdicts (✓ ✗ ·), the tokens it committed and its numbers.
// It reads the session's RoundHistory (it copies no record) and follows its roundsAdded / cleared signals.

#include "RoundHistory.h"

#include <QAbstractListModel>

namespace specdec::gui {

class TimelineModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { RoundRole = Qt::UserRole + 1, AcceptedRole, CommittedRole };

    explicit TimelineModel(QObject *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Vocabulary> vocabulary);
    /// The history to list (not owned; it must outlive the model or be replaced first); nullptr lists none.
    void setHistory(const RoundHistory *history);
    const RoundHistory *history() const { return m_history; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Vocabulary> m_vocabulary;
    void onRoundsAdded();

    const RoundHistory *m_history = nullptr;
    QMetaObject::Connection m_added, m_cleared;
    int m_rows = 0; ///< rounds listed (the history may already hold more, announced by roundsAdded)
};

} // namespace specdec::gui
