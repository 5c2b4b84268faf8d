// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ArenaView: 2–6 drafts against one target, side by side. One ArenaLane per draft stepping together (a
// round each, or aligned by tokens so far), a comparison table of the engine's metrics per draft (α, tokens
// per round, c, speedups in passes / cost model / wall clock, mean draft time) and overlaid plots per draft:
// tokens against target passes, cumulative α̂, and K per round (which differs under a draft-length policy).

#include "ArenaLane.h"
#include "DecimatedSeries.h"
#include "LabColors.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QTableWidget;
class QVBoxLayout;

namespace specdec::gui {

class ArenaView : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        Draft,
        Alpha,
        TokensPerRound,
        CostRatio,
        SpeedupPasses,
        SpeedupCostModel,
        SpeedupWallClock,
        DraftMs,
        TargetPasses,
        DraftedPerAccepted,
        ColumnCount
    };

    explicit ArenaView(QWidget *parent = nullptr);

    /// The lane lines ("spec [policy]", one per lane) in the editor.
    void setLaneLines(const QStringList &lines);
    QStringList laneLines() const;
    /// Lanes for a loaded arena (titles from the engine) and the target's own text.
    void setLanes(const QStringList &titles, const SessionInfo &session, const std::vector<TokenId> &baseline);
    void showLane(int lane, const RoundHistory &history);
    void setBusy(bool busy, const QString &message = {});

    int laneCount() const { return static_cast<int>(m_lanes.size()); }
    ArenaLane *lane(int index) const { return m_lanes[static_cast<std::size_t>(index)]; }
    QTableWidget *table() const { return m_table; }
    QCustomPlot *plot(int index) const { return m_plots[static_cast<std::size_t>(index)]; }
    bool aligned() const;

signals:
    void loadRequested(const QStringList &laneLines);
    void stepRequested(bool aligned, int count);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void applyStyle();
    void fillRow(int lane, const RoundRecord &last);
    void fitTable(int rows);
    void fitToFont();
    void fitLanes();

    QPlainTextEdit *m_editor;
    QLabel *m_editorLabel;
    QPushButton *m_load;
    QPushButton *m_step;
    QPushButton *m_playAll;
    QComboBox *m_pace;
    QLabel *m_status;
    QVBoxLayout *m_lanesLayout;
    QScrollArea *m_scroll = nullptr;
    std::vector<ArenaLane *> m_lanes;
    QTableWidget *m_table;
    std::array<QCustomPlot *, 3> m_plots{};
    /// Per lane, what each plot draws (bounded: DecimatedSeries) and the rounds added to it.
    std::vector<std::array<DecimatedSeries, 3>> m_series;
    std::vector<int> m_plotted;
    int m_tokens = 0;
};

} // namespace specdec::gui
