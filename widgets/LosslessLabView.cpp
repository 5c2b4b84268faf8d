// SPDX-License-Identifier: GPL-3.0-or-later
#include "LosslessLabView.h"

#include "BarEditor.h"
#include "PlotStyle.h"
#include "Random.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFontMetrics>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>

namespace specdec::gui {

namespace {

QStringList alphabet(int size)
{
    QStringList labels;
    for (int i = 0; i < size; ++i)
        labels << QString(QChar(u'A' + i));
    return labels;
}

QVector<double> toVector(const std::vector<std::int64_t> &counts, double scale)
{
    QVector<double> v;
    for (std::int64_t c : counts)
        v << static_cast<double>(c) * scale;
    return v;
}

/// The engine's explanations (variantExplanation in engine/Acceptance.cpp), listed here so that lupdate
/// extracts them; test_gui_lossless_lab checks that they still match the engine's text.
const char *const kExplanations[] = {
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "Accept with probability min(1, p/q), resample rejections from "
                      "norm(max(0, p - q)): the output follows p exactly."),
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "Every draft token is kept, so the output follows the draft's q, not "
                      "the target's p."),
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "Keeping only the target's argmax drops every other token p would have "
                      "sampled at T > 0."),
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "After a rejection, drawing from p adds p's mass on top of what "
                      "acceptance already gave: tokens where q > p are over-represented."),
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "max(0, p - q) sums to 1 - beta, not 1: the missing mass falls back on "
                      "the draft token."),
    QT_TRANSLATE_NOOP("specdec::Variant",
                      "The draft sampled from its tempered q, but the test divides by the "
                      "untempered q: the ratio p/q is wrong for every token."),
};

/// The engine's explanations of the tree rules (treeVariantExplanation in engine/TreeAcceptance.cpp).
const char *const kTreeExplanations[] = {
    QT_TRANSLATE_NOOP("specdec::TreeVariant",
                      "Each rejected child takes its overlap out of p: the next child is "
                      "tested against norm(max(0, p' - q)), and the output follows p exactly."),
    QT_TRANSLATE_NOOP("specdec::TreeVariant",
                      "Testing every child against the original p gives the overlap min(p, q) "
                      "one chance per child: tokens where the draft is confident are "
                      "over-represented."),
    QT_TRANSLATE_NOOP("specdec::TreeVariant",
                      "Medusa's typical acceptance keeps any child the target finds plausible "
                      "enough: faster, but the output no longer follows p."),
};

} // namespace

QStringList LosslessLabView::translatableExplanations()
{
    QStringList list;
    for (const char *text : kExplanations)
        list << QString::fromUtf8(text);
    for (const char *text : kTreeExplanations)
        list << QString::fromUtf8(text);
    return list;
}

QString LosslessLabView::explanation(TreeVariant variant)
{
    return QCoreApplication::translate("specdec::TreeVariant", treeVariantExplanation(variant).c_str());
}

QString LosslessLabView::explanation(Variant variant)
{
    return QCoreApplication::translate("specdec::Variant", variantExplanation(variant).c_str());
}

