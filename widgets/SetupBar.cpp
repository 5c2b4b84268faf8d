// SPDX-License-Identifier: GPL-3.0-or-later
#include "SetupBar.h"

#include "ModelFiles.h"
#include "ModelTitle.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTimer>

namespace specdec::gui {

namespace {

/// The tokenizer box's last item: it asks the window for a file instead of being a value.
const QString kChooseTokenizer = QStringLiteral("\x01choose");

/// A tokenizer.json's name in the box: the folder holding it ("qwen3" for …/qwen3/tokenizer.json, a model folder
/// by its own name), else the file's name.
QString tokenizerTitle(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return info.fileName();
    if (info.fileName() == QLatin1String("tokenizer.json") && !info.dir().dirName().isEmpty())
        return info.dir().dirName();
    return info.fileName();
}

void setComboText(QComboBox *box, const QString &data)
{
    int i = box->findData(data);
    const auto model = neuralModel(data.toStdString());
    if (i < 0 && model) { // the same file or folder named by another path
        const QString canonical = QFileInfo(QString::fromStdString(model->path)).canonicalFilePath();
        if (!canonical.isEmpty())
            i = box->findData(QString(data.section(QLatin1Char(':'), 0, 0) + QLatin1Char(':') + canonical));
    }
    if (i < 0 && model && model->folder) { // a model folder (File ▸ Open model folder…): offered by its name
        box->addItem(modelTitle(data), data);
        i = box->count() - 1;
        box->setItemData(i, modelToolTip(data), Qt::ToolTipRole);
    }
    if (i >= 0)
        box->setCurrentIndex(i);
    else
        box->setEditText(data);
}

/// A neural model's facts for its box's tooltip: its weights on disk and parameters, its step time where the session
/// measured one.
QString factsText(const ModelFacts &facts)
{
    QStringList lines;
    if (!facts.weightFiles.isEmpty()) {
        QStringList names;
        for (const QString &file : facts.weightFiles)
            names << QFileInfo(file).fileName();
        const double mb = static_cast<double>(facts.weightBytes) / 1e6;
        lines << SetupBar::tr("Weights: %1 MB on disk (%2).")
                     .arg(QLocale().toString(mb, 'f', mb < 10 ? 2 : 1), names.join(QStringLiteral(", ")));
        if (facts.parameters > 0)
            lines << SetupBar::tr("Parameters: %1.").arg(QLocale().toString(facts.parameters));
        if (facts.stepSeconds > 0.0)
            lines << SetupBar::tr("One step (one token): %1 ms, measured when the session loaded, where a %2-token "
                                  "run's calls are.")
                         .arg(QLocale().toString(facts.stepSeconds * 1e3, 'f', facts.stepSeconds < 0.01 ? 2 : 1))
                         .arg(facts.probedTokens);
    }
    return lines.join(QLatin1Char('\n'));
}

/// The shape in the tree field: empty text is the chain (no tree); throws Error for a bad shape.
TreeShape treeOf(const QLineEdit *field)
{
    const QString text = field->text().trimmed();
    return text.isEmpty() ? TreeShape{} : TreeShape::parse(text.toStdString());
}

QString comboValue(const QComboBox *box)
{
    const int i = box->findText(box->currentText());
    if (i >= 0 && box->itemData(i).isValid())
        return box->itemData(i).toString();
    return box->currentText().trimmed();
}

} // namespace

SetupBar::SetupBar(QWidget *parent)
    : QWidget(parent)
    , m_corpus(new QComboBox(this))
    , m_tokenizer(new QComboBox(this))
    , m_target(new QComboBox(this))
    , m_draft(new QComboBox(this))
    , m_prompt(new QLineEdit(this))
    , m_k(new QSpinBox(this))
    , m_tree(new QLineEdit(this))
    , m_temperature(new QDoubleSpinBox(this))
    , m_draftTemperature(new QDoubleSpinBox(this))
    , m_topK(new QSpinBox(this))
    , m_topP(new QDoubleSpinBox(this))
    , m_seed(new QLineEdit(this))
    , m_kvCache(new QCheckBox(this))
    , m_debounce(new QTimer(this))
{
    for (QComboBox *box : {m_corpus, m_target, m_draft}) {
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    // Long enough for every model title (tang-song/draft-small), so none is cut.
    m_target->setMinimumContentsLength(19);
    m_draft->setMinimumContentsLength(19);
    // As wide as "Characters" or a folder's name ("qwen3"); the list shows the longer items whole.
    m_tokenizer->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_tokenizer->setMinimumContentsLength(10);
    m_tokenizer->addItem(QString(), QStringLiteral("chars"));
    m_tokenizer->addItem(QString(), kChooseTokenizer);
    const std::pair<QWidget *, const char *> names[] = {{m_corpus, "corpus"},
                                                        {m_tokenizer, "tokenizer"},
                                                        {m_target, "target"},
                                                        {m_draft, "draft"},
                                                        {m_prompt, "prompt"},
                                                        {m_k, "k"},
                                                        {m_tree, "tree"},
                                                        {m_temperature, "temperature"},
                                                        {m_draftTemperature, "draftTemperature"},
                                                        {m_topK, "topK"},
                                                        {m_topP, "topP"},
                                                        {m_seed, "seed"},
                                                        {m_kvCache, "kvCache"}};
    for (const auto &[field, name] : names)
        field->setObjectName(QLatin1String(name));
    m_k->setRange(1, 64);
    m_temperature->setRange(0.0, 5.0);
    m_temperature->setSingleStep(0.1);
    m_draftTemperature->setRange(-0.1, 5.0);
    m_draftTemperature->setSingleStep(0.1);
    m_topK->setRange(0, 100000);
    m_topP->setRange(0.01, 1.0);
    m_topP->setSingleStep(0.05);
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), m_seed));

    auto *rows = new QVBoxLayout(this);
    rows->setContentsMargins(10, 6, 10, 6);
    rows->setSpacing(6);
    auto *models = new QHBoxLayout;
    auto *numbers = new QHBoxLayout;
    rows->addLayout(models);
    rows->addLayout(numbers);
    auto add = [&](QHBoxLayout *row, QWidget *field, int stretch = 0) {
        auto *label = new QLabel(this);
        label->setBuddy(field);
        m_labels << label;
        row->addSpacing(row->count() > 0 ? 14 : 0);
        row->addWidget(label);
        row->addWidget(field, stretch);
    };
    add(models, m_corpus);
    add(models, m_tokenizer);
    add(models, m_target);
    add(models, m_draft);
    add(models, m_prompt, 1);
    add(numbers, m_k);
    add(numbers, m_tree);
    add(numbers, m_temperature);
    add(numbers, m_draftTemperature);
    add(numbers, m_topK);
    add(numbers, m_topP);
    add(numbers, m_seed);
    numbers->addSpacing(14);
    numbers->addWidget(m_kvCache);
    numbers->addStretch(1);
    for (QWidget *w : std::initializer_list<QWidget *>{m_k, m_temperature, m_draftTemperature, m_topK, m_topP})
        w->setMinimumWidth(80);
    m_seed->setMinimumWidth(110);
    m_tree->setMaximumWidth(QFontMetrics(font()).horizontalAdvance(QStringLiteral("8,8,8,8,8")) + 16);
    m_prompt->setMinimumWidth(200);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(350);
    connect(m_debounce, &QTimer::timeout, this, [this] {
        // Leaving a field (editingFinished) or re-choosing an item is not a change: only a new value restarts.
        const Setup now = setup();
        if (sameFields(now, m_shown))
            return;
        m_shown = now;
        emit setupChanged(now);
    });
    for (QComboBox *box : {m_corpus, m_target, m_draft}) {
        connect(box, &QComboBox::activated, this, &SetupBar::changed);
        connect(box->lineEdit(), &QLineEdit::editingFinished, this, &SetupBar::changed);
    }
    connect(m_tokenizer, &QComboBox::activated, this, [this](int index) {
        if (m_tokenizer->itemData(index).toString() != kChooseTokenizer) {
            changed();
            return;
        }
        // Not a value: the box goes back to the tokenizer in use, and the window asks for a file.
        showTokenizer(QString::fromStdString(m_shown.tokenizer));
        emit tokenizerFileWanted();
    });
    connect(m_prompt, &QLineEdit::editingFinished, this, &SetupBar::changed);
    connect(m_tree, &QLineEdit::editingFinished, this, [this] {
        // A shape the engine refuses is named at once and not used; the session keeps its setup.
        try {
            (void)treeOf(m_tree);
            m_tree->setStyleSheet(QString());
            changed();
        } catch (const std::exception &e) {
            m_tree->setStyleSheet(QStringLiteral("QLineEdit { color: #c0392b; }"));
            if (!m_updating)
                emit inputError(tr("Tree shape: %1").arg(QString::fromStdString(e.what())));
        }
    });
    for (QSpinBox *spin : {m_k, m_topK})
        connect(spin, &QSpinBox::valueChanged, this, &SetupBar::changed);
    connect(m_seed, &QLineEdit::editingFinished, this, [this] {
        // 64 bits, as the CLI: 20 digits beyond 18446744073709551615 are named and not used.
        bool ok = false;
        const std::uint64_t seed = m_seed->text().toULongLong(&ok);
        if (!ok) {
            m_seed->setStyleSheet(QStringLiteral("QLineEdit { color: #c0392b; }"));
            if (!m_updating)
                emit inputError(tr("Seed: a whole number from 0 to 18446744073709551615"));
            return;
        }
        m_seed->setStyleSheet(QString());
        m_seedValue = seed;
        changed();
    });
    for (QDoubleSpinBox *spin : {m_temperature, m_draftTemperature, m_topP})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &SetupBar::changed);
    connect(m_kvCache, &QCheckBox::toggled, this, &SetupBar::changed);
    for (QComboBox *box : {m_target, m_draft})
        connect(box, &QComboBox::currentTextChanged, this, &SetupBar::updateCacheSwitch);
    fillModels();
    retranslate();
    setSetup(Setup{});
    for (QWidget *field : findChildren<QWidget *>())
        field->installEventFilter(this);
}

