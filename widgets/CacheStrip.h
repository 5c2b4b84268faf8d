// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CacheStrip: each model's decoding state (its key/value cache) in the round on screen, as a row of cells —
// one per cached position. It grows while the apprentice drafts (one cell per draft call) and when the head
// chef verifies (K + 1 cells in one call), and at Commit it is cut back to the committed prefix: the
// discarded cells stay visible for that round, crossed out. It draws the frame's CacheFrame (RoundFrame.h)
// and nothing else, so it reveals nothing before its phase.

#include "RoundFrame.h"

#include <QWidget>

namespace specdec::gui {

class CacheStrip : public QWidget
{
    Q_OBJECT
public:
    enum class Model { Target, Draft };

    explicit CacheStrip(QWidget *parent = nullptr);

    /// Shows the caches of `frame` (an empty frame: nothing).
    void setFrame(const RoundFrame &frame);
    void clear();

    /// What the strip draws for `model` (for tests and the status text).
    const CacheFrame &shown(Model model) const { return model == Model::Target ? m_target : m_draft; }
    /// The one-line text of a row ("target cache: 12 → 17 → 14 (3 discarded)"); `compact`: the short form
    /// drawn when the long one does not fit ("target: 12 → 17 → 14 (−3)").
    QString rowText(Model model, bool compact = false) const;

    /// What paintEvent draws for a row at the current width: the text (long or short form), the font (the
    /// widget's, or smaller down to a floor when even the short form is too wide) and its rectangle. The
    /// text is never elided: every number is whole.
    struct RowText
    {
        QString text;
        QFont font;
        QRect rect;
    };
    RowText drawnRow(Model model) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    CacheFrame m_target;
    CacheFrame m_draft;
};

} // namespace specdec::gui