LosslessLabView::LosslessLabView(QWidget *parent)
    : QWidget(parent)
    , m_pEditor(new BarEditor(this))
    , m_qEditor(new BarEditor(this))
    , m_alphabet(new QSpinBox(this))
    , m_variant(new QComboBox(this))
    , m_candidates(new QSpinBox(this))
    , m_candidatesLabel(new QLabel(this))
    , m_acceptance(new QLabel(this))
    , m_explanation(new QLabel(this))
    , m_samples(new QComboBox(this))
    , m_run(new QPushButton(this))
    , m_stop(new QPushButton(this))
    , m_predict(new QCheckBox(this))
    , m_reveal(new QPushButton(this))
    , m_progress(new QProgressBar(this))
    , m_stats(new QLabel(this))
    , m_verdict(new QLabel(this))
    , m_plot(new QCustomPlot(this))
    , m_presetLabel(new QLabel(this))
    , m_variantLabel(new QLabel(this))
    , m_samplesLabel(new QLabel(this))
    , m_alphabetLabel(new QLabel(this))
{
    m_alphabet->setRange(2, 12);
    m_alphabet->setValue(6);
    m_candidates->setRange(1, 8);
    m_candidates->setValue(1);
    m_candidates->setObjectName(QStringLiteral("candidates"));
    fillVariants();
    m_acceptance->setWordWrap(true);
    m_acceptance->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (int e = 3; e <= 7; ++e)
        m_samples->addItem(QStringLiteral("10^%1").arg(e), static_cast<qlonglong>(std::pow(10.0, e)));
    m_samples->setCurrentIndex(2);
    m_explanation->setWordWrap(true);
    m_stats->setWordWrap(true);
    m_verdict->setWordWrap(true);
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_stop->setEnabled(false);

    m_acceptedBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_replacedBars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    for (int j = 0; j < 8; ++j) { // the k-candidates mode's stack: candidate 1 at the bottom, the correction on top
        auto *bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setWidth(0.6);
        bars->setVisible(false);
        bars->removeFromLegend();
        m_candidateBars << bars;
    }
    // (stacked by applyHidden: only the parts drawn, so each sits on the parts below it)
    m_acceptedBars->setWidth(0.6);
    m_replacedBars->setWidth(0.6);
    m_pMarks = m_plot->addGraph();
    m_pMarks->setLineStyle(QCPGraph::lsNone);
    m_plot->yAxis->setRange(0, 1);
    m_plot->setMinimumHeight(220);
    plotTitle(m_plot);
    legendBelow(m_plot);

    auto *editors = new QVBoxLayout;
    editors->addWidget(m_pEditor, 1);
    editors->addWidget(m_qEditor, 1);
    auto *presets = new QHBoxLayout;
    presets->addWidget(m_presetLabel);
    for (int i = 0; i < 5; ++i) {
        auto *b = new QPushButton(this);
        presets->addWidget(b);
        m_presetButtons << b;
    }
    presets->addStretch();
    editors->addLayout(presets);
    auto *size = new QHBoxLayout;
    size->addWidget(m_alphabetLabel);
    size->addWidget(m_alphabet);
    size->addSpacing(12);
    size->addWidget(m_candidatesLabel);
    size->addWidget(m_candidates);
    size->addStretch();
    editors->addLayout(size);

    // The buttons in rows of their own above the rule's explanation, whose length differs by rule and language:
    // Run stays in one place whatever the text. The explanation keeps room for three lines, so the plot below
    // does not move either.
    auto *controls = new QGridLayout;
    controls->addWidget(m_variantLabel, 0, 0);
    controls->addWidget(m_variant, 0, 1, 1, 3);
    controls->addWidget(m_samplesLabel, 1, 0);
    controls->addWidget(m_samples, 1, 1);
    controls->addWidget(m_run, 1, 2);
    controls->addWidget(m_stop, 1, 3);
    controls->addWidget(m_progress, 2, 0, 1, 4);
    controls->addWidget(m_predict, 3, 0, 1, 2);
    controls->addWidget(m_reveal, 3, 2, 1, 2);
    controls->addWidget(m_explanation, 4, 0, 1, 4);
    m_explanation->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_explanation->setMinimumHeight(3 * QFontMetrics(m_explanation->font()).lineSpacing());
    auto *right = new QVBoxLayout;
    right->addLayout(controls);
    right->addWidget(m_plot, 1);
    right->addWidget(m_stats);
    right->addWidget(m_acceptance);
    right->addWidget(m_verdict);

    auto *layout = new QHBoxLayout(this);
    layout->addLayout(editors, 2);
    layout->addLayout(right, 3);

    connect(m_presetButtons[0], &QPushButton::clicked, this, [this] { applyPreset(Preset::Random); });
    connect(m_presetButtons[1], &QPushButton::clicked, this, &LosslessLabView::modelPresetRequested);
    connect(m_presetButtons[2], &QPushButton::clicked, this, [this] { applyPreset(Preset::OneHot); });
    connect(m_presetButtons[3], &QPushButton::clicked, this, [this] { applyPreset(Preset::Disjoint); });
    connect(m_presetButtons[4], &QPushButton::clicked, this, [this] { applyPreset(Preset::Equal); });
    connect(m_alphabet, &QSpinBox::valueChanged, this, &LosslessLabView::setAlphabetSize);
    connect(m_pEditor, &BarEditor::edited, this, &LosslessLabView::resetHistogram);
    connect(m_qEditor, &BarEditor::edited, this, &LosslessLabView::resetHistogram);
    connect(m_variant, &QComboBox::currentIndexChanged, this, [this] {
        m_explanation->setText(candidates() > 1 ? explanation(treeVariant()) : explanation(variant()));
        resetHistogram();
    });
    connect(m_candidates, &QSpinBox::valueChanged, this, [this](int k) {
        // Between one draft and k candidates the rules change (the chain's variants or the tree's).
        const bool tree = k > 1;
        if (tree != (m_variant->property("tree").toBool()))
            fillVariants();
        m_explanation->setText(tree ? explanation(treeVariant()) : explanation(variant()));
        resetHistogram();
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        resetHistogram();
        m_run->setEnabled(false);
        m_stop->setEnabled(true);
        emit runRequested(request());
        ++m_runSeed;
    });
    connect(m_stop, &QPushButton::clicked, this, &LosslessLabView::stopRequested);
    connect(m_predict, &QCheckBox::toggled, this, &LosslessLabView::setPredictFirst);
    connect(m_reveal, &QPushButton::clicked, this, &LosslessLabView::revealHistogram);
    m_reveal->setEnabled(false);

    setDistributions({0.30, 0.25, 0.20, 0.12, 0.08, 0.05}, {0.10, 0.15, 0.35, 0.25, 0.05, 0.10}, alphabet(6));
    applyStyle();
    retranslate();
}

