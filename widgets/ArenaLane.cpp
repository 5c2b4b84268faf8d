// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaLane.h"

#include <QFontMetricsF>
#include <QTextDocument>

#include "CardStrip.h"
#include "LabColors.h"
#include "TreeView.h"

#include <QApplication>
#include <QEvent>
#include <QFontInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

namespace specdec::gui {

ArenaLane::ArenaLane(QWidget *parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_badge(new QLabel(this))
    , m_cards(new CardStrip(this))
    , m_treeRow(new QWidget(this))
    , m_tree(new TreeView(m_treeRow))
    , m_treeSummary(new QLabel(m_treeRow))
    , m_transcript(new TranscriptView(this))
{
    setFrameShape(QFrame::StyledPanel);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_cards->setAnimationDuration(0);
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setVerticalSpacing(3);
    layout->addWidget(m_title, 0, 0);
    layout->addWidget(m_badge, 0, 1, Qt::AlignRight);
    layout->addWidget(m_cards, 1, 0, 1, 2);
    // A tree lane: the latest tree at its commit (the accepted path highlighted, the rest faded), and beside it
    // what a tree round is: the shape, the nodes drafted for one target pass, the accepted path per round.
    m_tree->setAnimationDuration(0);
    m_treeSummary->setTextFormat(Qt::RichText);
    m_treeSummary->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    auto *treeLayout = new QHBoxLayout(m_treeRow);
    treeLayout->setContentsMargins(0, 0, 0, 0);
    treeLayout->addWidget(m_tree, 1);
    treeLayout->addWidget(m_treeSummary);
    layout->addWidget(m_treeRow, 1, 0, 1, 2);
    m_treeRow->hide();
    layout->addWidget(m_transcript, 2, 0, 1, 2);
    fitToFont();
}

bool ArenaLane::largeText(const QWidget *widget)
{
    return QFontInfo(widget->font()).pointSizeF() >= 1.25 * QFontInfo(QApplication::font()).pointSizeF();
}

void ArenaLane::fitToFont()
{
    m_cards->setMinimumHeight(m_cards->minimumSizeHint().height());
    m_tree->setMinimumHeight(std::max(m_cards->minimumHeight(), m_tree->minimumSizeHint().height()));
    // Two whole lines of text (one when large), whatever the font; scrolled to its end, no line is cut.
    m_transcript->setWholeLines(largeText(this) ? 1 : 2);
}

void ArenaLane::setLane(const QString &title, const SessionInfo &session, const std::vector<TokenId> &baseline)
{
    m_title->setText(title);
    m_session = session;
    m_baseline = baseline;
    m_tokens.clear();
    m_metrics = {};
    m_cards->setVocabulary(session.vocabulary);
    m_cards->clear();
    m_tree->setVocabulary(session.vocabulary);
    m_tree->clear();
    m_lastTree.reset();
    m_pathLengths.clear();
    m_cards->show();
    m_treeRow->hide();
    m_transcript->setSession(session);
    updateBadge();
}

void ArenaLane::showHistory(const RoundHistory &history)
{
    m_tokens.clear();
    for (int i = 0; i < history.size(); ++i) {
        const auto committed = history.committed(i); // no record is rebuilt for this
        m_tokens.insert(m_tokens.end(), committed.begin(), committed.end());
    }
    if (!m_baseline.empty() && m_tokens.size() > m_baseline.size())
        m_tokens.resize(m_baseline.size()); // the last round's surplus is cut, as in a whole generation
    m_metrics = history.empty() ? RunMetrics{} : history.back().cumulative;
    const auto last = history.empty() ? nullptr : history.shared(history.size() - 1);
    m_lastTree = last ? last->tree : nullptr;
    m_pathLengths.clear();
    if (m_lastTree) {
        // Committed = the accepted path + one correction or bonus: the path's length without a record rebuilt.
        for (int i = 0; i < history.size(); ++i)
            m_pathLengths.push_back(std::max(0, static_cast<int>(history.committed(i).size()) - 1));
        m_tree->setRound(m_lastTree, Phase::Commit);
    } else if (last) {
        m_cards->setRound(last, Phase::Commit, false);
    }
    m_cards->setVisible(!m_lastTree);
    m_treeRow->setVisible(m_lastTree != nullptr);
    updateTreeSummary();
    m_transcript->showRounds(history, static_cast<int>(history.size()));
    updateBadge();
}

bool ArenaLane::showsTree() const
{
    return m_lastTree != nullptr;
}

QString ArenaLane::treeSummary() const
{
    return m_treeSummary->text();
}

void ArenaLane::updateTreeSummary()
{
    if (!m_lastTree) {
        m_treeSummary->clear();
        return;
    }
    const TreeTrace &t = *m_lastTree;
    const int depth = t.shape.depth();
    // The last rounds' path lengths (newest last, in bold), and the mean over every round.
    constexpr std::size_t kShown = 10;
    const std::size_t from = m_pathLengths.size() > kShown ? m_pathLengths.size() - kShown : 0;
    QStringList recent;
    for (std::size_t i = from; i < m_pathLengths.size(); ++i)
        recent << (i + 1 == m_pathLengths.size() ? QStringLiteral("<b>%1</b>").arg(m_pathLengths[i])
                                                 : QString::number(m_pathLengths[i]));
    double sum = 0;
    for (int n : m_pathLengths)
        sum += n;
    const double mean = m_pathLengths.empty() ? 0.0 : sum / static_cast<double>(m_pathLengths.size());
    const QStringList lines{
        tr("<b>tree %1</b>: %2 nodes, one target pass").arg(QString::fromStdString(t.shape.describe())).arg(t.draftedCount()),
        tr("accepted path per round (of %1):").arg(depth),
        (from > 0 ? QStringLiteral("… ") : QString()) + recent.join(QLatin1Char(' ')),
        tr("mean %1 + 1 correction or bonus").arg(mean, 0, 'f', 2),
    };
    m_treeSummary->setText(lines.join(QStringLiteral("<br>")));
    m_treeSummary->setToolTip(tr("Each round drafts the whole tree and the target scores every node in one pass; "
                                 "the dice then walk down it, and the number is how deep the accepted path went "
                                 "(0 to %1) before the correction or bonus token.")
                                  .arg(depth));
}

bool ArenaLane::sameAsBaseline() const
{
    const std::size_t n = std::min(m_tokens.size(), m_baseline.size());
    return std::equal(m_tokens.begin(), m_tokens.begin() + static_cast<std::ptrdiff_t>(n), m_baseline.begin());
}

QString ArenaLane::badgeText() const
{
    return m_badge->text();
}

void ArenaLane::updateBadge()
{
    const LabColors c = LabColors::from(palette());
    const QString passes = tr("%1 tokens · %2 target passes").arg(m_tokens.size()).arg(m_metrics.targetCalls);
    QString verdict;
    if (m_tokens.empty()) {
        verdict = QString();
    } else if (!m_session.greedy) {
        verdict = QStringLiteral("<span style=\"color:%1\">%2</span>")
                      .arg(c.muted.name(), tr("T > 0: a different sample of the same distribution").toHtmlEscaped());
    } else if (sameAsBaseline()) {
        verdict = QStringLiteral("<b style=\"color:%1\">%2</b>")
                      .arg(c.accepted.name(), tr("✓ same text as the target").toHtmlEscaped());
    } else {
        verdict = QStringLiteral("<b style=\"color:%1\">%2</b>")
                      .arg(c.rejected.name(), tr("✗ differs from the target's text").toHtmlEscaped());
    }
    m_badge->setText(verdict.isEmpty() ? passes.toHtmlEscaped()
                                       : verdict + QStringLiteral(" · ") + passes.toHtmlEscaped());
}

void ArenaLane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange) {
        updateBadge();
        updateTreeSummary();
    } else if (event->type() == QEvent::FontChange)
        fitToFont();
    QFrame::changeEvent(event);
}

} // namespace specdec::gui
