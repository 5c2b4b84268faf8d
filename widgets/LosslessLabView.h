// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// LosslessLabView: the classroom's rejection-sampling lab. p and q are editable bars over a small alphabet;
// a run of S one-step speculative samples (done elsewhere, reported back in snapshots) is drawn as a
// histogram stacked from "accepted draft" and "residual" outputs next to p, with the chi-square p-value and
// TV. A variant selector switches on the wrong rules, each with why it is wrong.
//
// k-candidates mode (k >= 2, one step of a token tree; CandidatesLab in the engine): k drafts drawn i.i.d.
// from q are tested one by one against p' (norm(max(0, p' - q)) after each rejection); the histogram stacks
// "accepted j-th candidate" for j = 1..k and the correction, and the measured chance that some candidate is
// accepted stands beside the exact 1 - prod_j (1 - sum_x min(p_j(x), q(x))). The rule selector then offers
// the tree rules (correct, no-residual-update, typical-acceptance).

#include "Acceptance.h"
#include "LabColors.h"
#include "Statistics.h"
#include "TreeAcceptance.h"

#include <QMetaType>
#include <QStringList>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCheckBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace specdec::gui {

class BarEditor;

/// What the view asks to be sampled.
struct LabRequest
{
    QVector<double> p, q;
    Variant variant = Variant::Correct;
    std::int64_t samples = 100000;
    std::uint64_t seed = 0;
    int candidates = 1; ///< k; 2..8: the k-candidates mode with `treeVariant`
    TreeVariant treeVariant = TreeVariant::Correct;
};

/// Where a run stands: the counts so far and their test against p (computed by the engine's LosslessLab).
struct LabSnapshot
{
    std::int64_t samples = 0;
    std::int64_t wanted = 0;
    std::vector<std::int64_t> counts, accepted, replaced;
    ChiSquareResult chi;
    double totalVariation = 0.0;
    bool finished = false;
    // k-candidates mode: accepted counts per candidate (`accepted` then holds their sum, `replaced` the
    // corrections), and the measured acceptance with its interval beside the exact formula.
    std::vector<std::vector<std::int64_t>> byCandidate;
    double measuredAcceptance = 0.0;
    double acceptanceHalfWidth = 0.0;
    double exactAcceptance = 0.0;
};

class LosslessLabView : public QWidget
{
    Q_OBJECT
public:
    /// The significance level under which the view calls a run "not p".
    static constexpr double kSignificance = 1e-3;

    explicit LosslessLabView(QWidget *parent = nullptr);

    /// Replaces p and q (normalised) over `labels`, e.g. from the current models at the current context.
    void setDistributions(const QVector<double> &p, const QVector<double> &q, const QStringList &labels);
    void setVariant(Variant variant);
    void setSamples(std::int64_t samples);
    Variant variant() const;
    /// k of the k-candidates mode (1: the one-draft lab).
    void setCandidates(int k);
    int candidates() const;
    void setTreeVariant(TreeVariant variant);
    TreeVariant treeVariant() const;
    /// The acceptance line of the k-candidates mode (measured ± interval, exact formula); empty otherwise.
    QString acceptanceText() const;
    std::int64_t samples() const;
    QVector<double> p() const;
    QVector<double> q() const;
    QStringList labels() const;
    LabRequest request() const;

    /// Draws a snapshot of the running (or finished) sample.
    void showSnapshot(const LabSnapshot &snapshot);
    const LabSnapshot &snapshot() const { return m_snapshot; }
    /// The verdict line shown under the histogram ("consistent with p" / "not p").
    QString verdictText() const;
    QCustomPlot *plot() const { return m_plot; }

    /// Why `variant` is (or is not) lossless: the engine's sentence, translated.
    static QString explanation(Variant variant);
    static QString explanation(TreeVariant variant);
    /// The English sentences the translations are made from (for the test that they match the engine's).
    static QStringList translatableExplanations();

    /// "Predict the histogram": while on, a run's histogram, statistics and verdict stay hidden until
    /// revealHistogram() (the p marks stay, so the room can guess where the bars will land).
    void setPredictFirst(bool on);
    bool predictFirst() const;
    bool histogramHidden() const { return m_hidden; }
    void revealHistogram();

    enum class Preset { Random, OneHot, Disjoint, Equal };
    void applyPreset(Preset preset);

signals:
    void runRequested(const specdec::gui::LabRequest &request);
    void stopRequested();
    /// The "from the models" preset: the application answers with setDistributions.
    void modelPresetRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void applyStyle();
    void resetHistogram();
    void applyHidden();
    void setAlphabetSize(int size);
    void fillVariants();

    BarEditor *m_pEditor;
    BarEditor *m_qEditor;
    QSpinBox *m_alphabet;
    QComboBox *m_variant;
    QSpinBox *m_candidates;
    QLabel *m_candidatesLabel;
    QLabel *m_acceptance;
    QList<QCPBars *> m_candidateBars; ///< accepted j-th candidate, j = 1..8, stacked in order
    QLabel *m_explanation;
    QComboBox *m_samples;
    QPushButton *m_run;
    QPushButton *m_stop;
    QCheckBox *m_predict;
    QPushButton *m_reveal;
    bool m_hidden = false;
    QProgressBar *m_progress;
    QLabel *m_stats;
    QLabel *m_verdict;
    QCustomPlot *m_plot;
    QCPBars *m_acceptedBars;
    QCPBars *m_replacedBars;
    QCPGraph *m_pMarks;
    QList<QPushButton *> m_presetButtons;
    QLabel *m_presetLabel;
    QLabel *m_variantLabel;
    QLabel *m_samplesLabel;
    QLabel *m_alphabetLabel;
    LabSnapshot m_snapshot;
    std::uint64_t m_randomSeed = 1;
    std::uint64_t m_runSeed = 0;
};

} // namespace specdec::gui

Q_DECLARE_METATYPE(specdec::gui::LabRequest)
Q_DECLARE_METATYPE(specdec::gui::LabSnapshot)
