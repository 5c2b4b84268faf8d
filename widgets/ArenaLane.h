// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ArenaLane: one draft of the arena as a compact round view — its name, the latest round's cards (a chain)
// or its tree drawn with the accepted path (a token tree, with the shape and the accepted path's length per
// round beside it), its text so far, and a badge saying whether that text equals the target's own (greedy)
// and how many target passes it took.

#include "RoundRecord.h"
#include "TranscriptView.h"

#include <QFrame>

class QLabel;

namespace specdec::gui {

class CardStrip;
class TreeView;

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
    TreeView *tree() const { return m_tree; }
    /// A tree lane's summary: its shape and nodes, the accepted path's length in the last rounds, their mean.
    QString treeSummary() const;
    /// The lane shows its latest round as a tree (a token-tree lane), not as cards.
    bool showsTree() const;
    TranscriptView *transcript() const { return m_transcript; }
    /// Measures the heights that follow the text again (the transcript's two lines, one with large text).
    void fitToFont();
    /// The text is scaled up (presenter mode): 1.25× the application's font or more. The arena then keeps
    /// one line of each lane's text and shorter plots, so that it fits a 720p projector.
    static bool largeText(const QWidget *widget);

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateBadge();
    void updateTreeSummary();

    QLabel *m_title;
    QLabel *m_badge;
    CardStrip *m_cards;
    QWidget *m_treeRow;
    TreeView *m_tree;
    QLabel *m_treeSummary;
    std::shared_ptr<const TreeTrace> m_lastTree; ///< the latest round's tree (null: a chain lane)
    std::vector<int> m_pathLengths;              ///< accepted path length per round (tree lanes)
    TranscriptView *m_transcript;
    SessionInfo m_session;
    std::vector<TokenId> m_baseline;
    std::vector<TokenId> m_tokens;
    RunMetrics m_metrics;
};

} // namespace specdec::gui
