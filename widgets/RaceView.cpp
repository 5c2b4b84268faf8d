// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaceView.h"

#include "TokenText.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTextEdit>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace specdec::gui {

namespace {

constexpr std::array<double, 6> kSlowFactors{1.0, 2.0, 5.0, 10.0, 50.0, 200.0};
constexpr double kLaneTextScale = 1.4; ///< the lanes' texts, relative to the window's font
constexpr double kNumbersScale = 1.15; ///< lane titles and their numbers
constexpr double kVerdictScale = 1.15;

} // namespace

RaceView::RaceView(QWidget *parent)
    : QWidget(parent)
    , m_colors(LabColors::from(palette()))
    , m_tokens(new QSpinBox)
    , m_slow(new QComboBox)
    , m_start(new QPushButton)
    , m_stop(new QPushButton)
    , m_setupLine(new QLabel)
    , m_verdict(new QLabel)
    , m_tokensLabel(new QLabel)
    , m_slowLabel(new QLabel)
    , m_timer(new QTimer(this))
{
    m_tokens->setRange(1, 100000);
    m_tokens->setValue(200);
    for (double f : kSlowFactors)
        m_slow->addItem(QStringLiteral("%1×").arg(f), f);
    m_stop->setEnabled(false);
    auto *controls = new QHBoxLayout;
    controls->addWidget(m_tokensLabel);
    controls->addWidget(m_tokens);
    controls->addSpacing(12);
    controls->addWidget(m_slowLabel);
    controls->addWidget(m_slow);
    controls->addSpacing(12);
    controls->addWidget(m_start);
    controls->addWidget(m_stop);
    controls->addStretch(1);
    m_setupLine->setWordWrap(true);
    m_verdict->setWordWrap(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_setupLine);
    for (Lane &lane : m_lanes) {
        lane.title = new QLabel;
        lane.numbers = new QLabel;
        lane.progress = new QProgressBar;
        lane.progress->setTextVisible(true);
        lane.text = new QTextEdit;
        lane.text->setReadOnly(true);
        lane.text->setMinimumHeight(80);
        auto *head = new QHBoxLayout;
        head->addWidget(lane.title);
        head->addStretch(1);
        head->addWidget(lane.numbers);
        layout->addLayout(head);
        layout->addWidget(lane.progress);
        layout->addWidget(lane.text, 1);
    }
    layout->addWidget(m_verdict);

    connect(m_start, &QPushButton::clicked, this, [this] { emit startRequested(m_tokens->value()); });
    connect(m_stop, &QPushButton::clicked, this, &RaceView::stopRequested);
    connect(m_timer, &QTimer::timeout, this, &RaceView::tick);
    m_timer->setInterval(30);
    applyFonts();
    retranslate();
    setRace({});
}

void RaceView::setRace(const RaceSetup &setup)
{
    m_setup = setup;
    for (Lane &lane : m_lanes) {
        lane.steps.clear();
        lane.shown = 0;
        lane.shownTokens = 0;
        lane.shownCalls = 0;
        lane.shownSeconds = 0.0;
        lane.text->clear();
        lane.stream = setup.vocabulary ? std::make_shared<TextStream>(*setup.vocabulary) : nullptr;
        lane.progress->setRange(0, std::max(1, setup.tokens));
        lane.progress->setValue(0);
    }
    m_clock = 0.0;
    m_engineFinished = false;
    m_stopped = false;
    m_verdictShown = false;
    m_verdict->clear();
    m_wall.start();
    if (setup.vocabulary)
        m_timer->start();
    else
        m_timer->stop();
    retranslate();
}

void RaceView::addSteps(const std::vector<RaceStep> &steps)
{
    for (const RaceStep &step : steps)
        lane_(step.lane).steps.push_back(step);
}

void RaceView::setEngineFinished(bool stopped)
{
    m_engineFinished = true;
    m_stopped = stopped;
    tick();
}

void RaceView::showAll()
{
    m_clock = std::numeric_limits<double>::infinity();
    reveal();
}

void RaceView::setStatus(const QString &text)
{
    m_verdict->setText(text);
}

double RaceView::slowMotion() const
{
    return m_slow->currentData().toDouble();
}

