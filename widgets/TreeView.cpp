// SPDX-License-Identifier: GPL-3.0-or-later
#include "TreeView.h"

#include "LabColors.h"
#include "NumberText.h"
#include "TokenText.h"

#include <QFontInfo>
#include <QFontMetricsF>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

namespace {
constexpr double kMargin = 8.0;
} // namespace

TreeView::TreeView(QWidget *parent)
    : QWidget(parent)
    , m_animation(new QVariantAnimation(this))
{
    setMouseTracking(false);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        if (!m_trace)
            return;
        const int count = treeStepsOf(*m_trace, m_phase);
        const double progress = v.toDouble();
        showStep(progress >= 1.0 ? TreeFrame::kAllSteps
                                 : std::max(1, static_cast<int>(std::ceil(progress * count - 1e-9))));
    });
}

void TreeView::playPhase(std::shared_ptr<const TreeTrace> trace, Phase phase, bool animate)
{
    m_animation->stop();
    const bool newRound = trace != m_trace;
    m_trace = std::move(trace);
    m_phase = phase;
    if (newRound)
        m_selected = -1;
    if (animate && m_duration > 0 && m_trace && treeStepsOf(*m_trace, phase) > 1) {
        showStep(1);
        m_animation->setDuration(m_duration);
        m_animation->start();
    } else {
        showStep(TreeFrame::kAllSteps);
    }
}

void TreeView::finishAnimation()
{
    m_animation->stop();
    showStep(TreeFrame::kAllSteps);
}

void TreeView::showStep(int step)
{
    m_frame = m_trace ? treeFrameAt(*m_trace, m_phase, step) : TreeFrame{};
    layoutNodes();
    update();
}

void TreeView::setSelectedNode(int node)
{
    m_selected = node;
    update();
}

void TreeView::setVocabulary(std::shared_ptr<const Tokenizer> vocabulary)
{
    m_vocabulary = std::move(vocabulary);
    update();
}

void TreeView::setRound(std::shared_ptr<const TreeTrace> trace, Phase phase, int step)
{
    m_animation->stop();
    m_trace = std::move(trace);
    m_phase = phase;
    showStep(step);
}

QString TreeView::phaseExplanation(Phase phase, bool greedy)
{
    switch (phase) {
    case Phase::Draft:
        return tr("The apprentice drafts a tree, one depth per call: every node gets its children drawn "
                  "independently from q at that node.");
    case Phase::Verify:
        return tr("The head chef scores every node of the tree in one forward pass (one row per root-to-leaf "
                  "path); each node gets p(x).");
    case Phase::Dice:
        return greedy ? tr("Greedy: at each node the child equal to the target's most probable token is kept.")
                      : tr("From the top, children are tested one by one: keep x when u < min(1, p′(x)/q(x)); "
                           "after each rejection p′ becomes norm(max(0, p′ − q)).");
    case Phase::Residual:
        return greedy ? tr("No child matched: the target's most probable token is taken.")
                      : tr("Every child of the node was rejected: the correction is drawn from the last p′.");
    case Phase::Bonus: return tr("A leaf was accepted: p after it gives one more token for free.");
    case Phase::Commit:
        return tr("The accepted path and the correction or bonus join the text; the other branches are "
                  "discarded.");
    }
    return {};
}

void TreeView::clear()
{
    setRound(nullptr, Phase::Draft);
}

QSize TreeView::sizeHint() const
{
    return {640, 260};
}

QSize TreeView::minimumSizeHint() const
{
    // The root, three depths and the outcome, each a line of text.
    const QFontMetrics m(font());
    return {240, std::max(120, 5 * (m.height() + 6) + 2 * static_cast<int>(kMargin))};
}

void TreeView::resizeEvent(QResizeEvent *event)
{
    layoutNodes();
    QWidget::resizeEvent(event);
}

void TreeView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        update();
    QWidget::changeEvent(event);
}

