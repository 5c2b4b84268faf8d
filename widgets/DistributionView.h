// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DistributionView: p and q of one card as bars over the most probable tokens (and "others"), min(p, q)
// shaded as the overlap whose mass is the acceptance probability, the residual after a rejection, and the
// numbers of the card: p(x), q(x), p/q, u, beta and TV, all read from the trace.

#include "LabColors.h"
#include "Phase.h"
#include "RoundFrame.h"
#include "RoundRecord.h"
#include "TreeFrame.h"

#include <QVector>
#include <QWidget>

#include <memory>

class QCustomPlot;
class QCPBars;
class QCPItemText;
class QLabel;

namespace specdec::gui {

class FixedLabel;

class DistributionView : public QWidget
{
    Q_OBJECT
public:
    explicit DistributionView(QWidget *parent = nullptr);

    void setSession(const SessionInfo &session);
    /// Shows card `card` of `record` as far as `phase` has revealed it (p from Verify on, the residual from
    /// Residual on). Card K is the correction / bonus card.
    void showCard(std::shared_ptr<const RoundRecord> record, int card, Phase phase, const RevealOptions &options = {});
    /// Shows node `node` of the tree round `record` (or TreeFrame::kOutcome, its correction or bonus) as far as
    /// `phase` has revealed it: q and p at the node's parent, and p', the residual it was tested against.
    void showTreeNode(std::shared_ptr<const RoundRecord> record, int node, Phase phase);
    void clear();

    // What is drawn, for tests: the category labels and the bar heights (last category: "others").
    QStringList labels() const { return m_labels; }
    QVector<double> pValues() const { return m_p; }
    QVector<double> qValues() const { return m_q; }
    QVector<double> residualValues() const { return m_residual; }
    QVector<TokenId> tokens() const { return m_tokens; }
    QString numbersText() const;
    /// The round shown (trace index), -1 when none.
    int round() const { return m_record ? m_record->trace.index : -1; }
    int card() const { return m_card; }
    /// The tree node shown (TreeFrame::kOutcome: the correction or bonus), -1 when a card is shown.
    int treeNode() const { return m_treeNode; }
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuild();
    void fillNumbers();
    void fillTreeNumbers();
    DistributionFrame shownFrame() const;
    void applyStyle();

    std::shared_ptr<const Tokenizer> m_vocabulary;
    std::shared_ptr<const RoundRecord> m_record;
    int m_card = -1;
    Phase m_phase = Phase::Draft;
    RoundFrame m_frame;
    int m_treeNode = -1;
    TreeFrame m_treeFrame;
    QCustomPlot *m_plot;
    QCPBars *m_overlapBars;
    QCPBars *m_qBars;
    QCPBars *m_pBars;
    QCPBars *m_residualBars;
    QCPItemText *m_marker;
    FixedLabel *m_numbers;
    QLabel *m_note;
    LabColors m_colors;
    QStringList m_labels;
    QVector<TokenId> m_tokens;
    QVector<double> m_p;
    QVector<double> m_q;
    QVector<double> m_residual;
};

} // namespace specdec::gui