void LosslessLabView::setDistributions(const QVector<double> &p, const QVector<double> &q, const QStringList &labels)
{
    m_pEditor->setValues(p, labels);
    m_qEditor->setValues(q, labels);
    const QSignalBlocker block(m_alphabet);
    m_alphabet->setValue(static_cast<int>(p.size()));
    resetHistogram();
}

void LosslessLabView::setAlphabetSize(int size)
{
    QVector<double> p = m_pEditor->values(), q = m_qEditor->values();
    p.resize(size);
    q.resize(size);
    for (int i = 0; i < size; ++i) {
        p[i] = std::max(p[i], 0.02);
        q[i] = std::max(q[i], 0.02);
    }
    setDistributions(p, q, alphabet(size));
}

void LosslessLabView::applyPreset(Preset preset)
{
    const int n = m_alphabet->value();
    QVector<double> p(n, 0.0), q(n, 0.0);
    switch (preset) {
    case Preset::Random: {
        Rng rng(m_randomSeed++);
        for (int i = 0; i < n; ++i) {
            p[i] = 0.05 + rng.uniform();
            q[i] = 0.05 + rng.uniform();
        }
        break;
    }
    case Preset::OneHot: // the target is certain; the draft is not
        p[0] = 1.0;
        q.fill(1.0);
        break;
    case Preset::Disjoint: // no overlap: every draft token is rejected, all mass comes from the residual
        for (int i = 0; i < n; ++i)
            (i < n / 2 ? p : q)[i] = 1.0;
        break;
    case Preset::Equal:
        for (int i = 0; i < n; ++i)
            p[i] = q[i] = 1.0 + i;
        break;
    }
    setDistributions(p, q, alphabet(n));
}

void LosslessLabView::fillVariants()
{
    const QSignalBlocker block(m_variant);
    const bool tree = m_candidates->value() > 1;
    m_variant->clear();
    m_variant->setProperty("tree", tree);
    if (tree) {
        for (TreeVariant v : allTreeVariants())
            m_variant->addItem(QString::fromStdString(treeVariantName(v)), static_cast<int>(v));
    } else {
        for (Variant v : allVariants())
            m_variant->addItem(QString::fromStdString(variantName(v)), static_cast<int>(v));
    }
}

void LosslessLabView::setCandidates(int k)
{
    m_candidates->setValue(k);
}

int LosslessLabView::candidates() const
{
    return m_candidates->value();
}

void LosslessLabView::setTreeVariant(TreeVariant variant)
{
    if (candidates() > 1)
        m_variant->setCurrentIndex(m_variant->findData(static_cast<int>(variant)));
}

TreeVariant LosslessLabView::treeVariant() const
{
    return candidates() > 1 ? static_cast<TreeVariant>(m_variant->currentData().toInt()) : TreeVariant::Correct;
}

void LosslessLabView::setVariant(Variant variant)
{
    if (candidates() > 1)
        setCandidates(1);
    m_variant->setCurrentIndex(m_variant->findData(static_cast<int>(variant)));
}

void LosslessLabView::setSamples(std::int64_t samples)
{
    const int i = m_samples->findData(static_cast<qlonglong>(samples));
    if (i >= 0) {
        m_samples->setCurrentIndex(i);
    } else {
        m_samples->addItem(QString::number(samples), static_cast<qlonglong>(samples));
        m_samples->setCurrentIndex(m_samples->count() - 1);
    }
}

Variant LosslessLabView::variant() const
{
    return candidates() > 1 ? Variant::Correct : static_cast<Variant>(m_variant->currentData().toInt());
}

std::int64_t LosslessLabView::samples() const
{
    return m_samples->currentData().toLongLong();
}

QVector<double> LosslessLabView::p() const
{
    return m_pEditor->values();
}

QVector<double> LosslessLabView::q() const
{
    return m_qEditor->values();
}

QStringList LosslessLabView::labels() const
{
    return m_pEditor->labels();
}