void TreeView::layoutNodes()
{
    m_rects.clear();
    m_outcomeRect = {};
    if (!m_trace)
        return;
    const TreeTrace &t = *m_trace;
    const int depth = std::max(1, t.shape.depth());
    const auto count = t.nodes.size();
    m_rects.assign(count + 1, QRectF());
    // Leaves take one slot each from left to right; a parent sits above the middle of its children.
    std::vector<double> slot(count + 1, 0.0);
    std::vector<std::vector<int>> children(count + 1);
    for (std::size_t n = 0; n < count; ++n)
        children[static_cast<std::size_t>(t.nodes[n].parent + 1)].push_back(static_cast<int>(n));
    double next = 0.0;
    std::vector<int> order; // post-order
    std::vector<std::pair<int, std::size_t>> stack{{-1, 0}};
    while (!stack.empty()) {
        auto &[node, child] = stack.back();
        const auto &kids = children[static_cast<std::size_t>(node + 1)];
        if (child < kids.size()) {
            const int k = kids[child++];
            stack.push_back({k, 0});
            continue;
        }
        if (kids.empty())
            slot[static_cast<std::size_t>(node + 1)] = next++;
        else
            slot[static_cast<std::size_t>(node + 1)] = 0.5
                * (slot[static_cast<std::size_t>(kids.front() + 1)] + slot[static_cast<std::size_t>(kids.back() + 1)]);
        stack.pop_back();
    }
    const double slotCount = std::max(1.0, next);
    const double rows = depth + 2.0; // the root, D depths, the outcome
    const double cellW = (width() - 2 * kMargin) / slotCount;
    const double cellH = (height() - 2 * kMargin) / rows;
    // A node's box follows the text (presenter mode scales it): the token's line and the numbers' line as far
    // as the row allows, the numbers' width as far as the column allows.
    const QFontMetricsF label(labelFont()), numbers(numbersFont());
    const double em = QFontInfo(font()).pixelSize();
    const double text = QFontMetricsF(font()).height();
    const double full = label.height() + numbers.height() + 6;
    const double h = std::max(std::min(cellH * 0.9, full), std::min(cellH * 0.95, text + 2));
    const double wide = std::max(5.5 * em, numbers.horizontalAdvance(QStringLiteral("p'0.00 u0.00")) + 8);
    const double w = std::max(std::min(cellW * 0.86, wide), std::min(cellW * 0.95, 1.5 * em));
    m_numbersShown = h >= text + numbers.height() + 3; // the token then fits at the text's size or larger
    auto rectAt = [&](double s, int row) {
        const double cx = kMargin + (s + 0.5) * cellW, cy = kMargin + (row + 0.5) * cellH;
        return QRectF(cx - w / 2, cy - h / 2, w, h);
    };
    m_rects[0] = rectAt(slot[0], 0);
    for (std::size_t n = 0; n < count; ++n)
        m_rects[n + 1] = rectAt(slot[n + 1], t.nodes[n].depth);
    if (m_frame.outcomeShown) {
        const int end = t.acceptedPath.empty() ? -1 : t.acceptedPath.back();
        const double s = slot[static_cast<std::size_t>(end + 1)];
        m_outcomeRect = rectAt(s, depth + 1); // its own row under the tree, below the node where the path ended
    }
}

QPainterPath TreeView::outcomeConnector() const
{
    QPainterPath path;
    if (!m_frame.trace || !m_frame.outcomeShown || m_outcomeRect.isEmpty())
        return path;
    const TreeTrace &t = *m_frame.trace;
    const int end = t.acceptedPath.empty() ? -1 : t.acceptedPath.back();
    const QRectF from = m_rects[static_cast<std::size_t>(end + 1)];
    // Half-way into the gap under the node and above the outcome (the rows' gaps hold no node).
    double below = m_outcomeRect.top(), above = from.bottom();
    for (std::size_t i = 1; i < m_rects.size(); ++i) {
        const QRectF &r = m_rects[i];
        if (!r.isEmpty() && r.top() >= from.bottom())
            below = std::min(below, r.top());
        if (!r.isEmpty() && r.bottom() <= m_outcomeRect.top())
            above = std::max(above, r.bottom());
    }
    below = from.bottom() + std::min(6.0, (below - from.bottom()) / 2);
    above = m_outcomeRect.top() - std::min(6.0, (m_outcomeRect.top() - above) / 2);
    // Down a column no node stands in between those heights, the one nearest the node's centre.
    QList<QPair<double, double>> blocked;
    for (std::size_t i = 1; i < m_rects.size(); ++i) {
        const QRectF &r = m_rects[i];
        if (!r.isEmpty() && r.bottom() > below && r.top() < above)
            blocked.append({r.left() - 3, r.right() + 3});
    }
    auto free = [&](double x) {
        return std::none_of(blocked.begin(), blocked.end(), [x](const auto &b) { return x > b.first && x < b.second; });
    };
    double x = from.center().x();
    if (!free(x)) {
        double best = width();
        for (const auto &b : std::as_const(blocked))
            for (double candidate : {b.first, b.second})
                if (free(candidate) && std::abs(candidate - from.center().x()) < std::abs(best - from.center().x()))
                    best = candidate;
        x = best;
    }
    path.moveTo(from.center().x(), from.bottom());
    path.lineTo(from.center().x(), below);
    path.lineTo(x, below);
    path.lineTo(x, above);
    path.lineTo(m_outcomeRect.center().x(), above);
    path.lineTo(m_outcomeRect.center().x(), m_outcomeRect.top());
    return path;
}

