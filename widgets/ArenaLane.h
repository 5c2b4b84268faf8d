// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ArenaLane: one draft of the arena as a compact round view — its name, the latest round's cards, its text
// so far, and a badge saying whether that text equals the target's own (greedy) and how many target passes
// it took.

#include "RoundRecord.h"
#include "TranscriptView.h"

#include <QFrame>

class QLabel;

namespace specdec::gui {

class CardStrip;

class ArenaLane : public QFrame
{
    Q_OBJECT
public:
    explicit ArenaLane(QWidget *parent = nullptr);

    void setLane(const QString &title, const SessionInfo &session, const std::vector<TokenId> &baseline);
    void showHistory(const RoundHistory &history);

    /// The committed tokens so far.
    std::vector<TokenId> tokens() const { return m_tokens; }
    /// The committed text so far equals the start of the target's own text.
    bool sameAsBaseline() const;
    QString badgeText() const;
    CardStrip *cards() const { return m_cards; }
    TranscriptView *transcript() const { return m_transcript; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateBadge();

    QLabel *m_title;
    QLabel *m_badge;
    CardStrip *m_cards;
    TranscriptView *m_transcript;
    SessionInfo m_session;
    std::vector<TokenId> m_baseline;
    std::vector<TokenId> m_tokens;
    RunMetrics m_metrics;
};

} // namespace specdec::gui