int RaceView::tokens() const
{
    return m_tokens->value();
}

void RaceView::setTokens(int tokens)
{
    m_tokens->setValue(tokens);
}

void RaceView::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
}

QString RaceView::laneText(RaceLane lane) const
{
    return lane_(lane).text->toPlainText();
}

QString RaceView::verdict() const
{
    return m_verdict->text();
}

bool RaceView::laneComplete(RaceLane lane) const
{
    const Lane &l = lane_(lane);
    int tokens = 0;
    for (const RaceStep &s : l.steps)
        tokens += static_cast<int>(s.tokens.size());
    return tokens >= m_setup.tokens || m_engineFinished;
}

double RaceView::playedTo() const
{
    double t = std::numeric_limits<double>::infinity();
    for (RaceLane lane : {RaceLane::Autoregressive, RaceLane::Speculative}) {
        if (laneComplete(lane))
            continue;
        const Lane &l = lane_(lane);
        t = std::min(t, l.steps.empty() ? 0.0 : l.steps.back().laneSeconds);
    }
    return t;
}

void RaceView::tick()
{
    const double elapsed = static_cast<double>(m_wall.restart()) / 1000.0;
    // the view's clock: wall time slowed by the factor, never past what both lanes have been played to
    m_clock = std::min(m_clock + elapsed / std::max(1.0, slowMotion()), playedTo());
    reveal();
}

void RaceView::reveal()
{
    for (RaceLane which : {RaceLane::Autoregressive, RaceLane::Speculative}) {
        Lane &lane = lane_(which);
        const int before = lane.shown;
        while (lane.shown < static_cast<int>(lane.steps.size())
               && lane.steps[static_cast<std::size_t>(lane.shown)].laneSeconds <= m_clock) {
            appendStep(lane, which, lane.steps[static_cast<std::size_t>(lane.shown)]);
            ++lane.shown;
        }
        if (lane.shown != before)
            updateNumbers(which);
    }
    updateVerdict();
}

void RaceView::appendStep(Lane &lane, RaceLane which, const RaceStep &step)
{
    lane.shownTokens += static_cast<int>(step.tokens.size());
    lane.shownCalls += step.targetCalls;
    lane.shownSeconds = step.laneSeconds;
    if (!lane.stream)
        return;
    auto text = [&](std::span<const TokenId> ids) { return QString::fromStdString(lane.stream->push(ids)); };
    QTextCursor cursor(lane.text->document());
    cursor.movePosition(QTextCursor::End);
    const std::span<const TokenId> tokens(step.tokens);
    if (which == RaceLane::Autoregressive) {
        cursor.insertText(text(tokens), QTextCharFormat());
    } else {
        // as the round view's transcript: the accepted run, then the correction or the bonus
        const auto accepted = static_cast<std::size_t>(std::clamp(step.accepted, 0, static_cast<int>(tokens.size())));
        QTextCharFormat draft;
        draft.setForeground(m_colors.draft);
        draft.setBackground(m_colors.tint(m_colors.draft, 0.10));
        cursor.insertText(text(tokens.first(accepted)), draft);
        if (tokens.size() > accepted) {
            const QColor color = step.corrected ? m_colors.residual : m_colors.bonus;
            QTextCharFormat last;
            last.setForeground(color);
            last.setBackground(m_colors.tint(color, 0.14));
            last.setFontWeight(QFont::DemiBold);
            cursor.insertText(text(tokens.subspan(accepted)), last);
        }
    }
    lane.text->setTextCursor(cursor);
    lane.text->ensureCursorVisible();
}

void RaceView::updateNumbers(RaceLane which)
{
    Lane &lane = lane_(which);
    lane.progress->setValue(std::min(lane.shownTokens, lane.progress->maximum()));
    const double rate = lane.shownSeconds > 0.0 ? lane.shownTokens / lane.shownSeconds : 0.0;
    QString numbers = tr("%1 tokens/s · %2 target calls").arg(QLocale().toString(rate, 'f', 0)).arg(lane.shownCalls);
    if (which == RaceLane::Speculative)
        numbers += QStringLiteral(" · ") + tr("%n round(s)", nullptr, lane.shown);
    lane.numbers->setText(numbers);
}

