// SPDX-License-Identifier: GPL-3.0-or-later
#include "MainWindow.h"

#include "ActionRegistry.h"
#include "ClassroomTools.h"
#include "EngineHost.h"
#include "Language.h"
#include "Player.h"
#include "SessionController.h"
#include "SetupSettings.h"

#include "ModelFiles.h"
#include "onnx/HfFolder.h"

#include "DistributionView.h"
#include "MessageBanner.h"
#include "ModelTitle.h"
#include "PlotsPanel.h"
#include "RoundFrame.h"
#include "RoundView.h"
#include "SetupBar.h"
#include "TheoryPanel.h"
#include "Timeline.h"
#include "TransportBar.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace specdec::gui {

namespace {

/// The model folders of a setup by their names ("llama-large + llama-small"); empty when it names none.
QString foldersOf(const Setup &setup)
{
    QStringList names;
    for (const std::string *spec : {&setup.target, &setup.draft})
        if (const auto model = neuralModel(*spec); model && model->folder)
            names << modelTitle(*spec);
    names.removeDuplicates();
    return names.join(QStringLiteral(" + "));
}

/// Whether the setup's target or draft is a neural model (whose load is told in percents of its weights).
bool hasNeuralModel(const Setup &setup)
{
    return neuralModel(setup.target).has_value() || neuralModel(setup.draft).has_value();
}

/// What a setup's numbers mean when some of them do nothing (said in the banner once it has loaded).
QStringList setupNotes(const Setup &setup)
{
    QStringList notes;
    const DecodingSettings &d = setup.decoding;
    if (d.target.greedy() && (d.target.topP < 1.0 || d.target.topK > 0))
        notes << MainWindow::tr("At T = 0 the head chef takes its most likely token: top-k and top-p have no effect.");
    if (!d.tree.empty() && d.draft.greedy())
        notes << MainWindow::tr("At draft T = 0 a node's children are copies: each i.i.d. draw from a greedy q is its "
                                "most likely token. Raise the temperature for different children.");
    return notes;
}

} // namespace

MainWindow::MainWindow(SessionController *session, Player *player, Language *language, QWidget *parent)
    : QMainWindow(parent)
    , m_session(session)
    , m_player(player)
    , m_language(language)
    , m_setupBar(new SetupBar(this))
    , m_transport(new TransportBar(this))
    , m_banner(new MessageBanner(this))
    , m_roundView(new RoundView(this))
    , m_distribution(new DistributionView(this))
    , m_plots(new PlotsPanel(this))
    , m_theory(new TheoryPanel(this))
    , m_timeline(new Timeline(this))
{
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_banner);
    layout->addWidget(m_roundView, 1);
    setCentralWidget(central);
    for (QWidget *bar : {static_cast<QWidget *>(m_setupBar), static_cast<QWidget *>(m_transport)}) {
        auto *toolBar = new QToolBar(this);
        toolBar->setObjectName(bar == m_setupBar ? QStringLiteral("SetupToolBar") : QStringLiteral("TransportToolBar"));
        toolBar->setMovable(false);
        toolBar->addWidget(bar);
        addToolBar(Qt::TopToolBarArea, toolBar);
        if (bar == m_setupBar)
            addToolBarBreak();
        m_toolBars << toolBar;
    }
    addActions(m_transport->actions());
    m_actions = new ActionRegistry(menuBar(), this);
    createDocks();
    createMenus();
    connectSession();
    m_classroom = new ClassroomTools(this, session, player);
    m_player->setPhaseMilliseconds(TransportBar::phaseMilliseconds(m_transport->speed()));
    m_roundView->setAnimationDuration(m_player->phaseMilliseconds() * 4 / 5);
    retranslate();
    arrangeFor({1600, 1000});
}

