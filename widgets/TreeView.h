// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TreeView: one token-tree round drawn as a tree, from a TreeFrame. The context is the root at the top;
// the tree grows one depth per draft step, the verify sweep scores every node at once, the dice roll down
// the tree child by child (each tested child shows the p' it was tested against, shrinking after every
// rejection), the accepted path is highlighted, discarded subtrees fade, and the correction or bonus hangs
// under the node where the path ended. Clicking a node emits nodeClicked.

#include "TreeFrame.h"
#include "Vocabulary.h"

#include <QRectF>
#include <QWidget>

#include <memory>
#include <vector>

namespace specdec::gui {

class TreeView : public QWidget
{
    Q_OBJECT
public:
    explicit TreeView(QWidget *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Vocabulary> vocabulary);
    /// Shows `trace` (kept alive by the caller's shared pointer) at (phase, step).
    void setRound(std::shared_ptr<const TreeTrace> trace, Phase phase, int step = TreeFrame::kAllSteps);
    void clear();

    const TreeFrame &frame() const { return m_frame; }
    /// Where node `node` is drawn (-1: the root), in widget coordinates; empty when not shown.
    QRectF nodeRect(int node) const;
    /// The node under `point`, -1 when none.
    int nodeAt(const QPointF &point) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void nodeClicked(int node);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void layoutNodes();

    std::shared_ptr<const Vocabulary> m_vocabulary;
    std::shared_ptr<const TreeTrace> m_trace;
    TreeFrame m_frame;
    std::vector<QRectF> m_rects; ///< index node + 1 (0: the root)
    QRectF m_outcomeRect;
};

} // namespace specdec::gui
