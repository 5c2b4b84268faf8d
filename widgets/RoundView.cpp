// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundView.h"

#include "FixedLabel.h"
#include "RoundFrame.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace specdec::gui {

RoundView::RoundView(QWidget *parent)
    : QWidget(parent)
    , m_transcript(new TranscriptView(this))
    , m_cardsArea(new QScrollArea(this))
    , m_cards(new CardStrip(this))
    , m_tree(new TreeView(this))
    , m_caches(new CacheStrip(this))
    , m_header(new FixedLabel(1, this))
    , m_explanation(new QLabel(this))
    , m_legend(new QLabel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    // The text takes what it needs (TranscriptView: no taller than its text), up to 2/5 of the spare height;
    // the cards (or the tree) take the rest. Before the first session there is no text: neither the box nor
    // its legend shows.
    layout->addWidget(m_transcript, 2);
    layout->addWidget(m_legend);
    layout->addSpacing(4);
    layout->addWidget(m_header);
    layout->addWidget(m_explanation);
    // The cards scroll sideways when K is too large for the window's width (K = 30: no card off-screen).
    m_cardsArea->setWidget(m_cards);
    m_cardsArea->setWidgetResizable(true);
    m_cardsArea->setFrameShape(QFrame::NoFrame);
    m_cardsArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_cardsArea->setFocusPolicy(Qt::NoFocus);
    m_cardsArea->setMinimumHeight(m_cards->minimumSizeHint().height());
    layout->addWidget(m_cardsArea, 3);
    layout->addWidget(m_tree, 3);
    m_tree->hide();
    m_transcript->hide();
    m_legend->hide();
    layout->addWidget(m_caches);
    QFont headerFont = m_header->font();
    headerFont.setPointSizeF(headerFont.pointSizeF() * 1.25);
    m_header->setFont(headerFont);
    m_header->setRichText(true);
    m_explanation->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true); // a narrow window (a 720p projector) wraps the legend instead of widening
    for (QWidget *label : std::initializer_list<QWidget *>{m_header, m_explanation, m_legend})
        label->setContentsMargins(12, 0, 12, 0);
    connect(m_cards, &CardStrip::cardClicked, this, &RoundView::cardSelected);
    connect(m_tree, &TreeView::nodeClicked, this, [this](int node) {
        m_tree->setSelectedNode(node);
        emit treeNodeSelected(node);
    });
    // A click anywhere on the round takes the keys back from a setup field (Space plays, arrows step): the
    // round view takes focus, its text and cards pass the click up to it.
    setFocusPolicy(Qt::ClickFocus);
    m_cards->setFocusPolicy(Qt::NoFocus);
    m_transcript->setFocusPolicy(Qt::NoFocus);
    m_tree->setFocusPolicy(Qt::NoFocus);
    retranslate();
}

void RoundView::setSession(const SessionInfo &session)
{
    m_cards->setVocabulary(session.vocabulary);
    m_tree->setVocabulary(session.vocabulary);
    m_transcript->setSession(session);
    m_transcript->setVisible(session.vocabulary != nullptr);
    m_legend->setVisible(session.vocabulary != nullptr);
    m_kvCache = session.kvCache;
    clear();
}

void RoundView::clear()
{
    m_record.reset();
    m_round = -1;
    m_cards->clear();
    m_tree->clear();
    m_caches->clear();
    updateHeader();
}

void RoundView::setAnimationDuration(int milliseconds)
{
    m_cards->setAnimationDuration(milliseconds);
    m_tree->setAnimationDuration(milliseconds);
}

void RoundView::showPosition(const RoundHistory &history, int round, Phase phase, bool animate, int step)
{
    if (!history.contains(round))
        return;
    m_record = history.shared(round);
    m_round = round;
    m_phase = phase;
    m_transcript->showRounds(history, phase == Phase::Commit ? round + 1 : round);
    const bool tree = m_record->tree != nullptr;
    m_cards->setVisible(!tree);
    m_cardsArea->setVisible(!tree);
    m_tree->setVisible(tree);
    if (tree) {
        m_cards->clear();
        m_tree->playPhase(m_record->tree, phase, animate);
    } else {
        m_tree->clear();
        m_cards->setRound(m_record, phase, animate, step);
    }
    // The caches of a chain round (a tree round's states hold its paths; its trace is the accepted path only).
    m_caches->setVisible(!tree && m_kvCache); // with the KV cache off there is no cache to draw
    m_caches->setFrame(tree ? RoundFrame{} : frameOf(traceOf(m_record), round, phase));
    updateHeader();
}

QString RoundView::headerText() const
{
    return m_header->text();
}

void RoundView::retranslate()
{
    retranslateLegend();
    updateHeader();
}

void RoundView::retranslateLegend()
{
    const LabColors c = LabColors::from(palette());
    auto swatch = [](const QColor &color, const QString &text) {
        return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2").arg(color.name(), text.toHtmlEscaped());
    };
    m_legend->setText(swatch(c.muted, tr("prompt")) + QStringLiteral("&nbsp;&nbsp; ")
                      + swatch(c.draft, tr("accepted from the apprentice (draft)")) + QStringLiteral("&nbsp;&nbsp; ")
                      + swatch(c.residual, tr("corrected from the residual")) + QStringLiteral("&nbsp;&nbsp; ")
                      + swatch(c.bonus, tr("bonus from the head chef (target)")));
}

void RoundView::updateHeader()
{
    const LabColors c = LabColors::from(palette());
    if (!m_record) {
        m_header->setText(tr("No round yet"));
        m_explanation->setText(tr("Press Space to play, or → to step one phase."));
        return;
    }
    QStringList chips;
    // Which of Residual and Bonus the round has is a result: before its dice are shown the chip names both.
    // (A tree round is shown whole per phase; a chain's cards may be at a step of the phase.)
    const bool known = m_record->tree ? frameOf(traceOf(m_record), m_round, m_phase).outcomeRevealed
                                      : m_cards->targetFrame().outcomeRevealed;
    for (Phase p : phasesOf(m_record->trace)) {
        const QString name = (p == Phase::Residual || p == Phase::Bonus) && !known
            ? tr("%1 or %2").arg(phaseName(Phase::Residual), phaseName(Phase::Bonus)).toHtmlEscaped()
            : phaseName(p).toHtmlEscaped();
        chips << (p == m_phase ? QStringLiteral("<b style=\"color:%1\">%2</b>").arg(c.target.name(), name)
                               : QStringLiteral("<span style=\"color:%1\">%2</span>").arg(c.muted.name(), name));
    }
    m_header->setText(tr("Round %1").arg(m_round + 1) + QStringLiteral("&nbsp;&nbsp; ")
                      + chips.join(QStringLiteral(" &nbsp;›&nbsp; ")));
    m_explanation->setText(m_record->tree ? TreeView::phaseExplanation(m_phase, m_record->trace.greedy)
                                          : phaseExplanation(m_phase, m_record->trace.greedy));
}

void RoundView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