void MainWindow::createDocks()
{
    auto dock = [this](QWidget *widget, const char *name, Qt::DockWidgetArea area) {
        auto *d = new QDockWidget(this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(widget);
        d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                       | QDockWidget::DockWidgetClosable);
        addDockWidget(area, d);
        m_docks << d;
        return d;
    };
    dock(m_timeline, "TimelineDock", Qt::LeftDockWidgetArea);
    dock(m_distribution, "DistributionDock", Qt::RightDockWidgetArea);
    dock(m_theory, "TheoryDock", Qt::RightDockWidgetArea);
    dock(m_plots, "PlotsDock", Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
}

void MainWindow::arrangeFor(const QSize &size)
{
    m_compact = size.width() < 1500 || size.height() < 900;
    QDockWidget *timeline = m_docks[0], *distributions = m_docks[1], *theory = m_docks[2], *plots = m_docks[3];
    for (QDockWidget *d : {distributions, theory, plots})
        removeDockWidget(d);
    addDockWidget(Qt::RightDockWidgetArea, distributions);
    if (m_compact) {
        tabifyDockWidget(distributions, theory);
        tabifyDockWidget(theory, plots);
        distributions->raise();
    } else {
        addDockWidget(Qt::RightDockWidgetArea, theory);
        addDockWidget(Qt::BottomDockWidgetArea, plots);
    }
    for (QDockWidget *d : {distributions, theory, plots})
        d->show();
    const int side = size.width() * (m_compact ? 33 : 29) / 100;
    resizeDocks({timeline}, {size.width() * (m_compact ? 15 : 14) / 100}, Qt::Horizontal);
    resizeDocks({distributions}, {side}, Qt::Horizontal);
    if (!m_compact) {
        resizeDocks({distributions, theory}, {size.height() * 52 / 100, size.height() * 30 / 100}, Qt::Vertical);
        resizeDocks({plots}, {size.height() * 30 / 100}, Qt::Vertical);
    }
    resize(size);
}

void MainWindow::createMenus()
{
    ActionRegistry &r = *m_actions;
    // File: corpora and models (0), sessions and exports (1, the classroom's), quit (9).
    connect(
        r.add(
            QStringLiteral("file.openCorpus"), MenuId::File, 0, [] { return tr("Open &corpus…"); }, QKeySequence::Open),
        &QAction::triggered, this, &MainWindow::openCorpusDialog);
    connect(r.add(
                QStringLiteral("file.openModel"), MenuId::File, 0, [] { return tr("Open ONNX &model…"); },
                QKeySequence(Qt::CTRL | Qt::Key_M)),
            &QAction::triggered, this, [this] {
                const QString path = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), QString(),
                                                                  tr("ONNX models (*.onnx);;All files (*)"));
                if (!path.isEmpty())
                    openModel(path);
            });
    connect(r.add(
                QStringLiteral("file.openModelFolder"), MenuId::File, 0, [] { return tr("Open model &folder…"); },
                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M)),
            &QAction::triggered, this, [this] {
                const QString dir = QFileDialog::getExistingDirectory(this, tr("Open model folder"));
                if (!dir.isEmpty())
                    openModelFolder(dir);
            });
    connect(r.add(
                QStringLiteral("file.quit"), MenuId::File, 9, [] { return tr("&Quit"); }, QKeySequence::Quit),
            &QAction::triggered, this, &QWidget::close);

    // Play: the transport's actions, with the keys a class uses.
    r.adopt(m_transport->playAction(), QStringLiteral("play.toggle"), MenuId::Play, 0, {}, Qt::Key_Space);
    r.adopt(m_transport->previousPhaseAction(), QStringLiteral("play.previousPhase"), MenuId::Play, 0, {}, Qt::Key_Left);
    r.adopt(m_transport->nextPhaseAction(), QStringLiteral("play.nextPhase"), MenuId::Play, 0, {}, Qt::Key_Right);
    r.adopt(m_transport->nextRoundAction(), QStringLiteral("play.nextRound"), MenuId::Play, 0, {},
            QKeySequence(Qt::SHIFT | Qt::Key_Right));
    r.adopt(m_transport->resetAction(), QStringLiteral("play.reset"), MenuId::Play, 1, {}, Qt::Key_Home);
    connect(
        r.add(
            QStringLiteral("play.end"), MenuId::Play, 1, [] { return tr("Go to the last round played"); }, Qt::Key_End),
        &QAction::triggered, m_player, &Player::end);

    // View: the docks, then the language.
    const QStringList dockIds = {QStringLiteral("view.timeline"), QStringLiteral("view.distributions"),
                                 QStringLiteral("view.theory"), QStringLiteral("view.plots")};
    for (int i = 0; i < m_docks.size(); ++i)
        r.adopt(m_docks[i]->toggleViewAction(), dockIds[i], MenuId::View, 0);
    auto *group = new QActionGroup(this);
    auto addLanguage = [&](const QString &id, const QString &code, ActionRegistry::Text text) {
        QAction *a = r.add(id, MenuId::Language, 0, std::move(text));
        connect(a, &QAction::triggered, this, [this, code] {
            m_language->set(code);
            QSettings().setValue(QStringLiteral("language"), code);
        });
        a->setCheckable(true);
        a->setChecked(m_language->current() == code);
        group->addAction(a);
    };
    addLanguage(QStringLiteral("language.system"), QString(), [] { return tr("System language"); });
    addLanguage(QStringLiteral("language.en"), QStringLiteral("en"), [] { return QStringLiteral("English"); });
    addLanguage(QStringLiteral("language.zh_CN"), QStringLiteral("zh_CN"), [] { return QStringLiteral("简体中文"); });

    // Help: the guide, the keys and Reset are the classroom's (section 0); About closes the menu.
    connect(r.add(QStringLiteral("help.about"), MenuId::Help, 1, [] { return tr("&About specdec-lab"); }),
            &QAction::triggered, this, [this] {
                QMessageBox::about(
                    this, tr("About specdec-lab"),
                    tr("<p><b>specdec-lab</b> runs speculative decoding for real and shows every step: the "
                       "apprentice drafts, the head chef verifies in one pass, dice decide, the residual "
                       "corrects. The output follows the target's distribution exactly.</p>"));
            });
}

