// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face model folders in the window (hf:PATH): a Llama pair from tests/data/hf plays rounds whose cards hold
// the folders' tokenizer pieces; the title, status and setup bar name the folders; the folder's tokenizer.json is the
// setup's tokenizer; greedy text equals the engine's and `specdec run --mode autoregressive --temperature 0`'s greedy
// run on the target; the target's tooltip gives its weights on disk and its measured step; a draft folder with another
// tokenizer is one line in the banner and the session plays on; File ▸ Open model folder… sets an hf: spec.
#include "../TestSupport.h"
#include "GuiTestSupport.h"

#include "ActionRegistry.h"
#include "CardStrip.h"
#include "Generation.h"
#include "MessageBanner.h"
#include "ModelFactory.h"
#include "RoundView.h"
#include "SetupBar.h"
#include "TokenText.h"
#include "TranscriptView.h"
#include "TransportBar.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <initializer_list>
#include <memory>

using namespace specdec;
using namespace specdec::gui;

namespace {

QString folder(const char *name)
{
    return QStringLiteral(SPECDEC_SOURCE_DIR "/tests/data/hf/") + QLatin1String(name);
}

/// A new folder DIR/name holding `files` of the test folder `source` and, when given, a generation_config.json of
/// `generation`; empty when a file could not be written.
QString folderCopy(const QTemporaryDir &dir, const char *name, const char *source,
                   std::initializer_list<const char *> files, const QByteArray &generation = {})
{
    const QString to = dir.filePath(QLatin1String(name));
    if (!QDir().mkpath(to))
        return {};
    for (const char *file : files)
        if (!QFile::copy(folder(source) + u'/' + QLatin1String(file), to + u'/' + QLatin1String(file)))
            return {};
    if (!generation.isEmpty()) {
        QFile config(to + QStringLiteral("/generation_config.json"));
        if (!config.open(QIODevice::WriteOnly) || config.write(generation) != generation.size())
            return {};
    }
    return to;
}

/// The Llama pair on tiny-en.txt, greedy: target llama-large-op17 (3 layers), draft llama-op17 (2 layers).
Setup llamaPair()
{
    Setup s = test::tinySetup();
    s.target = "hf:" + folder("llama-large-op17").toStdString();
    s.draft = "hf:" + folder("llama-op17").toStdString();
    s.prompt = "the ";
    s.decoding.draftLength = 3;
    s.decoding.target.temperature = 0.0;
    s.decoding.draft = s.decoding.target;
    s.decoding.seed = 5;
    return s;
}

QComboBox *box(const MainWindow &window, const char *name)
{
    return window.setupBar()->findChild<QComboBox *>(QLatin1String(name));
}

/// The status lines of the window each time the session's load progresses (read after the window has updated it:
/// its connection was made first), filled while the window lives.
std::shared_ptr<QStringList> statusesWhileLoading(test::Window &w)
{
    auto statuses = std::make_shared<QStringList>();
    QObject::connect(&w.session, &SessionController::loadProgressed, &w.window,
                     [&w, statuses] { *statuses << w.window.transport()->status(); });
    return statuses;
}

/// The percents of `statuses` that match `pattern` (its one capture: the percent), in order.
QList<int> percentsOf(const QStringList &statuses, const QRegularExpression &pattern)
{
    QList<int> percents;
    for (const QString &s : statuses)
        if (const QRegularExpressionMatch m = pattern.match(s); m.hasMatch())
            percents << m.captured(1).toInt();
    return percents;
}

bool played(test::Window &w, int rounds)
{
    w.session.playTo(rounds);
    return QTest::qWaitFor([&] { return w.session.history().size() >= rounds; }, 60000);
}

} // namespace

class TestHfFolders : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void llamaPairPlaysPiecesGreedyAsTheEngine();
    void folderWithAnotherTokenizerKeepsTheSession();
    void endOfTextEndsTheSession();
    void openModelFolderActionSetsHfSpecs();
    void targetFolderBringsItsSampling();
};

void TestHfFolders::initTestCase()
{
#ifdef SPECDEC_NO_ONNX_EXECUTOR
    QSKIP("this build has no ONNX executor");
#endif
    QStandardPaths::setTestModeEnabled(true); // QSettings of the window go to a test location
}