QString TreeView::nodeNumbers(int node) const
{
    if (node < 0 || node >= static_cast<int>(m_frame.nodes.size()))
        return {};
    const TreeNodeFrame &nf = m_frame.nodes[static_cast<std::size_t>(node)];
    if (nf.pUsed)
        return tr("p'%1 u%2")
            .arg(*nf.pUsed, 0, 'f', 2)
            .arg(nf.u ? dieTexts(*nf.u, nf.threshold.value_or(1.0), 2).u : QStringLiteral("-")); // u rounded down
    if (nf.p)
        return tr("q%1 p%2").arg(*nf.q, 0, 'f', 2).arg(*nf.p, 0, 'f', 2);
    if (nf.q)
        return tr("q%1").arg(*nf.q, 0, 'f', 2);
    return {};
}

QFont TreeView::numbersFont() const
{
    QFont small = font();
    small.setPixelSize(std::max(10, qRound(QFontInfo(font()).pixelSize() * 0.85))); // read from the back row
    return small;
}

QFont TreeView::labelFont() const
{
    QFont large = font();
    large.setPixelSize(qRound(QFontInfo(font()).pixelSize() * 1.5));
    return large;
}

QFont TreeView::labelFontFor(const QRectF &box) const
{
    // The token as large as labelFont() where the box has room for it (and the numbers under it), smaller
    // down to the widget's own font in a short box.
    const double room = m_numbersShown ? box.height() - QFontMetricsF(numbersFont()).height() - 3 : box.height() - 2;
    QFont f = labelFont();
    const int smallest = QFontInfo(font()).pixelSize();
    while (f.pixelSize() > smallest && QFontMetricsF(f).height() > room)
        f.setPixelSize(f.pixelSize() - 1);
    return f;
}

QRectF TreeView::nodeRect(int node) const
{
    const auto i = static_cast<std::size_t>(node + 1);
    if (i >= m_rects.size())
        return {};
    if (node >= 0 && m_frame.nodes[static_cast<std::size_t>(node)].state == TreeNodeFrame::State::Hidden)
        return {};
    return m_rects[i];
}

int TreeView::nodeAt(const QPointF &point) const
{
    for (int n = 0; n + 1 < static_cast<int>(m_rects.size()); ++n)
        if (nodeRect(n).contains(point))
            return n;
    if (m_frame.outcomeShown && m_outcomeRect.contains(point))
        return TreeFrame::kOutcome;
    return -1;
}

bool TreeView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_trace && m_vocabulary) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const TreeTrace &t = *m_trace;
        const int n = nodeAt(help->pos());
        const TokenId token = n == TreeFrame::kOutcome       ? (t.stoppedAtDepth >= 0 ? t.correction : t.bonus)
            : n >= 0 && n < static_cast<int>(t.nodes.size()) ? t.nodes[static_cast<std::size_t>(n)].token
                                                             : -1;
        if (token >= 0) {
            QToolTip::showText(help->globalPos(), tokenLook(*m_vocabulary, token).toolTip, this);
            return true;
        }
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    return QWidget::event(event);
}

void TreeView::mousePressEvent(QMouseEvent *event)
{
    const int n = nodeAt(event->position());
    if (n != -1)
        emit nodeClicked(n);
    QWidget::mousePressEvent(event);
}

void TreeView::drawLabel(QPainter &painter, const QRectF &box, const QString &whole, const QString &numbers) const
{
    const QFont label = labelFontFor(box);
    painter.setFont(label);
    // A piece longer than its node is cut with "…" (the node's tooltip holds it whole).
    const QString token = QFontMetricsF(label).elidedText(whole, Qt::ElideRight, box.width() - 4);
    if (!m_numbersShown || numbers.isEmpty()) {
        painter.drawText(box, Qt::AlignCenter, token);
        return;
    }
    const QFontMetricsF m(label), n(numbersFont());
    const double top = box.top() + (box.height() - m.height() - n.height() - 2) / 2;
    painter.drawText(QRectF(box.left(), top, box.width(), m.height()), Qt::AlignCenter, token);
    painter.setFont(numbersFont());
    painter.drawText(QRectF(box.left() + 1, top + m.height() + 2, box.width() - 2, n.height()), Qt::AlignCenter, numbers);
}