LabRequest LosslessLabView::request() const
{
    return LabRequest{p(), q(), variant(), samples(), m_runSeed, candidates(), treeVariant()};
}

void LosslessLabView::setPredictFirst(bool on)
{
    const QSignalBlocker block(m_predict);
    m_predict->setChecked(on);
    m_hidden = on;
    applyHidden();
}

bool LosslessLabView::predictFirst() const
{
    return m_predict->isChecked();
}

void LosslessLabView::revealHistogram()
{
    m_hidden = false;
    applyHidden();
}

void LosslessLabView::applyHidden()
{
    const int k = candidates() > 1 ? candidates() : 0;
    // The stack holds exactly the parts drawn, bottom up: one draft's "accepted" or the k candidates' parts,
    // then the correction. (A hidden part left in the stack still lifts the parts above it: the correction
    // used to float, or leave the axis, on top of the hidden sum of the candidates.)
    QList<QCPBars *> stack;
    if (k == 0)
        stack << m_acceptedBars;
    else
        stack << m_candidateBars.mid(0, k);
    stack << m_replacedBars;
    for (QCPBars *bars : std::as_const(m_candidateBars))
        bars->moveAbove(nullptr);
    m_acceptedBars->moveAbove(nullptr);
    m_replacedBars->moveAbove(nullptr);
    for (int i = 1; i < stack.size(); ++i)
        stack[i]->moveAbove(stack[i - 1]);
    m_acceptedBars->setVisible(!m_hidden && k == 0);
    m_replacedBars->setVisible(!m_hidden);
    for (int j = 0; j < m_candidateBars.size(); ++j) {
        m_candidateBars[j]->setVisible(!m_hidden && j < k);
        if (j < k)
            m_candidateBars[j]->addToLegend();
        else
            m_candidateBars[j]->removeFromLegend();
    }
    if (k > 0)
        m_acceptedBars->removeFromLegend();
    else
        m_acceptedBars->addToLegend();
    m_stats->setVisible(!m_hidden);
    m_acceptance->setVisible(!m_hidden && k > 0);
    m_verdict->setVisible(!m_hidden);
    m_reveal->setEnabled(m_hidden);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LosslessLabView::resetHistogram()
{
    m_snapshot = {};
    m_hidden = predictFirst(); // a new run is hidden again until revealed
    applyHidden();
    m_acceptedBars->data()->clear();
    m_replacedBars->data()->clear();
    for (QCPBars *bars : std::as_const(m_candidateBars))
        bars->data()->clear();
    m_acceptance->clear();
    QVector<double> keys;
    for (int i = 0; i < p().size(); ++i)
        keys << i;
    m_pMarks->setData(keys, p(), true);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTicks(keys, labels().toVector());
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setRange(-0.6, static_cast<double>(keys.size()) - 0.4);
    double top = 0.0;
    for (double v : p())
        top = std::max(top, v);
    m_plot->yAxis->setRange(0, std::max(0.1, top * 1.25));
    m_progress->setValue(0);
    m_stats->clear();
    m_verdict->clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LosslessLabView::showSnapshot(const LabSnapshot &snapshot)
{
    m_snapshot = snapshot;
    const int n = static_cast<int>(snapshot.counts.size());
    QVector<double> keys;
    for (int i = 0; i < n; ++i)
        keys << i;
    const double scale = snapshot.samples > 0 ? 1.0 / static_cast<double>(snapshot.samples) : 0.0;
    m_acceptedBars->setData(keys, toVector(snapshot.accepted, scale), true);
    m_replacedBars->setData(keys, toVector(snapshot.replaced, scale), true);
    for (int j = 0; j < m_candidateBars.size(); ++j)
        m_candidateBars[j]->setData(keys,
                                    j < static_cast<int>(snapshot.byCandidate.size())
                                        ? toVector(snapshot.byCandidate[static_cast<std::size_t>(j)], scale)
                                        : QVector<double>(n, 0.0),
                                    true);
    m_acceptance->setText(acceptanceText());
    double top = 0.0;
    for (int i = 0; i < n; ++i)
        top = std::max({top, static_cast<double>(snapshot.counts[static_cast<std::size_t>(i)]) * scale, p().value(i)});
    m_plot->yAxis->setRange(0, std::max(0.1, top * 1.15));
    m_progress->setValue(snapshot.wanted > 0 ? static_cast<int>(1000 * snapshot.samples / snapshot.wanted) : 0);
    m_stats->setText(tr("S = %1 samples · χ² = %2 on %3 degrees of freedom · p-value = %4 · TV(histogram, p) = %5")
                         .arg(snapshot.samples)
                         .arg(snapshot.chi.statistic, 0, 'f', 1)
                         .arg(snapshot.chi.degreesOfFreedom)
                         .arg(snapshot.chi.pValue, 0, 'g', 3)
                         .arg(snapshot.totalVariation, 0, 'f', 4));
    m_verdict->setText(verdictText());
    if (snapshot.finished) {
        m_run->setEnabled(true);
        m_stop->setEnabled(false);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString LosslessLabView::acceptanceText() const
{
    if (m_snapshot.byCandidate.empty() || m_snapshot.samples == 0)
        return {};
    return tr("Some candidate accepted: measured %1 ± %2 · exact 1 − Π(1 − Σ min(p_j, q)) = %3 (k = %4)")
        .arg(m_snapshot.measuredAcceptance, 0, 'f', 4)
        .arg(m_snapshot.acceptanceHalfWidth, 0, 'f', 4)
        .arg(m_snapshot.exactAcceptance, 0, 'f', 4)
        .arg(m_snapshot.byCandidate.size());
}

QString LosslessLabView::verdictText() const
{
    if (m_snapshot.samples == 0)
        return {};
    const LabColors c = LabColors::from(palette());
    if (m_snapshot.chi.pValue < kSignificance)
        return QStringLiteral("<b style=\"color:%1\">%2</b>")
            .arg(c.rejected.name(),
                 tr("✗ The output does NOT follow p (p-value < %1): this rule is biased.").arg(kSignificance).toHtmlEscaped());
    return QStringLiteral("<b style=\"color:%1\">%2</b>")
        .arg(c.accepted.name(),
             tr("✓ Consistent with p: the histogram converges to the target's distribution, not the draft's.")
                 .toHtmlEscaped());
}

void LosslessLabView::applyStyle()
{
    const LabColors c = LabColors::from(palette());
    stylePlot(m_plot, c);
    m_pEditor->setColor(c.target);
    m_qEditor->setColor(c.draft);
    m_acceptedBars->setPen(Qt::NoPen);
    m_acceptedBars->setBrush(c.draft);
    m_replacedBars->setPen(Qt::NoPen);
    m_replacedBars->setBrush(c.residual);
    for (int j = 0; j < m_candidateBars.size(); ++j) { // candidate 1 the draft's colour, later ones lighter
        m_candidateBars[j]->setPen(QPen(c.base, 1));
        m_candidateBars[j]->setBrush(c.tint(c.draft, 1.0 - 0.11 * j));
    }
    m_pMarks->setPen(QPen(c.target, 2));
    m_pMarks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCrossSquare, c.target, 14));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LosslessLabView::retranslate()
{
    m_pEditor->setTitle(tr("p — the target (head chef)"));
    m_qEditor->setTitle(tr("q — the draft (apprentice)"));
    m_presetLabel->setText(tr("Presets:"));
    const QStringList presets{tr("Random"), tr("From the models"), tr("One-hot"), tr("Disjoint"), tr("p = q")};
    for (int i = 0; i < m_presetButtons.size(); ++i)
        m_presetButtons[i]->setText(presets[i]);
    m_presetButtons[1]->setToolTip(tr("p and q of the current round in the main window, over its most likely tokens"));
    m_alphabetLabel->setText(tr("Alphabet size:"));
    m_variantLabel->setText(tr("Acceptance rule:"));
    m_samplesLabel->setText(tr("Samples S:"));
    m_explanation->setText(candidates() > 1 ? explanation(treeVariant()) : explanation(variant()));
    m_candidatesLabel->setText(tr("Candidates k:"));
    m_candidates->setToolTip(tr("k drafts drawn i.i.d. from q and tested one by one (one step of a token tree); "
                                "1: the one-draft lab"));
    for (int j = 0; j < m_candidateBars.size(); ++j)
        m_candidateBars[j]->setName(tr("accepted candidate %1").arg(j + 1));
    m_run->setText(tr("Run"));
    m_stop->setText(tr("Stop"));
    m_predict->setText(tr("Predict the histogram first"));
    m_predict->setToolTip(tr("Hide the run's histogram until Reveal: let the room guess where the bars will land"));
    m_reveal->setText(tr("Reveal the histogram"));
    m_acceptedBars->setName(tr("accepted draft"));
    m_replacedBars->setName(tr("from the residual"));
    m_pMarks->setName(tr("p (target)"));
    plotTitle(m_plot)->setText(tr("Where the S outputs came from"));
    m_plot->yAxis->setLabel(tr("share of outputs"));
    m_verdict->setText(verdictText());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LosslessLabView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        applyStyle();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
