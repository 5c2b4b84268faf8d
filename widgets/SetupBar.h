// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SetupBar: the experiment's setup — corpus, tokenizer (characters or a tokenizer.json), target and draft models,
// prompt, K, temperatures, top-k, top-p, seed and the KV cache switch. It emits the whole Setup when the user changes
// any of it (a field entered and left with the same value is no change).

#include "Experiment.h"
#include "RoundRecord.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace specdec::gui {

class SetupBar : public QWidget
{
    Q_OBJECT
public:
    explicit SetupBar(QWidget *parent = nullptr);

    /// Shows `setup` without emitting setupChanged.
    void setSetup(const Setup &setup);
    Setup setup() const;
    /// Built corpus names (kjv, tang-song) offered in the corpus box.
    void setCorpusNames(const QStringList &names);
    /// ONNX model files offered as target and draft ("onnx:PATH"). A model folder ("hf:PATH") is offered by its
    /// name once a setup names it.
    void setModelFiles(const QStringList &paths);
    /// The loaded models' facts (weights on disk, measured step time), said in the target's and draft's tooltips
    /// for a neural model; empty facts say nothing.
    void setModelFacts(const ModelFacts &target, const ModelFacts &draft);
    /// A tokenizer.json (or the folder holding it) chosen with the window's file dialog: shown in the tokenizer
    /// box and used, as if picked there (setupChanged when it is another than the one shown).
    void chooseTokenizer(const QString &path);

    /// Whether two setups agree in every field the bar shows (corpus, tokenizer, models, prompt, K, tree, samplers,
    /// seed, KV cache): setupChanged is emitted only when the fields differ from the setup shown.
    static bool sameFields(const Setup &a, const Setup &b);

    /// Takes a corpus that failed to load out of the list (built corpora stay); true when it left.
    bool removeCorpus(const QString &corpus);

signals:
    void setupChanged(const specdec::Setup &setup);
    /// Enter or Esc in a field: the user is done editing (the window gives the keys back to the round).
    void editingDone();
    /// A field holds text the engine would refuse (e.g. a bad tree shape): one line naming it.
    void inputError(const QString &message);
    /// The tokenizer box's "tokenizer.json…" item was picked: the window asks for a file (chooseTokenizer).
    void tokenizerFileWanted();

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void retranslate();
    void fillModels();
    void changed();
    /// The KV cache switch matters only for a model that keeps a cache (an ONNX model).
    void updateCacheSwitch();
    /// Shows `value` ("chars", or a tokenizer.json's path, added to the box when new) in the tokenizer box.
    void showTokenizer(const QString &value);

    QComboBox *m_corpus;
    QComboBox *m_tokenizer; ///< "chars", the tokenizer.json files used so far, and "tokenizer.json…" to pick one
    QComboBox *m_target;
    QComboBox *m_draft;
    QLineEdit *m_prompt;
    QSpinBox *m_k;
    QLineEdit *m_tree; ///< token-tree shape "3,2,1"; empty: a chain of K
    QDoubleSpinBox *m_temperature;
    QDoubleSpinBox *m_draftTemperature;
    QSpinBox *m_topK;
    QDoubleSpinBox *m_topP;
    QLineEdit *m_seed;             ///< digits only: a 64-bit seed (a QSpinBox stops at 2^31 - 1)
    std::uint64_t m_seedValue = 0; ///< the last valid seed, used while the field holds an invalid one
    QCheckBox *m_kvCache;
    QList<QLabel *> m_labels;
    QStringList m_modelFiles;
    ModelFacts m_targetFacts, m_draftFacts;
    QStringList m_builtCorpora;
    QTimer *m_debounce;
    bool m_updating = false;
    Setup m_shown; ///< the setup last shown or emitted: a field left unchanged emits nothing
};

} // namespace specdec::gui