void TreeView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const LabColors c = LabColors::from(palette());
    painter.fillRect(rect(), c.base);
    if (!m_trace || m_rects.empty())
        return;
    const TreeTrace &t = *m_trace;
    const QFont small = numbersFont();

    auto stateColor = [&](TreeNodeFrame::State s) {
        switch (s) {
        case TreeNodeFrame::State::Accepted: return c.accepted;
        case TreeNodeFrame::State::Rejected: return c.rejected;
        case TreeNodeFrame::State::Faded: return c.discarded;
        case TreeNodeFrame::State::Scored: return c.target;
        case TreeNodeFrame::State::Drafted:
        case TreeNodeFrame::State::Hidden: break;
        }
        return c.draft;
    };
    // Edges first, the accepted path thick.
    for (std::size_t n = 0; n < t.nodes.size(); ++n) {
        const TreeNodeFrame &nf = m_frame.nodes[n];
        if (nf.state == TreeNodeFrame::State::Hidden)
            continue;
        const QRectF from = m_rects[static_cast<std::size_t>(t.nodes[n].parent + 1)];
        const QRectF to = m_rects[n + 1];
        QColor edge = nf.onPath ? c.accepted : c.border;
        if (nf.state == TreeNodeFrame::State::Faded)
            edge.setAlphaF(0.3);
        painter.setPen(QPen(edge, nf.onPath ? 3.0 : 1.0));
        painter.drawLine(QPointF(from.center().x(), from.bottom()), QPointF(to.center().x(), to.top()));
    }
    // The verify sweep: one band over every node.
    if (m_frame.sweeping) {
        QColor band = c.target;
        band.setAlphaF(0.12);
        painter.fillRect(QRectF(0, m_rects[0].bottom(), width(), height() - m_rects[0].bottom()), band);
    }
    // The root: the committed context.
    painter.setPen(QPen(c.border, 1));
    painter.setBrush(c.card);
    painter.drawRoundedRect(m_rects[0], 4, 4);
    painter.setPen(c.muted);
    painter.setFont(small);
    painter.drawText(m_rects[0], Qt::AlignCenter, tr("context"));
    // Nodes.
    for (std::size_t n = 0; n < t.nodes.size(); ++n) {
        const TreeNodeFrame &nf = m_frame.nodes[n];
        if (nf.state == TreeNodeFrame::State::Hidden)
            continue;
        const QRectF r = m_rects[n + 1];
        const bool faded = nf.state == TreeNodeFrame::State::Faded;
        QColor stroke = stateColor(nf.state);
        QColor fill = c.tint(stroke, nf.onPath ? 0.35 : 0.15);
        if (faded) {
            stroke.setAlphaF(0.35);
            fill.setAlphaF(0.35);
        }
        painter.setPen(
            QPen(stroke, static_cast<int>(n) == m_frame.currentNode || static_cast<int>(n) == m_selected ? 2.5 : 1.2));
        painter.setBrush(fill);
        painter.drawRoundedRect(r, 4, 4);
        QColor text = c.text;
        if (faded)
            text.setAlphaF(0.4);
        painter.setPen(text);
        const QString token = m_vocabulary ? tokenGlyph(*m_vocabulary, t.nodes[n].token)
                                           : QString::number(t.nodes[n].token);
        drawLabel(painter, r, token, nodeNumbers(static_cast<int>(n)));
    }
    // The correction or the bonus, hung under the node where the path ended.
    if (m_frame.outcomeShown && !m_outcomeRect.isEmpty()) {
        const bool correction = t.stoppedAtDepth >= 0;
        const QColor color = correction ? c.residual : c.bonus;
        painter.setPen(QPen(color, 2, Qt::DotLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(outcomeConnector());
        painter.setPen(QPen(color, 2, Qt::DashLine));
        painter.setBrush(c.tint(color, 0.25));
        painter.drawRoundedRect(m_outcomeRect, 4, 4);
        painter.setPen(c.text);
        const TokenId token = correction ? t.correction : t.bonus;
        drawLabel(painter, m_outcomeRect, m_vocabulary ? tokenGlyph(*m_vocabulary, token) : QString::number(token),
                  correction ? tr("from p'") : tr("bonus"));
    }
}

} // namespace specdec::gui