void MainWindow::openCorpusDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open corpus"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
    if (!path.isEmpty())
        openCorpus(path);
}

void MainWindow::retranslate()
{
    setWindowTitle(tr("specdec-lab — Speculative Decoding Lab"));
    m_actions->retranslate();
    const QStringList titles = {tr("Timeline"), tr("Distributions"), tr("Theory"), tr("Live plots")};
    for (int i = 0; i < m_docks.size(); ++i)
        m_docks[i]->setWindowTitle(titles[i]);
    updateStatus();
}

void MainWindow::connectSession()
{
    m_timeline->model()->setHistory(&m_session->history());
    connect(m_setupBar, &SetupBar::setupChanged, this, &MainWindow::startSession);
    connect(m_session->host(), &EngineHost::jobFailed, this,
            [this](int, const QString &message) { reportError(message); });
    // Enter (or Esc) in a setup field gives the keys back to the round view: Space plays again.
    connect(m_setupBar, &SetupBar::editingDone, m_roundView, [this] { m_roundView->setFocus(Qt::OtherFocusReason); });
    connect(m_transport, &TransportBar::playToggled, m_player, &Player::togglePlay);
    connect(m_transport, &TransportBar::nextPhase, m_player, &Player::nextPhase);
    connect(m_transport, &TransportBar::previousPhase, m_player, &Player::previousPhase);
    connect(m_transport, &TransportBar::nextRound, m_player, &Player::nextRound);
    connect(m_transport, &TransportBar::reset, this, [this] {
        m_player->reset();
        if (m_player->homeIsFirstKept()) // a long session: the rounds before the first kept cannot be replayed
            m_banner->showMessage(MessageBanner::Kind::Info,
                                  tr("Rounds 1 to %1 are no longer kept (the window keeps the newest %2 rounds; their "
                                     "numbers stay in the totals): Home shows round %3, the first one kept.")
                                      .arg(m_session->history().first())
                                      .arg(m_session->history().kept())
                                      .arg(m_session->history().first() + 1));
    });
    connect(m_transport, &TransportBar::speedChanged, this, [this](int speed) {
        m_player->setPhaseMilliseconds(TransportBar::phaseMilliseconds(speed));
        m_roundView->setAnimationDuration(m_player->phaseMilliseconds() * 4 / 5);
    });
    connect(m_player, &Player::playingChanged, m_transport, &TransportBar::setPlaying);
    connect(m_player, &Player::playingChanged, this, [this](bool playing) {
        if (!playing) // from full speed: every panel to the round on screen
            revealViews();
    });
    connect(m_player, &Player::positionChanged, this, &MainWindow::showPosition);
    connect(m_timeline, &Timeline::roundActivated, m_player, [this](int round) { m_player->jumpTo(round); });
    connect(m_roundView, &RoundView::cardSelected, this, &MainWindow::showCard);
    connect(m_roundView, &RoundView::treeNodeSelected, this, &MainWindow::showTreeNode);
    connect(m_setupBar, &SetupBar::inputError, this,
            [this](const QString &message) { m_banner->showMessage(MessageBanner::Kind::Error, message); });
    connect(m_setupBar, &SetupBar::tokenizerFileWanted, this, &MainWindow::chooseTokenizerDialog);

    connect(m_session, &SessionController::loading, this, [this] {
        m_banner->hide();
        m_roundView->setSession(SessionInfo{}); // the text of the session before leaves with its rounds
        m_distribution->clear();
        m_plots->clear();
        m_theory->clear();
        m_timeline->model()->setRevealed(0, 0, false);
        m_setupBar->setModelFacts({}, {});
        updateStatus();
    });
    connect(m_session, &SessionController::ready, this, [this](const SessionInfo &info) {
        m_loadedCorpus = QString::fromStdString(m_session->setup().corpus);
        m_loadedPrompt = QString::fromStdString(m_session->setup().prompt);
        if (m_setupBar->setup().prompt != m_session->setup().prompt) { // another corpus chose the prompt
            Setup shown = m_setupBar->setup();
            shown.prompt = m_session->setup().prompt;
            m_setupBar->setSetup(shown);
            QSettings settings;
            saveSetup(settings, shown);
        }
        m_roundView->setSession(info);
        m_distribution->setSession(info);
        m_setupBar->setModelFacts(info.targetFacts, info.draftFacts);
        m_theory->setTree(m_session->setup().decoding.tree);
        m_theory->setMachineCost(info.verificationCost, info.draftCost, info.kvCache, info.probedTokens);
        m_timeline->model()->setVocabulary(info.vocabulary);
        // Warnings first (a model that cannot represent the corpus, a corpus too small for its order), then the
        // settings that do nothing; a warning colours the banner.
        QStringList said = info.warnings + setupNotes(m_session->setup());
        if (!m_noteWhenReady.isEmpty() && m_session->setup().target == m_noteWhenReadyTarget)
            said.prepend(std::exchange(m_noteWhenReady, QString()));
        if (!said.isEmpty())
            m_banner->showMessage(info.warnings.isEmpty() ? MessageBanner::Kind::Info : MessageBanner::Kind::Warning,
                                  said.join(QLatin1Char('\n')));
        updateStatus();
    });
    connect(m_session, &SessionController::roundsAdded, this, [this] {
        // The rounds join the lists, which show them once the frame reveals them (never ahead of the class).
        updateStatus();
    });
    connect(m_session, &SessionController::capReached, this, &MainWindow::updateStatus);
    connect(m_session, &SessionController::loadProgressed, this, &MainWindow::updateStatus);
    connect(m_session, &SessionController::failed, this, [this](const QString &message) {
        const QString corpus = QString::fromStdString(m_session->setup().corpus);
        const Setup tried = m_setupBar->setup(); // (the bar may show the kept session's setup again below)
        if (m_session->isReady() && !SetupBar::sameFields(m_setupBar->setup(), m_session->setup())) {
            // The session was kept (another tokenizer that failed to load): the bar shows its setup again.
            m_setupBar->setSetup(m_session->setup());
            QSettings settings;
            saveSetup(settings, m_session->setup());
        }
        if (!m_session->isReady()) {
            // No session: nothing of the one before stays on screen (its text went with it).
            m_roundView->setSession(SessionInfo{});
            // A corpus that failed to load leaves the list (the error names its file), and the corpus box goes
            // back to the corpus of the last session that loaded, with its prompt — not to whichever corpus
            // followed the failed one in the list, under a prompt of another vocabulary.
            if (!corpus.isEmpty() && message.contains(corpus) && m_setupBar->removeCorpus(corpus)) {
                Setup back = m_setupBar->setup();
                const Setup first = defaultSetup();
                back.corpus = m_loadedCorpus.isEmpty() ? first.corpus : m_loadedCorpus.toStdString();
                back.prompt = m_loadedCorpus.isEmpty() ? first.prompt : m_loadedPrompt.toStdString();
                m_setupBar->setSetup(back);
                QSettings settings; // the next start opens what works
                saveSetup(settings, back);
            }
        }
        // Said plainly first, then the detail: a vocabulary mismatch lists code points a class cannot read.
        const bool mismatch = message.startsWith(QLatin1String("draft and target tokenizers differ"));
        if (mismatch && !foldersOf(tried).isEmpty()) { // a model folder's tokenizer.json: one line, no corpus to blame
            m_banner->showMessage(MessageBanner::Kind::Error,
                                  tr("The draft cuts text into other tokens than the target (%1); pick a draft whose "
                                     "tokenizer.json is the target's.")
                                      .arg(message));
            updateStatus();
            return;
        }
        const QString plain = mismatch
            ? tr("The draft was trained on another text than the target, so their tokens differ: pick a draft "
                 "made from the target's corpus.")
                + QLatin1Char('\n')
            : QString();
        m_banner->showMessage(MessageBanner::Kind::Error,
                              plain + tr("The engine could not do that: %1. Change the setup to try again.").arg(message));
        updateStatus();
    });
}