void RaceView::updateVerdict()
{
    if (m_verdictShown || !m_setup.vocabulary || !m_engineFinished)
        return;
    for (const Lane &lane : m_lanes)
        if (lane.shown < static_cast<int>(lane.steps.size()))
            return;
    m_verdictShown = true;
    m_timer->stop();
    const Lane &ar = lane_(RaceLane::Autoregressive);
    const Lane &spec = lane_(RaceLane::Speculative);
    if (m_stopped && (ar.shownTokens < m_setup.tokens || spec.shownTokens < m_setup.tokens)) {
        m_verdict->setText(tr("Stopped."));
        return;
    }
    const QString a = ar.text->toPlainText(), s = spec.text->toPlainText();
    QString line;
    if (a == s) {
        line = tr("Both finished: the texts are identical, character for character (%n token(s)).", nullptr,
                  ar.shownTokens);
    } else {
        qsizetype at = 0;
        while (at < a.size() && at < s.size() && a[at] == s[at])
            ++at;
        line = tr("Both finished: the texts differ from character %1 on (above temperature 0 each lane draws its own "
                  "samples: the same distribution, not the same text).")
                   .arg(at + 1);
    }
    const double rateAr = ar.shownSeconds > 0 ? ar.shownTokens / ar.shownSeconds : 0.0;
    const double rateSpec = spec.shownSeconds > 0 ? spec.shownTokens / spec.shownSeconds : 0.0;
    if (rateAr > 0.0 && rateSpec > 0.0) {
        line += QLatin1Char(' ');
        line += rateSpec > rateAr
            ? tr("Speculative decoding finished first: %1× the tokens per second of the target alone.")
                  .arg(QLocale().toString(rateSpec / rateAr, 'f', 2))
            : tr("The target alone finished first: speculative decoding ran at %1× its tokens "
                 "per second.")
                  .arg(QLocale().toString(rateSpec / rateAr, 'f', 2));
    }
    m_verdict->setText(line);
}

void RaceView::retranslate()
{
    m_tokensLabel->setText(tr("Tokens:"));
    m_slowLabel->setText(tr("Slow motion:"));
    m_slow->setToolTip(tr("Both lanes are slowed by the same factor; 1× is the engine's own pace."));
    m_start->setText(tr("Start the race"));
    m_stop->setText(tr("Stop"));
    lane_(RaceLane::Autoregressive).title->setText(tr("Target alone (autoregressive)"));
    lane_(RaceLane::Speculative)
        .title->setText(m_setup.draft.isEmpty()
                            ? tr("Speculative decoding")
                            : tr("Speculative decoding: draft %1, %2").arg(m_setup.draft, m_setup.shape));
    if (m_setup.vocabulary)
        m_setupLine->setText(tr("Target %1, KV cache %2. Both lanes continue the same prompt with the same seed and "
                                "sampler; each lane's text appears at the pace its decoding took.")
                                 .arg(m_setup.target, m_setup.kvCache ? tr("on") : tr("off")));
    else
        m_setupLine->setText(tr("The race runs on the session's setup: its target, draft, prompt, seed and sampler."));
    for (RaceLane which : {RaceLane::Autoregressive, RaceLane::Speculative})
        updateNumbers(which);
    if (m_verdictShown) {
        m_verdictShown = false;
        updateVerdict();
    }
}

void RaceView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        m_colors = LabColors::from(palette());
    else if (event->type() == QEvent::FontChange)
        applyFonts();
    QWidget::changeEvent(event);
}

void RaceView::applyFonts()
{
    // The lanes' texts and numbers are what a room reads from the back: larger than the controls, and they
    // follow the window's font (presenter mode's scale included).
    const auto scaled = [this](double factor, bool bold) {
        QFont f = font();
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * factor);
        else
            f.setPixelSize(qRound(f.pixelSize() * factor));
        f.setBold(bold);
        return f;
    };
    m_verdict->setFont(scaled(kVerdictScale, true));
    for (Lane &lane : m_lanes) {
        lane.title->setFont(scaled(kNumbersScale, true));
        lane.numbers->setFont(scaled(kNumbersScale, true));
        lane.text->setFont(scaled(kLaneTextScale, false));
    }
}

} // namespace specdec::gui
