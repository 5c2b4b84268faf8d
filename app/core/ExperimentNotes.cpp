// SPDX-License-Identifier: GPL-3.0-or-later
#include "ExperimentNotes.h"

#include "Experiment.h"

#include <QCoreApplication>

namespace specdec::app {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("specdec::app::ExperimentNotes", text);
}
} // namespace

QString smallCorpusText(bool draft, const QString &spec, const CorpusFit &fit)
{
    const QString first = draft ? tr("The draft %1 was trained on too small a text for its order: in its %2 "
                                     "characters each context of %3 characters occurs %4 times on average, so it "
                                     "can only repeat the text.")
                                : tr("The target %1 was trained on too small a text for its order: in its %2 "
                                     "characters each context of %3 characters occurs %4 times on average, so it "
                                     "can only repeat the text.");
    const QString advice = fit.largestFittingOrder >= 2
        ? tr("Use ngram:%1 or a longer text.").arg(fit.largestFittingOrder)
        : tr("Use a longer text.");
    return first.arg(spec).arg(fit.tokens).arg(fit.order - 1).arg(QString::number(fit.occurrences(), 'f', 2))
        + QLatin1Char(' ') + advice;
}

QStringList experimentWarnings(const Experiment &experiment)
{
    QStringList out;
    for (const std::string &w : experiment.warnings())
        out << QString::fromStdString(w);
    for (const Experiment::SmallCorpus &s : experiment.smallCorpora())
        out << smallCorpusText(s.draft, QString::fromStdString(s.spec), s.fit);
    return out;
}

} // namespace specdec::app