int MainWindow::roundsRevealed() const
{
    const RoundHistory &history = m_session->history();
    const int round = m_player->round();
    return history.contains(round)
        ? frameOf(history.trace(round), round, m_player->phase(), m_player->step(), m_player->revealOptions()).roundsRevealed
        : 0;
}

void MainWindow::reportError(const QString &message)
{
    m_banner->showMessage(MessageBanner::Kind::Error,
                          tr("Something went wrong inside the window: %1. The session and its position are kept; "
                             "please report this.")
                              .arg(message));
}

void MainWindow::startSession(const Setup &given)
{
    // A model folder brings its tokenizer.json: a target newly set to a folder (or a draft, beside a target that
    // is not a neural model) puts it in the tokenizer box, so the box shows what the models cut text with. Another
    // tokenizer chosen afterwards is the user's: it is tried, and a mismatch is said (the session stays).
    Setup setup = given;
    const Setup &before = m_session->setup();
    const auto target = neuralModel(setup.target), draft = neuralModel(setup.draft);
    const bool newTargetFolder = target && target->folder && setup.target != before.target;
    const bool newDraftFolder = draft && draft->folder && setup.draft != before.draft;
    if (newTargetFolder)
        setup.tokenizer = target->tokenizer();
    else if (newDraftFolder && !target)
        setup.tokenizer = draft->tokenizer();
    m_setupBar->setSetup(setup);
    QSettings settings;
    saveSetup(settings, setup);
    // Another tokenizer may not load, or not fit the models (an ONNX model of characters), and a model folder takes
    // a while to load and may not fit the other model: the session plays on until the new setup has loaded, and
    // stays if it fails.
    const bool newTokenizer = m_session->isReady() && setup.tokenizer != before.tokenizer;
    const bool newFolder = m_session->isReady() && (newTargetFolder || newDraftFolder);
    if (newFolder) // (the new session's loading hides it; a failure replaces it with the error)
        m_banner->showMessage(MessageBanner::Kind::Info,
                              tr("Loading %1; the session plays on until it is ready.").arg(foldersOf(setup)));
    else if (newTokenizer)
        m_banner->showMessage(MessageBanner::Kind::Info,
                              tr("Loading the tokenizer and training the models on the corpus cut into its pieces; "
                                 "the session plays on until they are ready."));
    m_session->start(
        setup, newTokenizer || newFolder ? SessionController::Start::KeepUntilLoaded : SessionController::Start::Replace);
    updateStatus();
}

