// SPDX-License-Identifier: GPL-3.0-or-later
#include "TranscriptView.h"

#include "TokenText.h"

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlockFormat>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace specdec::gui {

namespace {
constexpr int kMaxCharacters = 2400;    ///< the transcript keeps about this much recent text
constexpr int kMaxRoundsAppended = 400; ///< more rounds than this could not stay on screen anyway
constexpr int kMargin = 12;             ///< the text's margin (with whole lines: left and right of the text)
constexpr int kLinesPadding = 1;        ///< with whole lines: above and below the text area
} // namespace

TranscriptView::TranscriptView(QWidget *parent)
    : QTextBrowser(parent)
    , m_colors(LabColors::from(palette()))
{
    setReadOnly(true);
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    setMinimumHeight(56);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.35);
    setFont(f);
    document()->setDocumentMargin(kMargin);
    // Read-only text that grows every round: an undo stack would keep every insertion and every trimmed
    // head (memory growing with the rounds played).
    document()->setUndoRedoEnabled(false);
    // The document lays itself out again after each edit and on a new width or font: the box follows.
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &TranscriptView::fitToText);
    fitToText();
}

int TranscriptView::contentHeight() const
{
    const double margins = 2 * document()->documentMargin();
    const double twoLines = 2 * QFontMetricsF(font()).lineSpacing() + margins;
    const double text = std::max(document()->size().height(), twoLines);
    return std::max(minimumHeight(), static_cast<int>(std::ceil(text)) + 2 * frameWidth());
}

void TranscriptView::fitToText()
{
    if (m_wholeLines > 0)
        return; // a fixed number of whole lines (setWholeLines)
    const int h = contentHeight();
    if (h != maximumHeight())
        setMaximumHeight(h);
}

void TranscriptView::setSession(const SessionInfo &session)
{
    m_vocabulary = session.vocabulary;
    m_prompt = session.prompt;
    rebuild(nullptr, 0);
}

