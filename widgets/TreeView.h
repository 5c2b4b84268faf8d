// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TreeView: one token-tree round drawn as a tree, from a TreeFrame. The context is the root at the top;
// the tree grows one depth per draft step, the verify sweep scores every node at once, the dice roll down
// the tree child by child (each tested child shows the p' it was tested against, shrinking after every
// rejection), the accepted path is highlighted, discarded subtrees fade, and the correction or bonus hangs
// under the node where the path ended. Clicking a node emits nodeClicked.

#include "Tokenizer.h"
#include "TreeFrame.h"

#include <QPainterPath>
#include <QRectF>
#include <QVariantAnimation>
#include <QWidget>

#include <memory>
#include <vector>

class QPainter;

namespace specdec::gui {

class TreeView : public QWidget
{
    Q_OBJECT
public:
    explicit TreeView(QWidget *parent = nullptr);

    void setVocabulary(std::shared_ptr<const Tokenizer> vocabulary);
    /// Shows `trace` at (phase, step).
    void setRound(std::shared_ptr<const TreeTrace> trace, Phase phase, int step = TreeFrame::kAllSteps);
    /// Shows `trace` at `phase`; with `animate` the phase plays step by step over the animation duration
    /// (the tree grows depth by depth, the dice go child by child).
    void playPhase(std::shared_ptr<const TreeTrace> trace, Phase phase, bool animate);
    void setAnimationDuration(int milliseconds) { m_duration = milliseconds; }
    void finishAnimation();
    void clear();
    /// The node whose distributions are shown (outlined), -1 for none.
    void setSelectedNode(int node);
    int selectedNode() const { return m_selected; }

    const TreeFrame &frame() const { return m_frame; }
    /// Where node `node` is drawn (-1: the root), in widget coordinates; empty when not shown.
    QRectF nodeRect(int node) const;
    /// The numbers a node shows under its token at this frame ("q0.12", "q0.12 p0.30", "p'0.30 u0.41"), in
    /// numbersFont(); drawn when numbersShown().
    QString nodeNumbers(int node) const;
    /// The fonts follow the widget's font (×1.5 in presenter mode): a token at 1.5× the text where its box has
    /// room (labelFontFor), the numbers at 0.75×.
    QFont labelFont() const;
    QFont labelFontFor(const QRectF &box) const;
    QFont numbersFont() const;
    /// The nodes are tall enough for the token and the numbers under it.
    bool numbersShown() const { return m_numbersShown; }
    /// Where the correction or bonus is drawn; empty before it is known.
    QRectF outcomeRect() const { return m_frame.outcomeShown ? m_outcomeRect : QRectF(); }
    /// The dotted line from the node where the path ended to the correction or bonus: down, then along the gap
    /// right of that node's column (never through a node below it), then to the outcome's top. Empty before
    /// the outcome shows.
    QPainterPath outcomeConnector() const;
    /// The node under `point`: a node index, TreeFrame::kOutcome for the correction or bonus, -1 for none.
    int nodeAt(const QPointF &point) const;

    /// One sentence saying what `phase` of a tree round shows, translated.
    static QString phaseExplanation(Phase phase, bool greedy);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void nodeClicked(int node); ///< a node index or TreeFrame::kOutcome

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    bool event(QEvent *event) override; ///< a node's tooltip: its whole piece and id
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void layoutNodes();
    void showStep(int step);
    void drawLabel(QPainter &painter, const QRectF &box, const QString &token, const QString &numbers) const;

    std::shared_ptr<const Tokenizer> m_vocabulary;
    std::shared_ptr<const TreeTrace> m_trace;
    TreeFrame m_frame;
    std::vector<QRectF> m_rects; ///< index node + 1 (0: the root)
    QRectF m_outcomeRect;
    Phase m_phase = Phase::Draft;
    int m_selected = -1;
    bool m_numbersShown = false;
    int m_duration = 480;
    QVariantAnimation *m_animation;
};

} // namespace specdec::gui