void MainWindow::chooseTokenizerDialog()
{
    const QString current = QString::fromStdString(m_session->setup().tokenizer);
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Choose a tokenizer"), current == QLatin1String("chars") ? QString() : QFileInfo(current).path(),
        tr("Hugging Face tokenizers (tokenizer.json *.json);;All files (*)"));
    if (!path.isEmpty())
        m_setupBar->chooseTokenizer(path);
}

void MainWindow::showPosition(int round, Phase phase, bool animate)
{
    RoundHistory &history = m_session->history();
    history.pin(round);
    if (!history.contains(round)) {
        // The prompt alone (Home, a new session): every view back to it.
        m_roundView->setSession(m_session->info());
        m_distribution->clear();
        m_theory->clear();
        m_timeline->setCurrentRound(-1);
        revealViews();
        updateStatus();
        return;
    }
    m_roundView->cards()->setRevealOptions(m_player->revealOptions());
    m_roundView->showPosition(history, round, phase, animate, m_player->step());
    revealViews();
    updateStatus();
}

void MainWindow::showDistributions()
{
    const int round = m_player->round();
    const RoundHistory &history = m_session->history();
    if (!history.contains(round))
        return;
    if (history.at(round).tree) {
        // The node the phase is about (the last tested child, the correction or bonus), unless one was clicked.
        const TreeView *tree = m_roundView->tree();
        int node = tree->selectedNode();
        if (node == -1)
            node = tree->frame().outcomeShown ? TreeFrame::kOutcome : std::max(0, tree->frame().currentNode);
        m_distribution->showTreeNode(history.shared(round), node, m_player->phase());
    } else {
        showCard(m_roundView->cards()->currentCard());
    }
}

