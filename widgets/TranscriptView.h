// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TranscriptView: the prompt and the committed text, each token coloured by where it came from (accepted
// draft, residual, bonus), up to a given round. The text is decoded as it grows (TextStream): a character split
// into byte tokens appears once whole, its bytes so far shown at the end as a chip ("<E5>"), never as U+FFFD. The box
// is no taller than its text (at least two lines): early in a session one line of text does not sit in an empty box,
// and the space goes to the cards; the text grows the box line by line (one relayout per new line, not per round) until
// the round view's share for it is full, then scrolls.

#include "LabColors.h"
#include "RoundHistory.h"

#include <QTextBrowser>

#include <memory>
#include <vector>

namespace specdec::gui {

class TranscriptView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit TranscriptView(QWidget *parent = nullptr);

    void setSession(const SessionInfo &session);
    /// Shows the prompt and the tokens committed by the first `rounds` records of `history`.
    void showRounds(const RoundHistory &history, int rounds);
    int roundsShown() const { return m_shown; }
    /// The text shown (prompt + committed tokens), for tests.
    QString plainText() const { return toPlainText(); }
    /// The bytes of a character not yet whole at the text's end, as shown ("<E5><88>"; "" when none).
    QString pendingText() const;
    /// The height the box needs for its text at its width (frame included), at least two lines.
    int contentHeight() const;
    /// Shows exactly `lines` whole lines (0: a free height, the default): every line is lineHeight() tall,
    /// the text area is `lines` of them with the padding outside it, and the widget takes the height that
    /// needs, so a transcript scrolled to its end shows no line cut in half at its top.
    void setWholeLines(int lines);
    /// The height of one line when whole lines are kept: the font's line spacing, or more where a bold token
    /// or a glyph of a fallback font (CJK, "␣") lays out taller.
    int lineHeight() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild(const RoundHistory *history, int rounds);
    void appendRound(const RoundRecord &record);
    /// Keeps the maximum height at contentHeight().
    void fitToText();
    /// Gives the blocks from position `from` on the fixed line height (whole lines), then alignEnd().
    void keepWholeLines(int from = 0);
    /// With a free height: pads the text area's top so that, scrolled to its end, it shows whole lines only.
    void alignEnd();

    std::shared_ptr<const Tokenizer> m_vocabulary;
    std::vector<TokenId> m_prompt;
    std::unique_ptr<TextStream> m_stream; ///< the text shown, decoded
    int m_pendingLength = 0;              ///< characters of the pending bytes' chip at the document's end
    /// The last record appended, to tell an append from a jump. Watched, not owned (the history owns it); a raw
    /// address compared after the history dropped the record could be a newer record's.
    std::weak_ptr<const RoundRecord> m_last;
    int m_shown = 0;
    int m_wholeLines = 0;
    LabColors m_colors;
};

} // namespace specdec::gui