void TranscriptView::showRounds(const RoundHistory &history, int rounds)
{
    rounds = std::min(rounds, history.size());
    // The last round shown, when the history still has it (a long session drops its oldest rounds).
    auto lastShown = [&](int shown) {
        return history.contains(shown - 1) ? history.shared(shown - 1) : std::shared_ptr<const RoundRecord>();
    };
    auto isLast = [&](int shown) {
        const auto last = m_last.lock();
        return last && lastShown(shown) == last;
    };
    if (rounds == m_shown && (rounds == 0 || isLast(rounds)))
        return;
    // Moving forward over the same rounds appends; anything else (a jump back, another session, a first
    // round that is not round 0: the text before it is elided) rebuilds.
    const int from = std::max({m_shown, rounds - kMaxRoundsAppended, history.first()});
    if (rounds > m_shown && ((m_shown == 0 && from == 0) || (m_shown > 0 && isLast(m_shown)))) {
        // One edit block: the document is laid out once, not once per inserted run.
        QTextCursor block(document());
        const int appendedAt = document()->characterCount() - 1;
        block.beginEditBlock();
        for (int r = from; r < rounds; ++r)
            appendRound(history.at(r));
        block.endEditBlock();
        m_last = lastShown(rounds);
        m_shown = rounds;
        // Only the blocks the rounds added get the line height: formatting the whole text again would lay it
        // all out again every round. (A trimmed head moves positions back: then the last block, at least.)
        keepWholeLines(std::min(appendedAt, document()->lastBlock().position()));
    } else {
        rebuild(&history, rounds); // formats the whole text
    }
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TranscriptView::setWholeLines(int lines)
{
    m_wholeLines = std::max(0, lines);
    if (m_wholeLines == 0) {
        setViewportMargins(0, 0, 0, 0);
        setMinimumHeight(56);
        fitToText();
    } else {
        setViewportMargins(0, kLinesPadding, 0, kLinesPadding);
        setFixedHeight(m_wholeLines * lineHeight() + 2 * kLinesPadding + 2 * frameWidth());
    }
    keepWholeLines();
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

int TranscriptView::lineHeight() const
{
    QFont bold = font();
    bold.setWeight(QFont::DemiBold);
    qreal height = QFontMetricsF(font()).lineSpacing();
    for (const QFont &f : {font(), bold}) {
        QTextLayout layout(QStringLiteral("Wgjy␣…风雪月"), f);
        layout.beginLayout();
        QTextLine line = layout.createLine();
        line.setLineWidth(1e6);
        layout.endLayout();
        height = std::max(height, line.height() + line.leading());
    }
    return static_cast<int>(std::ceil(height)) + 1; // a pixel of slack: a line never reaches into the next
}

void TranscriptView::keepWholeLines(int from)
{
    if (m_wholeLines > 0) {
        // No margin above or below the text (the padding is outside the viewport): scrolled to its end, the
        // viewport's top falls on a line's top.
        QTextFrameFormat frame = document()->rootFrame()->frameFormat();
        frame.setTopMargin(0);
        frame.setBottomMargin(0);
        document()->rootFrame()->setFrameFormat(frame);
    }
    // Every line equally tall (a bold token or a CJK glyph does not make its line taller), so that a box of
    // free height can show whole lines too (alignEnd).
    QTextBlockFormat block;
    block.setLineHeight(lineHeight(), QTextBlockFormat::FixedHeight);
    QTextCursor blocks(document());
    blocks.setPosition(std::clamp(from, 0, document()->characterCount() - 1));
    blocks.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
    blocks.mergeBlockFormat(block);
    alignEnd();
}

void TranscriptView::alignEnd()
{
    if (m_wholeLines > 0)
        return; // setWholeLines sized the box for its lines
    // Scrolled to its end, the text area shows the bottom margin and the lines above it: a text area of
    // bottom margin + n whole lines starts on a line's top. The rest of the box goes above it, as padding.
    const int inner = height() - 2 * frameWidth();
    const double bottom = document()->rootFrame()->frameFormat().bottomMargin();
    const int line = lineHeight();
    int top = 0;
    if (document()->size().height() > inner && line > 0) {
        const int lines = std::max(1, static_cast<int>((inner - bottom) / line));
        top = std::max(0, inner - static_cast<int>(std::ceil(bottom)) - lines * line);
    }
    if (viewportMargins().top() != top) {
        setViewportMargins(0, top, 0, 0);
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    }
}

void TranscriptView::resizeEvent(QResizeEvent *event)
{
    const bool atEnd = verticalScrollBar()->value() == verticalScrollBar()->maximum();
    QTextBrowser::resizeEvent(event);
    alignEnd();
    if (atEnd)
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TranscriptView::rebuild(const RoundHistory *history, int rounds)
{
    clear();
    if (!history)
        rounds = 0;
    m_shown = 0;
    m_last.reset();
    if (!m_vocabulary)
        return;
    QTextCursor cursor(document());
    QTextCharFormat prompt;
    prompt.setForeground(m_colors.muted);
    cursor.insertText(visibleControls(tokensString(*m_vocabulary, m_prompt)), prompt);
    cursor.beginEditBlock();
    const int from = std::max({0, rounds - kMaxRoundsAppended, history ? history->first() : 0});
    // The text goes on from the tokens before the first round shown (SentencePiece keeps a space only after text).
    m_stream = std::make_unique<TextStream>(*m_vocabulary,
                                            from > 0 && history->contains(from - 1)
                                                ? std::span<const TokenId>(history->at(from - 1).trace.committed)
                                                : std::span<const TokenId>(m_prompt));
    m_pendingLength = 0;
    if (from > 0) // the text of the rounds before `from` is not shown (or no longer kept)
        cursor.insertText(QStringLiteral(" … "), prompt);
    for (int i = from; i < rounds; ++i)
        appendRound(history->at(i));
    cursor.endEditBlock();
    m_shown = rounds;
    if (rounds > 0 && history->contains(rounds - 1))
        m_last = history->shared(rounds - 1);
    keepWholeLines();
}

void TranscriptView::appendRound(const RoundRecord &record)
{
    if (!m_vocabulary || !m_stream)
        return;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    if (m_pendingLength > 0) { // the bytes shown last time come back as the character they complete
        cursor.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, m_pendingLength);
        cursor.removeSelectedText();
        m_pendingLength = 0;
    }
    const RoundTrace &t = record.trace;
    // the run's text: the round's committed tokens up to what the run kept (the cap, the end-of-text token)
    const auto committed = std::span(t.committed)
                               .first(record.kept < 0
                                          ? t.committed.size()
                                          : std::min(t.committed.size(), static_cast<std::size_t>(record.kept)));
    const int accepted = std::min(t.acceptedCount(), static_cast<int>(committed.size()));
    // accepted drafts in one run, then the correction or bonus token
    QTextCharFormat draft;
    draft.setForeground(m_colors.draft);
    draft.setBackground(m_colors.tint(m_colors.draft, 0.10));
    cursor.insertText(
        visibleControls(QString::fromStdString(m_stream->push(committed.first(static_cast<std::size_t>(accepted))))),
        draft);
    if (static_cast<int>(committed.size()) > accepted) {
        const bool residual = originOf(t, accepted) == Origin::Residual;
        QTextCharFormat last;
        const QColor color = residual ? m_colors.residual : m_colors.bonus;
        last.setForeground(color);
        last.setBackground(m_colors.tint(color, 0.14));
        last.setFontWeight(QFont::DemiBold);
        cursor.insertText(visibleControls(QString::fromStdString(
                              m_stream->push(committed.subspan(static_cast<std::size_t>(accepted))))),
                          last);
    }
    // Keep the layout cheap in long runs: only the most recent text stays on screen.
    if (document()->characterCount() > kMaxCharacters) {
        QTextCursor head(document());
        head.setPosition(document()->characterCount() - kMaxCharacters / 2, QTextCursor::KeepAnchor);
        head.removeSelectedText();
        QTextCharFormat muted;
        muted.setForeground(m_colors.muted);
        head.insertText(QStringLiteral("… "), muted);
    }
    if (const QString pending = pendingBytesText(m_stream->pending()); !pending.isEmpty()) {
        QTextCharFormat chip;
        chip.setForeground(m_colors.muted);
        chip.setBackground(m_colors.tint(m_colors.muted, 0.18));
        chip.setFontFamilies({QFontDatabase::systemFont(QFontDatabase::FixedFont).family()});
        chip.setToolTip(tr("Bytes of a character not yet complete: it appears when its last byte comes."));
        QTextCursor end(document());
        end.movePosition(QTextCursor::End);
        end.insertText(pending, chip);
        m_pendingLength = static_cast<int>(pending.size());
    }
}

QString TranscriptView::pendingText() const
{
    return m_stream ? pendingBytesText(m_stream->pending()) : QString();
}

void TranscriptView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        m_colors = LabColors::from(palette());
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::FontChange) { // two lines of the new font, also before any text; lines of
        fitToText();                           // the new height (presenter mode scales the font)
        keepWholeLines();
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
    }
    if (event->type() == QEvent::FontChange && m_wholeLines > 0)
        setWholeLines(m_wholeLines);
}

} // namespace specdec::gui