void MainWindow::showTreeNode(int node)
{
    const int round = m_player->round();
    const RoundHistory &history = m_session->history();
    if (history.contains(round))
        m_distribution->showTreeNode(history.shared(round), node, m_player->phase());
}

namespace {
enum Panel { TimelinePanel, DistributionsPanel, TheoryPanelTurn, PlotsPanelTurn, kPanels };
} // namespace

bool MainWindow::isStreaming() const
{
    return m_player->isPlaying() && m_player->phaseMilliseconds() == 0;
}

void MainWindow::revealViews()
{
    const bool streaming = isStreaming();
    m_plots->setDeferredReplot(streaming); // leaving full speed replots what is stale
    if (!streaming) {
        for (int panel = 0; panel < kPanels; ++panel)
            revealPanel(panel);
        return;
    }
    // The charts' data follow every frame (cheap; they replot in their turn); then one visible panel.
    revealPanel(PlotsPanelTurn);
    const QWidget *widgets[kPanels] = {m_timeline, m_distribution, m_theory, m_plots};
    for (int tries = 0; tries < kPanels; ++tries) {
        const int panel = m_nextPanel;
        m_nextPanel = (m_nextPanel + 1) % kPanels;
        if (!widgets[panel]->isVisible())
            continue;
        if (panel == PlotsPanelTurn) { // the charts' turn lasts four frames, one chart each
            if (!m_plots->replotNext())
                continue;
            if (++m_chartsDrawn < 4)
                m_nextPanel = panel;
            else
                m_chartsDrawn = 0;
            return;
        }
        revealPanel(panel);
        return;
    }
}

