// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TimelineModel: one row per round played — its verdicts (✓ ✗ ·), the tokens it committed and its numbers.

#include "TranscriptView.h"

#include <QAbstractListModel>

namespace specdec::gui {

class TimelineModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { RoundRole = Qt::UserRole + 1, AcceptedRole, CommittedRole };

    explicit TimelineModel(QObject *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Vocabulary> vocabulary);
    /// Adds the rounds of `history` not yet listed.
    void appendRounds(const History &history);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Vocabulary> m_vocabulary;
    History m_rounds;
};

} // namespace specdec::gui
