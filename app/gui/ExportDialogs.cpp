// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExportDialogs.h"

#include "ActionRegistry.h"
#include "ArenaView.h"
#include "DistributionView.h"
#include "ErrorLine.h"
#include "Lessons.h"
#include "LosslessLabView.h"
#include "MainWindow.h"
#include "Player.h"
#include "PlotStyle.h"
#include "PlotsPanel.h"
#include "QuizSheet.h"
#include "QuizView.h"
#include "RoundView.h"
#include "SessionController.h"
#include "TheoryExplorer.h"
#include "TheoryPanel.h"
#include "TraceExport.h"

#include <qcustomplot.h>

#include <QAction>
#include <QFileDialog>
#include <QInputDialog>
#include <QMessageBox>

#include <cmath>

namespace specdec::gui {

ExportDialogs::ExportDialogs(MainWindow *window, const SessionController *session, const Player *player, Tools tools,
                             QObject *parent)
    : QObject(parent)
    , m_window(window)
    , m_session(session)
    , m_player(player)
    , m_tools(tools)
{
}

void ExportDialogs::traceDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export trace"), QString(),
                                                      tr("CSV (*.csv);;JSON (*.json)"));
    if (path.isEmpty() || !m_session->info().vocabulary)
        return;
    std::vector<RoundTrace> traces;
    const RoundHistory &history = m_session->history();
    for (int i = history.first(); i < history.size(); ++i) // the rounds kept
        traces.push_back(history.at(i).trace);
    try {
        app::exportTraces(path, traces, *m_session->info().vocabulary);
    } catch (const std::exception &e) {
        QMessageBox::warning(m_window, tr("Export trace"), app::oneLineMessage(QString::fromUtf8(e.what())));
    }
}

QList<QPair<QString, QCustomPlot *>> ExportDialogs::plots() const
{
    // Each plot by its window and its own title, as the user sees them.
    QList<QPair<QString, QCustomPlot *>> all;
    auto add = [&](const QString &window, QCustomPlot *plot) {
        const QCPTextElement *title = plotTitle(plot);
        const QString name = title && !title->text().isEmpty() ? title->text() : tr("plot %1").arg(all.size() + 1);
        all << qMakePair(QStringLiteral("%1 — %2").arg(window, name), plot);
    };
    for (int i = 0; i < 4; ++i)
        add(tr("Live plots"), m_window->plots()->plot(i));
    add(tr("Distributions"), m_window->distributionView()->plot());
    for (int i = 0; i < 3; ++i)
        add(tr("Draft arena"), m_tools.arena->plot(i));
    for (int i = 0; i < 3; ++i)
        add(tr("Theory explorer"), m_tools.theory->plot(i));
    add(tr("Lossless lab"), m_tools.lab->plot());
    return all;
}

void ExportDialogs::plotDialog()
{
    const auto all = plots();
    QStringList names;
    for (const auto &p : all)
        names << p.first;
    bool ok = false;
    const QString name = QInputDialog::getItem(m_window, tr("Export plot"), tr("Plot:"), names, 0, false, &ok);
    if (!ok)
        return;
    const QString filter = svgExportAvailable() ? tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)")
                                                : tr("PNG (*.png);;PDF (*.pdf)");
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export plot"), QString(), filter);
    if (path.isEmpty())
        return;
    const QString error = exportPlot(all[static_cast<int>(names.indexOf(name))].second, path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export plot"), app::oneLineMessage(error));
}

HandoutText ExportDialogs::handoutText() const
{
    HandoutText text;
    text.title = tr("Speculative decoding — round %1, %2 (%3 / %4)")
                     .arg(m_player->round() + 1)
                     .arg(phaseName(m_player->phase()), m_session->info().target, m_session->info().draft);
    const Setup &s = m_session->setup();
    const DecodingSettings &d = s.decoding;
    text.setup << tr("Corpus: %1").arg(QString::fromStdString(s.corpus))
               << tr("Target: %1").arg(m_session->info().target) << tr("Draft: %1").arg(m_session->info().draft)
               << tr("K = %1").arg(d.draftLength)
               << tr("T = %1 (target), %2 (draft)").arg(d.target.temperature).arg(d.draft.temperature)
               << tr("Seed %1").arg(d.seed)
               << (s.prompt.empty() ? tr("No prompt: the text starts from nothing")
                                    : tr("Prompt: \"%1\"").arg(QString::fromStdString(s.prompt)));
    // One source of numbers on the page: the rounds the position on screen has committed, as the theory panel
    // printed beside them counts (not the round on screen before its Commit, nor rounds played ahead).
    const int revealed = m_window->roundsRevealed();
    const auto &history = m_session->history();
    if (history.contains(revealed - 1)) {
        const RunMetrics &m = history.at(revealed - 1).cumulative;
        auto n = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"); };
        text.numbers
            << tr("Rounds: %1, tokens: %2, target passes: %3").arg(m.rounds).arg(m.generatedTokens).arg(m.targetCalls)
            << tr("α\u200D\u0302 = %1 (accepted %2 of %3 tested)").arg(n(m.acceptanceRate)).arg(m.accepted).arg(m.tested)
            << tr("Tokens per round: %1 (theory E[N]: %2)").arg(n(m.tokensPerRound), n(m.expectedTokensPerRound))
            << tr("Speedup in target passes: %1×").arg(n(m.speedupForwardPasses))
            << tr("Speedup under the cost model (c = %1): %2×")
                   .arg(std::isfinite(m.costRatio) ? QString::number(m.costRatio, 'f', 3) : QStringLiteral("–"),
                        n(m.speedupCostModel));
        if (m.speedupWallClock)
            text.numbers << tr("Wall-clock speedup: %1×").arg(n(*m.speedupWallClock));
    } else {
        text.numbers << tr("No round committed yet.");
    }
    text.theoryHtml = m_window->theory()->toHtml();
    return text;
}

QString ExportDialogs::exportHandout(const QString &path) const
{
    return writeHandout(path, handoutText(), m_window->roundView(), m_window->distributionView());
}

void ExportDialogs::handoutDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export handout"), QString(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportHandout(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export handout"), app::oneLineMessage(error));
}

QString ExportDialogs::exportQuizSheet(const QString &path) const
{
    return writeQuizSheet(path, m_tools.quiz->quiz(), contentLanguage());
}

void ExportDialogs::quizSheetDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export quiz sheet"), QString(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString error = exportQuizSheet(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Export quiz sheet"), app::oneLineMessage(error));
}

void ExportDialogs::addActions(ActionRegistry &r)
{
    auto add = [&](const char *id, ActionRegistry::Text text, void (ExportDialogs::*dialog)()) {
        connect(r.add(QLatin1String(id), MenuId::File, 2, std::move(text)), &QAction::triggered, this, dialog);
    };
    add(
        "file.exportTrace", [] { return tr("Export trace…"); }, &ExportDialogs::traceDialog);
    add(
        "file.exportPlot", [] { return tr("Export plot…"); }, &ExportDialogs::plotDialog);
    add(
        "file.handout", [] { return tr("Export handout (PDF)…"); }, &ExportDialogs::handoutDialog);
    add(
        "file.quizSheet", [] { return tr("Export quiz sheet (PDF)…"); }, &ExportDialogs::quizSheetDialog);
}

} // namespace specdec::gui