void MainWindow::revealPanel(int panel)
{
    // What the class has seen: the furthest position since Home lists its rounds (timeline, plots); the
    // position on screen sets the numbers (theory, the plots' cursor and per-position acceptance).
    const RoundHistory &history = m_session->history();
    auto frameAt = [&](int round, Phase phase, int step) {
        return history.contains(round) ? frameOf(history.trace(round), round, phase, step, m_player->revealOptions())
                                       : RoundFrame{};
    };
    const RoundFrame now = frameAt(m_player->round(), m_player->phase(), m_player->step());
    switch (panel) {
    case TimelinePanel: {
        const RoundFrame seen = frameAt(m_player->furthestRound(), m_player->furthestPhase(), m_player->furthestStep());
        m_timeline->model()->setRevealed(seen.empty() ? 0 : seen.round + 1, seen.verdictsRevealed, seen.committed);
        m_timeline->setCurrentRound(now.round);
        break;
    }
    case DistributionsPanel:
        if (now.round >= 0)
            showDistributions();
        break;
    case TheoryPanelTurn:
        if (now.roundsRevealed > 0 && history.contains(now.roundsRevealed - 1)) {
            const auto record = history.shared(now.roundsRevealed - 1);
            if (record->tree)
                m_theory->setTreeMetrics(record->cumulative, record->tree->exactNodeAcceptance, record->nodesDrafted);
            else
                m_theory->setMetrics(record->cumulative, m_session->setup().decoding.draftLength);
        } else
            m_theory->clear();
        break;
    case PlotsPanelTurn: {
        const RoundFrame seen = frameAt(m_player->furthestRound(), m_player->furthestPhase(), m_player->furthestStep());
        m_plots->appendRounds(history, seen.roundsRevealed);
        m_plots->setCurrentRound(history, now.round, now.roundsRevealed);
        break;
    }
    default: break;
    }
}

void MainWindow::showCard(int card)
{
    const int round = m_player->round();
    const RoundHistory &history = m_session->history();
    if (!history.contains(round))
        return;
    m_roundView->cards()->setSelectedCard(card);
    m_distribution->showCard(history.shared(round), card, m_player->phase(), m_player->revealOptions());
}

void MainWindow::updateStatus()
{
    QString text;
    const SessionInfo &info = m_session->info();
    // Whole percents of the pair's weights loaded (SessionController::loadFraction): 100 only once loaded.
    const int percent = static_cast<int>(m_session->loadFraction() * 100.0);
    if (m_session->isLoading() && !foldersOf(m_session->setup()).isEmpty())
        text = tr("Loading %1 … %2 %").arg(foldersOf(m_session->setup())).arg(percent);
    else if (m_session->isLoading() && hasNeuralModel(m_session->setup()))
        text = tr("Loading %1 and its models … %2 %").arg(QString::fromStdString(m_session->setup().corpus)).arg(percent);
    else if (m_session->isLoading())
        text = tr("Loading %1 — training the models … %2 %").arg(QString::fromStdString(m_session->setup().corpus)).arg(percent);
    else if (m_session->isReady() && m_session->goal() > 0)
        text = tr("Playing to round %1 of the session: %2 played…").arg(m_session->goal()).arg(m_session->history().size());
    else if (m_session->isReady() && m_player->round() < 0)
        text = tr("The prompt · target %1 · draft %2").arg(info.target, info.draft);
    else if (m_session->isReady()) { // rounds played ahead are not counted: they are not on screen yet
        text = tr("Round %1 · %2 · target %3 · draft %4")
                   .arg(m_player->round() + 1)
                   .arg(phaseName(m_player->phase()), info.target, info.draft);
        if (m_session->endedAtEndOfText())
            text += tr(" · the target wrote its end-of-text token: the text ends here");
        else if (m_session->isAtCap())
            text += tr(" · stopped at the cap of %1 tokens").arg(m_session->setup().cap);
        if (m_player->round() == m_session->history().first() && m_player->round() > 0)
            text += tr(" · the first round kept (rounds 1 to %1 left the history)").arg(m_player->round());
    } else
        text = tr("No session: choose a corpus and models above.");
    if (const Setup *next = m_session->loadingBehind()) { // a setup loading while this session plays on
        const QString folders = foldersOf(*next);
        text += folders.isEmpty() ? tr(" · loading the next setup … %1 %").arg(percent)
                                  : tr(" · loading %1 … %2 %").arg(folders).arg(percent);
    }
    m_transport->setStatus(text);
    // Space, the arrows and Home do nothing without a session; the buttons say so.
    for (QAction *a : m_transport->actions())
        a->setEnabled(m_session->isReady());
}

