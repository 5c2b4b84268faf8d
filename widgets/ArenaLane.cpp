// SPDX-License-Identifier: GPL-3.0-or-later
#include "ArenaLane.h"

#include <QFontMetricsF>
#include <QTextDocument>

#include "CardStrip.h"
#include "LabColors.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>

#include <algorithm>

namespace specdec::gui {

ArenaLane::ArenaLane(QWidget *parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_badge(new QLabel(this))
    , m_cards(new CardStrip(this))
    , m_transcript(new TranscriptView(this))
{
    setFrameShape(QFrame::StyledPanel);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_cards->setAnimationDuration(0);
    m_cards->setMinimumHeight(m_cards->minimumSizeHint().height());
    // Two whole lines of text, whatever the font: the document margin and the frame on top.
    m_transcript->setFixedHeight(static_cast<int>(QFontMetricsF(m_transcript->font()).lineSpacing() * 2
                                                  + 2 * m_transcript->document()->documentMargin()
                                                  + 2 * m_transcript->frameWidth()) + 2);
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_title, 0, 0);
    layout->addWidget(m_badge, 0, 1, Qt::AlignRight);
    layout->addWidget(m_cards, 1, 0, 1, 2);
    layout->addWidget(m_transcript, 2, 0, 1, 2);
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
    if (!history.empty())
        m_cards->setRound(history.shared(history.size() - 1), Phase::Commit, false);
    m_transcript->showRounds(history, static_cast<int>(history.size()));
    updateBadge();
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
    m_badge->setText(verdict.isEmpty() ? passes.toHtmlEscaped() : verdict + QStringLiteral(" · ") + passes.toHtmlEscaped());
}

void ArenaLane::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        updateBadge();
    QFrame::changeEvent(event);
}

} // namespace specdec::gui