bool SetupBar::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Escape) {
            // The field takes the key first (a spin box commits its value), then the keys go back to the round.
            QTimer::singleShot(0, this, &SetupBar::editingDone);
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool SetupBar::removeCorpus(const QString &corpus)
{
    const int i = m_corpus->findData(corpus);
    if (i < 0 || m_builtCorpora.contains(corpus))
        return false;
    m_updating = true;
    m_corpus->removeItem(i);
    m_updating = false;
    return true;
}

bool SetupBar::sameFields(const Setup &a, const Setup &b)
{
    const DecodingSettings &x = a.decoding, &y = b.decoding;
    return a.corpus == b.corpus && a.tokenizer == b.tokenizer && a.target == b.target && a.draft == b.draft
        && a.prompt == b.prompt && x.draftLength == y.draftLength && x.tree == y.tree && x.target == y.target
        && x.draft == y.draft && x.seed == y.seed && x.kvCache == y.kvCache;
}

void SetupBar::changed()
{
    if (!m_updating)
        m_debounce->start();
}

void SetupBar::setSetup(const Setup &s)
{
    m_updating = true;
    const QString corpus = QString::fromStdString(s.corpus);
    if (m_corpus->findData(corpus) < 0) {
        m_corpus->addItem(QFileInfo(corpus).fileName(), corpus);
        m_corpus->setItemData(m_corpus->count() - 1, corpus, Qt::ToolTipRole);
    }
    setComboText(m_corpus, corpus);
    showTokenizer(QString::fromStdString(s.tokenizer));
    setComboText(m_target, QString::fromStdString(s.target));
    setComboText(m_draft, QString::fromStdString(s.draft));
    m_prompt->setText(QString::fromStdString(s.prompt));
    m_k->setValue(s.decoding.draftLength);
    m_tree->setText(QString::fromStdString(s.decoding.tree.describe()));
    m_tree->setStyleSheet(QString());
    m_temperature->setValue(s.decoding.target.temperature);
    m_draftTemperature->setValue(s.decoding.draft.temperature == s.decoding.target.temperature
                                     ? m_draftTemperature->minimum()
                                     : s.decoding.draft.temperature);
    m_topK->setValue(s.decoding.target.topK);
    m_topP->setValue(s.decoding.target.topP);
    m_seedValue = s.decoding.seed;
    m_seed->setText(QString::number(s.decoding.seed));
    m_seed->setStyleSheet(QString());
    m_kvCache->setChecked(s.decoding.kvCache);
    updateCacheSwitch();
    m_debounce->stop();
    m_updating = false;
    m_shown = setup();
}

Setup SetupBar::setup() const
{
    Setup s;
    s.corpus = comboValue(m_corpus).toStdString();
    const QString tokenizer = m_tokenizer->currentData().toString();
    s.tokenizer = tokenizer == kChooseTokenizer || tokenizer.isEmpty() ? m_shown.tokenizer : tokenizer.toStdString();
    s.target = comboValue(m_target).toStdString();
    s.draft = comboValue(m_draft).toStdString();
    s.prompt = m_prompt->text().toStdString();
    s.decoding.draftLength = m_k->value();
    try { // an invalid shape was reported when it was typed (inputError); it is not used
        s.decoding.tree = treeOf(m_tree);
    } catch (const std::exception &) {
        s.decoding.tree = {};
    }
    s.decoding.target.temperature = m_temperature->value();
    s.decoding.target.topK = m_topK->value();
    s.decoding.target.topP = m_topP->value();
    s.decoding.draft = s.decoding.target;
    if (m_draftTemperature->value() > m_draftTemperature->minimum())
        s.decoding.draft.temperature = m_draftTemperature->value();
    bool seedOk = false;
    const std::uint64_t seed = m_seed->text().toULongLong(&seedOk);
    s.decoding.seed = seedOk ? seed : m_seedValue;
    s.decoding.kvCache = m_kvCache->isChecked();
    s.decoding.recordDistributions = true;
    return s;
}

void SetupBar::updateCacheSwitch()
{
    const bool neural = neuralModel(comboValue(m_target).toStdString()) || neuralModel(comboValue(m_draft).toStdString());
    m_kvCache->setEnabled(neural);
}

void SetupBar::showTokenizer(const QString &value)
{
    const QString shown = value.isEmpty() ? QStringLiteral("chars") : value;
    int i = m_tokenizer->findData(shown);
    if (i < 0) { // a file not offered yet: before "tokenizer.json…"
        i = m_tokenizer->count() - 1;
        const bool updating = m_updating;
        m_updating = true;
        m_tokenizer->insertItem(i, tokenizerTitle(shown), shown);
        m_tokenizer->setItemData(i, shown, Qt::ToolTipRole);
        m_updating = updating;
    }
    m_tokenizer->setCurrentIndex(i);
}

void SetupBar::chooseTokenizer(const QString &path)
{
    if (path.isEmpty())
        return;
    showTokenizer(path);
    changed();
}

void SetupBar::setCorpusNames(const QStringList &names)
{
    m_updating = true;
    const QString current = comboValue(m_corpus);
    m_builtCorpora = names;
    for (const QString &name : names)
        if (m_corpus->findData(name) < 0)
            m_corpus->addItem(name, name);
    setComboText(m_corpus, current);
    m_updating = false;
}

void SetupBar::setModelFacts(const ModelFacts &target, const ModelFacts &draft)
{
    m_targetFacts = target;
    m_draftFacts = draft;
    retranslate();
}

void SetupBar::setModelFiles(const QStringList &paths)
{
    m_modelFiles = paths;
    fillModels();
}

void SetupBar::fillModels()
{
    m_updating = true;
    const QString target = comboValue(m_target);
    const QString draft = comboValue(m_draft);
    m_target->clear();
    m_draft->clear();
    for (int order : {3, 4, 5, 6, 7, 8})
        m_target->addItem(tr("n-gram, order %1").arg(order), QStringLiteral("ngram:%1").arg(order));
    for (int order : {1, 2, 3, 4})
        m_draft->addItem(tr("n-gram, order %1").arg(order), QStringLiteral("ngram:%1").arg(order));
    m_draft->addItem(tr("uniform (knows nothing)"), QStringLiteral("uniform"));
    m_draft->addItem(tr("same as the target"), QStringLiteral("same"));
    for (const QString &path : std::as_const(m_modelFiles)) {
        const QString spec = QStringLiteral("onnx:") + path;
        for (QComboBox *box : {m_target, m_draft}) {
            box->addItem(modelTitle(spec), spec);
            box->setItemData(box->count() - 1, modelToolTip(spec), Qt::ToolTipRole);
        }
    }
    if (!target.isEmpty())
        setComboText(m_target, target);
    if (!draft.isEmpty())
        setComboText(m_draft, draft);
    m_updating = false;
}

void SetupBar::retranslate()
{
    const QStringList names = {tr("Corpus"), tr("Tokenizer"),   tr("Target"),  tr("Draft"), tr("Prompt"), tr("K"),
                               tr("Tree"),   tr("Temperature"), tr("Draft T"), tr("Top-k"), tr("Top-p"),  tr("Seed")};
    for (int i = 0; i < m_labels.size() && i < names.size(); ++i)
        m_labels[i]->setText(names[i]);
    m_corpus->setToolTip(tr("A built corpus or any UTF-8 text file (File ▸ Open corpus…, or drop a file)."));
    m_tokenizer->setItemText(0, tr("Characters"));
    m_tokenizer->setItemData(0, tr("Every token is one character (Unicode code point) of the corpus."), Qt::ToolTipRole);
    m_tokenizer->setItemText(m_tokenizer->count() - 1, tr("tokenizer.json…"));
    m_tokenizer->setItemData(m_tokenizer->count() - 1, tr("Choose a Hugging Face tokenizer.json file."), Qt::ToolTipRole);
    m_tokenizer->setToolTip(tr("How the text is cut into tokens, shared by target and draft: characters, or the "
                               "subword pieces of a real LLM's tokenizer.json (an n-gram model is trained on the "
                               "corpus cut that way)."));
    const auto withFacts = [](const QString &role, const ModelFacts &facts) {
        const QString said = factsText(facts);
        return said.isEmpty() ? role : role + QLatin1Char('\n') + said;
    };
    m_target->setToolTip(
        withFacts(tr("The head chef: the model whose distribution the output follows exactly."), m_targetFacts));
    m_draft->setToolTip(withFacts(tr("The apprentice: a cheap model that drafts K tokens per round."), m_draftFacts));
    m_prompt->setPlaceholderText(tr("text to continue (empty: start from nothing)"));
    m_k->setToolTip(tr("Draft length K: tokens the apprentice writes per round."));
    m_tree->setPlaceholderText(tr("chain"));
    m_tree->setToolTip(tr("Token tree: children per depth, e.g. 3,2,1 (3 drafts, 2 under each, 1 under each of "
                          "those: 15 nodes, verified in one pass). Empty: a chain of K."));
    m_temperature->setToolTip(tr("Target temperature; 0 = greedy (equality checks instead of dice)."));
    m_draftTemperature->setSpecialValueText(tr("same"));
    m_draftTemperature->setToolTip(tr("Draft temperature (\"same\": the target's)."));
    m_topK->setSpecialValueText(tr("off"));
    m_topK->setToolTip(tr("Keep only the k most probable tokens (applied to p and q)."));
    m_topP->setToolTip(tr("Nucleus sampling mass (1 = off; applied to p and q)."));
    m_seed->setToolTip(tr("The same seed replays the same run."));
    m_kvCache->setText(tr("KV cache"));
    m_kvCache->setToolTip(tr("On: each ONNX model keeps its keys and values between calls, a draft step feeds one "
                             "token, a verification K + 1, and a rejection rolls the cache back (what real engines "
                             "do). Off: every call recomputes its whole window; the baseline is then the uncached "
                             "decoder, about 20× slower than a real engine on 300 tokens of kjv (specdec bench "
                             "--kv-cache-speedup), and the wall-clock speedup flatters speculation. n-gram models "
                             "keep their context either way."));
    fillModels();
}

void SetupBar::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