void MainWindow::openCorpus(const QString &path)
{
    // The prompt stays where the new corpus can write it, else the session starts from the corpus's first line
    // (SessionController::start).
    Setup setup = m_setupBar->setup();
    setup.corpus = path.toStdString();
    // The shipped ONNX models read only the vocabulary they were trained on and do not learn from a corpus: a
    // text of one's own is played with n-gram models trained on it.
    const Setup plain; // the engine's n-gram defaults (the window's default setup is the kjv chef)
    const bool onnxTarget = neuralModel(setup.target).has_value(), onnxDraft = neuralModel(setup.draft).has_value();
    if (onnxTarget)
        setup.target = plain.target;
    if (onnxDraft)
        setup.draft = plain.draft;
    startSession(setup);
    if (onnxTarget || onnxDraft)
        m_banner->showMessage(MessageBanner::Kind::Info,
                              tr("The ONNX models know only the text they were trained on and do not learn from a "
                                 "corpus: %1 is played with n-gram models trained on it (target %2, draft %3). Choose "
                                 "an ONNX model again to go back to it.")
                                  .arg(QFileInfo(path).fileName(), modelTitle(QString::fromStdString(setup.target)),
                                       modelTitle(QString::fromStdString(setup.draft))));
}

void MainWindow::openModel(const QString &path)
{
    useModel("onnx:" + path.toStdString(), tr("Open ONNX model"), ModelRole::Ask);
}

void MainWindow::openModelFolder(const QString &dir, ModelRole role)
{
    useModel("hf:" + QDir::cleanPath(dir).toStdString(), tr("Open model folder"), role);
}

void MainWindow::useModel(const std::string &spec, const QString &title, ModelRole role)
{
    if (role == ModelRole::Ask) {
        QMessageBox box(QMessageBox::Question, title,
                        tr("Use %1 as the target (head chef) or as the draft (apprentice)?").arg(modelTitle(spec)),
                        QMessageBox::Cancel, this);
        QAbstractButton *target = box.addButton(tr("Target"), QMessageBox::AcceptRole);
        QAbstractButton *draft = box.addButton(tr("Draft"), QMessageBox::AcceptRole);
        box.exec();
        if (box.clickedButton() == target)
            role = ModelRole::Target;
        else if (box.clickedButton() == draft)
            role = ModelRole::Draft;
        else
            return;
    }
    Setup setup = m_setupBar->setup();
    (role == ModelRole::Target ? setup.target : setup.draft) = spec;
    // A folder that becomes the target brings its generation_config.json's sampling (as `specdec run` follows it):
    // the setup bar shows it and the banner says so; the teacher changes it there as any setting.
    const std::optional<NeuralModelRef> model = neuralModel(spec);
    const std::optional<HfSampling> advice = role == ModelRole::Target && model && model->folder
        ? HfSampling::readFolder(model->path)
        : std::nullopt;
    m_noteWhenReady.clear();
    if (advice) {
        SamplerSettings &t = setup.decoding.target;
        t = SamplerSettings{advice->temperature, advice->topK, advice->topP};
        setup.decoding.draft = t;
        m_noteWhenReadyTarget = spec;
        m_noteWhenReady = t.greedy() ? tr("%1's generation_config.json samples greedily: temperature 0 (the setup "
                                          "bar changes it).")
                                           .arg(modelTitle(spec))
                                     : tr("%1's generation_config.json samples at temperature %2, top-k %3, top-p "
                                          "%4: the setup now does (the setup bar changes it).")
                                           .arg(modelTitle(spec))
                                           .arg(t.temperature)
                                           .arg(t.topK)
                                           .arg(t.topP);
    }
    startSession(setup);
}

bool MainWindow::restoreLayout()
{
    QSettings settings;
    if (settings.contains(QStringLiteral("window/speed")))
        m_transport->setSpeed(settings.value(QStringLiteral("window/speed")).toInt());
    const bool geometry = restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    return restoreState(settings.value(QStringLiteral("window/state")).toByteArray()) && geometry;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/speed"), m_transport->speed());
    QMainWindow::closeEvent(event);
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (path.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive))
            openModel(path);
        else if (!path.isEmpty() && QFileInfo(path).isDir()) // a Hugging Face model folder
            openModelFolder(path);
        else if (!path.isEmpty())
            openCorpus(path);
        break;
    }
}

} // namespace specdec::gui
