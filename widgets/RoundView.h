// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// RoundView: the centre of the window. The committed text so far (coloured by origin) above the current
// round's token cards, with the phase it is in and what that phase means, and the models' caches below them.

#include "CacheStrip.h"
#include "CardStrip.h"
#include "TranscriptView.h"
#include "TreeView.h"

#include <QWidget>

class QLabel;
class QScrollArea;

namespace specdec::gui {
class FixedLabel;
}

namespace specdec::gui {

class RoundView : public QWidget
{
    Q_OBJECT
public:
    explicit RoundView(QWidget *parent = nullptr);

    void setSession(const SessionInfo &session);
    /// Shows round `round` of `history` at `phase` after `step` of its steps (RoundFrame.h); the transcript
    /// holds the text before it (and its own tokens once the phase is Commit).
    void showPosition(const RoundHistory &history, int round, Phase phase, bool animate,
                      int step = RoundFrame::kAllSteps);
    void clear();
    void setAnimationDuration(int milliseconds);

    CardStrip *cards() const { return m_cards; }
    /// The tree of a token-tree round (shown instead of the cards for tree rounds).
    TreeView *tree() const { return m_tree; }
    CacheStrip *caches() const { return m_caches; }
    TranscriptView *transcript() const { return m_transcript; }
    Phase phase() const { return m_phase; }
    int round() const { return m_round; }
    QString headerText() const;

signals:
    void cardSelected(int card);
    void treeNodeSelected(int node); ///< a node of the tree (TreeFrame::kOutcome: the correction or bonus)

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void retranslateLegend();
    void updateHeader();

    TranscriptView *m_transcript;
    QScrollArea *m_cardsArea;
    CardStrip *m_cards;
    TreeView *m_tree;
    CacheStrip *m_caches;
    FixedLabel *m_header;
    QLabel *m_explanation;
    QLabel *m_legend;
    std::shared_ptr<const RoundRecord> m_record;
    Phase m_phase = Phase::Draft;
    int m_round = -1;
    bool m_kvCache = true; ///< the session decodes with caches: the cache strip is shown
};

} // namespace specdec::gui