void TestHfFolders::llamaPairPlaysPiecesGreedyAsTheEngine()
{
    test::Window w;
    w.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    const std::shared_ptr<QStringList> statuses = statusesWhileLoading(w);
    w.window.startSession(llamaPair());
    // The folders load on the session worker; the window says which meanwhile, and how far: the percent of the
    // pair's weights loaded, on the way and up to 100, then the session's status.
    QCOMPARE(w.window.transport()->status(), QStringLiteral("Loading llama-large-op17 + llama-op17 … 0 %"));
    QVERIFY2(ready.wait(120000), qPrintable(w.window.banner()->text()));
    const QList<int> percents = percentsOf(
        *statuses, QRegularExpression(QStringLiteral("^Loading llama-large-op17 \\+ llama-op17 … (\\d+) %$")));
    QVERIFY2(percents.size() == statuses->size() && percents.size() > 2, qPrintable(statuses->join(u'\n')));
    QVERIFY2(std::is_sorted(percents.begin(), percents.end()) && percents.back() == 100
                 && std::count_if(percents.begin(), percents.end(), [](int p) { return p > 0 && p < 100; }) >= 2,
             qPrintable(statuses->join(u'\n')));
    QVERIFY2(!w.window.transport()->status().contains(u'%'), qPrintable(w.window.transport()->status()));

    // Named by their folders; the folder's tokenizer.json is the setup's tokenizer, shown by the folder's name.
    QCOMPARE(w.session.info().target, QStringLiteral("llama-large-op17"));
    QCOMPARE(w.session.info().draft, QStringLiteral("llama-op17"));
    QCOMPARE(QString::fromStdString(w.session.setup().tokenizer), folder("llama-large-op17"));
    QCOMPARE(box(w.window, "tokenizer")->currentText(), QStringLiteral("llama-large-op17"));
    QCOMPARE(box(w.window, "target")->currentText(), QStringLiteral("llama-large-op17"));
    QCOMPARE(box(w.window, "draft")->currentText(), QStringLiteral("llama-op17"));
    const Tokenizer &tokenizer = *w.session.info().vocabulary;
    QCOMPARE(tokenizer.kind(), Tokenizer::Kind::HuggingFace);

    // The target's tooltip: its weights on disk (model.onnx's bytes) and its step time, measured at load.
    const double mb = static_cast<double>(QFileInfo(folder("llama-large-op17") + QStringLiteral("/model.onnx")).size())
        / 1e6;
    const QString tip = box(w.window, "target")->toolTip();
    QVERIFY2(tip.contains(QLocale().toString(mb, 'f', 2) + QStringLiteral(" MB"))
                 && tip.contains(QStringLiteral("model.onnx")),
             qPrintable(tip));
    QVERIFY(w.session.info().targetFacts.stepSeconds > 0.0);
    QVERIFY2(tip.contains(QStringLiteral(" ms")), qPrintable(tip));
    QVERIFY2(
        tip.contains(QStringLiteral("where a %1-token run's calls are").arg(w.session.info().targetFacts.probedTokens))
            && w.session.info().targetFacts.probedTokens > 0,
        qPrintable(tip));
    // ... and its parameters, as the executor counts them (test_shipped_models checks that count against PyTorch's).
    const qint64 parameters = w.session.info().targetFacts.parameters;
    QVERIFY(parameters > 0);
    QVERIFY2(tip.contains(QLocale().toString(parameters)), qPrintable(tip));
    QVERIFY(w.session.info().draftFacts.parameters > 0 && w.session.info().draftFacts.parameters < parameters);
    QVERIFY(w.session.info().draftFacts.weightBytes > 0);
    QVERIFY(w.session.info().draftFacts.weightBytes < w.session.info().targetFacts.weightBytes);

    // Rounds: every card holds its token's piece as the tokenizer displays it; the status names both folders.
    constexpr int kRounds = 6;
    QVERIFY(played(w, kRounds));
    int cards = 0;
    for (int round = 0; round < kRounds; ++round) {
        w.player.jumpTo(round, Phase::Commit);
        QCOMPARE(w.player.round(), round);
        const CardStrip *strip = w.window.roundView()->cards();
        for (int card = 0; card < strip->cardCount(); ++card) {
            const CardContent c = strip->contentOf(card);
            if (c.frame.token < 0)
                continue;
            ++cards;
            QCOMPARE(c.glyph, tokenGlyph(tokenizer, c.frame.token));
        }
    }
    QVERIFY(cards >= kRounds);
    const QString status = w.window.transport()->status();
    QVERIFY2(status.contains(QStringLiteral("llama-large-op17")) && status.contains(QStringLiteral("llama-op17")),
             qPrintable(status));

    // Greedy: the window's text is the target's greedy autoregressive text (the engine's run on the same folder).
    std::vector<TokenId> committed;
    for (int round = 0; round < kRounds; ++round) {
        const auto &c = w.session.history().at(round).trace.committed;
        committed.insert(committed.end(), c.begin(), c.end());
    }
    const Corpus corpus = test::builtCorpora().load(test::tinySetup().corpus);
    BuiltModel target = buildModel(ModelSpec::parse(llamaPair().target), corpus);
    const Generation greedy = generateAutoregressive(*target.model, {0.0, 0, 1.0}, 0, w.session.info().prompt,
                                                     static_cast<int>(committed.size()));
    QCOMPARE(committed, greedy.tokens);
    std::vector<TokenId> all = w.session.info().prompt;
    all.insert(all.end(), greedy.tokens.begin(), greedy.tokens.end());
    const TranscriptView *transcript = w.window.roundView()->transcript();
    // the decoded text, its control characters written as codes (this pair writes a U+0005: "<05>", not a box)
    QCOMPARE(transcript->plainText(),
             visibleControls(QString::fromStdString(tokenizer.decode(all))) + transcript->pendingText());

    // And the command line's greedy run on the same folder writes the same text.
    QProcess cli;
    cli.start(QCoreApplication::applicationDirPath() + QStringLiteral("/specdec"),
              {QStringLiteral("run"), QStringLiteral("--corpus"), QString::fromStdString(test::tinySetup().corpus),
               QStringLiteral("--target"), QString::fromStdString(llamaPair().target), QStringLiteral("--mode"),
               QStringLiteral("autoregressive"), QStringLiteral("--temperature"), QStringLiteral("0"),
               QStringLiteral("--prompt"), QStringLiteral("the "), QStringLiteral("--tokens"),
               QString::number(committed.size()), QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const QJsonObject report = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(report.value(QStringLiteral("generated_tokens")).toInt(), static_cast<int>(committed.size()));
    QCOMPARE(report.value(QStringLiteral("text")).toString(), QString::fromStdString(tokenizer.decode(committed)));
}

// A target folder whose generation_config.json names an end-of-text id the greedy text writes: the session plays
// up to it and no further (its last round's text ends with it), and the status line says why it stopped.
void TestHfFolders::endOfTextEndsTheSession()
{
    const Corpus corpus = test::builtCorpora().load(test::tinySetup().corpus);
    Setup setup = llamaPair();
    BuiltModel plain = buildModel(ModelSpec::parse(setup.target), corpus);
    const std::vector<TokenId> prompt = plain.model->tokenizer().encode(setup.prompt);
    const Generation greedy = generateAutoregressive(*plain.model, {0.0, 0, 1.0}, 0, prompt, 30);
    std::size_t at = 3; // a token of the greedy text not written before it, from the 4th on
    while (std::find(greedy.tokens.begin(), greedy.tokens.begin() + static_cast<long>(at), greedy.tokens[at])
           != greedy.tokens.begin() + static_cast<long>(at))
        ++at;
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString target = folderCopy(tmp, "target", "llama-large-op17", {"config.json", "tokenizer.json", "model.onnx"},
                                      QStringLiteral("{\"eos_token_id\": %1}").arg(greedy.tokens[at]).toUtf8());
    QVERIFY(!target.isEmpty());
    setup.target = "hf:" + target.toStdString();
    setup.tokenizer = target.toStdString();

    test::Window w;
    w.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(setup);
    QVERIFY2(ready.wait(120000), qPrintable(w.window.banner()->text()));
    w.session.playTo(40);
    QVERIFY(QTest::qWaitFor([&] { return w.session.isAtCap(); }, 60000));
    QVERIFY(w.session.endedAtEndOfText());
    std::vector<TokenId> committed;
    for (int round = 0; round < w.session.history().size(); ++round) {
        const auto &c = w.session.history().at(round).trace.committed;
        committed.insert(committed.end(), c.begin(), c.end());
    }
    // the last round's committed tokens may run past the end-of-text token: the run kept up to it
    QVERIFY(committed.size() > at);
    QVERIFY(std::equal(greedy.tokens.begin(), greedy.tokens.begin() + static_cast<long>(at) + 1, committed.begin()));
    w.player.jumpTo(w.session.history().size() - 1, Phase::Commit);
    const QString status = w.window.transport()->status();
    QVERIFY2(status.contains(QStringLiteral("the target wrote its end-of-text token")), qPrintable(status));
    // The transcript's text ends with the end-of-text token, as the run's does.
    std::vector<TokenId> all = w.session.info().prompt;
    all.insert(all.end(), greedy.tokens.begin(), greedy.tokens.begin() + static_cast<long>(at) + 1);
    const TranscriptView *transcript = w.window.roundView()->transcript();
    QCOMPARE(transcript->plainText(),
             visibleControls(QString::fromStdString(w.session.info().vocabulary->decode(all)))
                 + transcript->pendingText());
}

// A draft folder whose tokenizer.json differs from the target's (one merge fewer): one line in the banner naming
// the tokenizers; the pair that was playing stays, at its position, and plays on.
void TestHfFolders::folderWithAnotherTokenizerKeepsTheSession()
{
    QTemporaryDir dir;
    const QString other = folderCopy(dir, "llama-other", "llama-op17",
                                     {"config.json", "generation_config.json", "model.onnx"});
    QVERIFY(!other.isEmpty());
    {
        QFile in(folder("llama-op17") + QStringLiteral("/tokenizer.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
        QJsonObject model = json.value(QStringLiteral("model")).toObject();
        QJsonArray merges = model.value(QStringLiteral("merges")).toArray();
        QVERIFY(!merges.isEmpty());
        merges.removeLast();
        model.insert(QStringLiteral("merges"), merges);
        json.insert(QStringLiteral("model"), model);
        QFile out(other + QStringLiteral("/tokenizer.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(json).toJson());
    }

    test::Window w;
    w.window.show(); // the banner says what it shows only in a window on screen
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    QSignalSpy failed(&w.session, &SessionController::failed);
    w.window.startSession(llamaPair());
    QVERIFY2(ready.wait(120000), qPrintable(w.window.banner()->text()));
    QVERIFY(played(w, 2));
    w.player.jumpTo(1, Phase::Commit);

    const std::shared_ptr<QStringList> statuses = statusesWhileLoading(w);
    w.window.openModelFolder(other, MainWindow::ModelRole::Draft);
    // The new pair loads behind the session, which stays on screen: the status says both, and how far the pair is.
    const QString loading = w.window.transport()->status();
    QVERIFY2(loading.startsWith(QStringLiteral("Round 2"))
                 && loading.endsWith(QStringLiteral(" · loading llama-large-op17 + llama-other … 0 %")),
             qPrintable(loading));
    QVERIFY(failed.wait(120000));
    // (The target loads, then the draft's tokenizer is refused: the percents stop short of 100.)
    const QList<int> percents = percentsOf(
        *statuses,
        QRegularExpression(QStringLiteral("^Round 2 .* · loading llama-large-op17 \\+ llama-other … (\\d+) %$")));
    QVERIFY2(!percents.isEmpty() && percents.size() == statuses->size() && percents.back() > 0,
             qPrintable(statuses->join(u'\n')));
    const QString message = w.window.banner()->text();
    QCOMPARE(w.window.banner()->kind(), MessageBanner::Kind::Error);
    QVERIFY2(message.contains(QStringLiteral("tokenizer")) && message.contains(QStringLiteral("merges")),
             qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
    QVERIFY(w.session.isReady());
    QCOMPARE(w.session.setup().draft, llamaPair().draft);
    QCOMPARE(w.window.setupBar()->setup().draft, llamaPair().draft);
    QCOMPARE(w.player.round(), 1);
    QVERIFY2(!w.window.transport()->status().contains(QStringLiteral("loading")),
             qPrintable(w.window.transport()->status()));
    QVERIFY(played(w, 3)); // and it plays on
}

// A folder opened as the target brings its generation_config.json's sampling into the setup (and the banner says
// so); as the draft it leaves the setup's sampling alone.
void TestHfFolders::targetFolderBringsItsSampling()
{
    QTemporaryDir dir;
    const QString sampled = folderCopy(
        dir, "llama-sampled", "llama-large-op17", {"config.json", "tokenizer.json", "model.onnx"},
        R"({"eos_token_id": 283, "do_sample": true, "temperature": 0.7, "top_k": 20, "top_p": 0.8})");
    QVERIFY(!sampled.isEmpty());

    test::Window w;
    w.window.show(); // the banner says what it shows only in a window on screen
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    Setup start = llamaPair();
    start.decoding.target.temperature = start.decoding.draft.temperature = 1.0;
    w.window.startSession(start);
    QVERIFY2(ready.wait(120000), qPrintable(w.window.banner()->text()));
    w.window.openModelFolder(sampled, MainWindow::ModelRole::Draft);
    QCOMPARE(w.window.setupBar()->setup().decoding.target.temperature, 1.0);
    w.window.openModelFolder(sampled, MainWindow::ModelRole::Target);
    const SamplerSettings &t = w.window.setupBar()->setup().decoding.target;
    QCOMPARE(t.temperature, 0.7);
    QCOMPARE(t.topK, 20);
    QCOMPARE(t.topP, 0.8);
    QCOMPARE(w.window.setupBar()->setup().decoding.draft.temperature, 0.7);
    QVERIFY(ready.wait(120000));
    QCOMPARE(w.session.setup().decoding.target.temperature, 0.7);
    // Said once the session is ready (the banner hides while a session loads).
    const QString message = w.window.banner()->text();
    QVERIFY2(w.window.banner()->isVisible() && message.contains(QStringLiteral("temperature 0.7, top-k 20, top-p 0.8")),
             qPrintable(message));
}

// File ▸ Open model folder… asks for a folder, then whether it is the target or the draft, and sets hf:FOLDER.
void TestHfFolders::openModelFolderActionSetsHfSpecs()
{
    test::Window w;
    w.window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    QSignalSpy ready(&w.session, &SessionController::ready);
    w.window.startSession(test::tinySetup());
    QVERIFY(ready.wait(60000));
    QAction *open = w.window.actions()->action(QStringLiteral("file.openModelFolder"));
    QVERIFY(open);

    const QString small = folder("llama-op17");
    QString dialogTitle;
    bool answered = false;
    QTimer poll;
    poll.setInterval(20);
    connect(&poll, &QTimer::timeout, this, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *dialog = qobject_cast<QFileDialog *>(modal)) {
            dialogTitle = dialog->windowTitle();
            dialog->setDirectory(small);
            QMetaObject::invokeMethod(dialog, &QDialog::accept); // (protected in QFileDialog)
        } else if (auto *question = qobject_cast<QMessageBox *>(modal)) {
            for (QAbstractButton *b : question->buttons())
                if (b->text() == QStringLiteral("Draft")) {
                    answered = true;
                    b->click();
                }
        }
    });
    poll.start();
    ready.clear();
    open->trigger();
    poll.stop();
    QCOMPARE(dialogTitle, QStringLiteral("Open model folder"));
    QVERIFY(answered);
    // The draft is the folder; beside an n-gram target the folder's tokenizer.json becomes the setup's tokenizer.
    QCOMPARE(w.window.setupBar()->setup().draft, "hf:" + small.toStdString());
    QCOMPARE(w.window.setupBar()->setup().tokenizer, small.toStdString());
    QVERIFY2(ready.wait(120000), qPrintable(w.window.banner()->text()));
    QCOMPARE(w.session.setup().draft, "hf:" + small.toStdString());
    QCOMPARE(w.session.setup().target, test::tinySetup().target);
    QCOMPARE(w.session.info().draft, QStringLiteral("llama-op17"));
    QCOMPARE(w.session.info().vocabulary->kind(), Tokenizer::Kind::HuggingFace);
}

QTEST_MAIN(TestHfFolders)
#include "test_gui_hf_folders.moc"
