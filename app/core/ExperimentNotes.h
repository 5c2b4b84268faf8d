// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ExperimentNotes: what a loaded experiment has to tell its user that is no error, as both programs print it:
// the engine's warnings (corpus characters a model cannot represent), then each n-gram model whose training
// text is too small for its order (CorpusFit), in the interface's language.

#include <QStringList>

namespace specdec {
class Experiment;
struct CorpusFit;
} // namespace specdec

namespace specdec::app {

QStringList experimentWarnings(const Experiment &experiment);
/// "The target ngram:6 was trained on too small a text for its order: …", or the draft's.
QString smallCorpusText(bool draft, const QString &spec, const CorpusFit &fit);

} // namespace specdec::app
