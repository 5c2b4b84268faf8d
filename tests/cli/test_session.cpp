// SPDX-License-Identifier: GPL-3.0-or-later
// Session files and trace export: a saved session reopens to the same rounds; damaged files are clear
// errors; writes are atomic.
#include "Error.h"
#include "FileIo.h"
#include "Generation.h"
#include "SessionFile.h"
#include "TestSupport.h"
#include "TraceExport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <sys/stat.h>

using namespace specdec;
using namespace specdec::app;

namespace {

Setup exampleSetup()
{
    Setup s;
    s.corpus = test::dataPath("tiny-zh.txt");
    s.target = "ngram:3";
    s.draft = "ngram:2:addk=0.2";
    s.prompt = "春眠";
    s.tokens = 40;
    s.decoding.draftLength = 5;
    s.decoding.policy = DraftPolicy::parse("heuristic");
    s.decoding.target = {0.8, 20, 0.95};
    s.decoding.draft = {1.3, 20, 0.95};
    s.decoding.seed = 18446744073709551557ULL; // near 2^64: must survive JSON
    s.decoding.kvCache = false;                // not the default: must survive the round trip
    return s;
}

Generation play(const Setup &setup)
{
    auto e = Experiment::load(setup, test::builtCorpora());
    return generateSpeculative(e->target(), *e->draft(), setup.decoding, e->prompt(), setup.tokens);
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &bytes)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write");
        f.write(bytes);
        return f.fileName();
    }

private slots:
    void roundTripReproducesTheRounds()
    {
        const QString path = m_dir.filePath(QStringLiteral("s.json"));
        SessionFile{exampleSetup(), {7, QStringLiteral("dice")}}.save(path);
        const SessionFile loaded = SessionFile::load(path);
        QCOMPARE(loaded.position.round, 7);
        QCOMPARE(loaded.position.phase, QStringLiteral("dice"));
        const Setup &a = exampleSetup(), &b = loaded.setup;
        QCOMPARE(b.corpus, a.corpus);
        QCOMPARE(b.prompt, a.prompt);
        QCOMPARE(b.decoding.seed, a.decoding.seed);
        QVERIFY(b.decoding.target == a.decoding.target);
        QVERIFY(b.decoding.draft == a.decoding.draft);
        QVERIFY(b.decoding.policy == a.decoding.policy);
        QCOMPARE(b.decoding.draftLength, a.decoding.draftLength);
        QCOMPARE(b.decoding.kvCache, a.decoding.kvCache);
        const Generation first = play(a);
        const Generation again = play(b);
        QCOMPARE(again.tokens, first.tokens);
        QCOMPARE(again.rounds.size(), first.rounds.size());
        for (std::size_t i = 0; i < first.rounds.size(); ++i)
            QCOMPARE(again.rounds[i].committed, first.rounds[i].committed);
    }

    void treeSessionsKeepTheirShape()
    {
        // A token-tree session reloads as the same tree; a file without "tree" (older ones) is a chain.
        Setup a = exampleSetup();
        a.decoding.tree = TreeShape::parse("3,2,1");
        a.decoding.policy = DraftPolicy::parse("constant"); // a tree drafts its whole shape
        const QString path = m_dir.filePath(QStringLiteral("tree.json"));
        SessionFile{a, {2, QStringLiteral("dice")}}.save(path);
        QCOMPARE(SessionFile::load(path).setup.decoding.tree, a.decoding.tree);
        SessionFile{exampleSetup(), {}}.save(path);
        QVERIFY(SessionFile::load(path).setup.decoding.tree.empty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bad = f.readAll().replace("\"tree\": \"\"", "\"tree\": \"3,x\"");
        f.close();
        try {
            SessionFile::load(write(QStringLiteral("badtree.json"), bad));
            QFAIL("a bad tree loaded");
        } catch (const Error &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("tree shape '3,x'")), e.what());
        }
    }

    void damagedFilesAreClearErrors_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QByteArray good;
        {
            const QString path = m_dir.filePath(QStringLiteral("good.json"));
            SessionFile{exampleSetup(), {}}.save(path);
            QFile f(path);
            f.open(QIODevice::ReadOnly);
            good = f.readAll();
        }
        QTest::addRow("truncated") << good.left(good.size() / 2) << QStringLiteral("not valid JSON at byte offset");
        QTest::addRow("empty") << QByteArray() << QStringLiteral("not valid JSON");
        QTest::addRow("array") << QByteArray("[1, 2]") << QStringLiteral("not a session");
        QTest::addRow("other format") << QByteArray(R"({"format": "x", "version": 1})")
                                      << QStringLiteral("not a specdec-lab session");
        QTest::addRow("future version") << QByteArray(good).replace("\"version\": 1", "\"version\": 9")
                                        << QStringLiteral("version 9 is not supported");
        QTest::addRow("missing field") << QByteArray(good).replace("\"target\"", "\"targt\"")
                                       << QStringLiteral("'target' must be a string");
        QTest::addRow("bad K") << QByteArray(good).replace("\"k\": 5", "\"k\": 99") << QStringLiteral("between 1 and 64");
        QTest::addRow("bad spec") << QByteArray(good).replace("ngram:3", "ngram:33")
                                  << QStringLiteral("between 1 and 10");
        QTest::addRow("bad kv_cache") << QByteArray(good).replace("\"kv_cache\": false", "\"kv_cache\": \"off\"")
                                      << QStringLiteral("'kv_cache' must be true or false");
        QTest::addRow("bad seed") << QByteArray(good).replace("18446744073709551557", "lots") << QStringLiteral("'seed'");
    }
    void damagedFilesAreClearErrors()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString path = write(QStringLiteral("bad.json"), bytes);
        try {
            SessionFile::load(path);
            QFAIL("a damaged session loaded");
        } catch (const Error &e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(message), qPrintable(what));
            QVERIFY2(what.contains(path), qPrintable(what));
        }
    }

    void kvCacheSettingRoundTripsAndOldFilesLoad()
    {
        const QString path = m_dir.filePath(QStringLiteral("cache.json"));
        for (bool on : {true, false}) {
            Setup setup = exampleSetup();
            setup.decoding.kvCache = on;
            SessionFile{setup, {}}.save(path);
            QCOMPARE(SessionFile::load(path).setup.decoding.kvCache, on);
        }
        // A file written before the setting existed (no "kv_cache") loads, with the cache on.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        f.close();
        const qsizetype at = bytes.indexOf("\"kv_cache\"");
        QVERIFY(at > 0);
        const qsizetype end = bytes.indexOf('\n', at);
        const bool last = bytes.at(end - 1) != ',';
        bytes.remove(at, end + 1 - at);
        if (last) // the entry before it ended with a comma: drop that comma
            bytes.remove(bytes.lastIndexOf(',', at), 1);
        QVERIFY(!bytes.contains("kv_cache"));
        const SessionFile old = SessionFile::parse(bytes, QStringLiteral("old.json"));
        QVERIFY(old.setup.decoding.kvCache);
        QCOMPARE(old.setup.decoding.draftLength, exampleSetup().decoding.draftLength);
    }

    void tokenizerRoundTripsAndOldFilesUseChars()
    {
        const QString path = m_dir.filePath(QStringLiteral("tokenizer.json"));
        Setup setup = exampleSetup();
        setup.tokenizer = "tokenizers/qwen3";
        SessionFile{setup, {}}.save(path);
        QCOMPARE(SessionFile::load(path).setup.tokenizer, std::string("tokenizers/qwen3"));
        // A file written before tokenizers (no "tokenizer") loads with chars.
        SessionFile{exampleSetup(), {}}.save(path);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QJsonObject setupJson = root.value(QStringLiteral("setup")).toObject();
        QVERIFY(setupJson.contains(QStringLiteral("tokenizer")));
        setupJson.remove(QStringLiteral("tokenizer"));
        root.insert(QStringLiteral("setup"), setupJson);
        const SessionFile old = SessionFile::parse(QJsonDocument(root).toJson(), QStringLiteral("old.json"));
        QCOMPARE(old.setup.tokenizer, std::string("chars"));
    }

    void savesReplaceWholeFilesOrNothing()
    {
        // A save that cannot happen throws and creates nothing.
        const QString missingDir = m_dir.filePath(QStringLiteral("no/such/dir/s.json"));
        QVERIFY_THROWS_EXCEPTION(Error, (SessionFile{exampleSetup(), {}}.save(missingDir)));
        QVERIFY(!QFile::exists(missingDir));
        // Saving over a longer file replaces it whole (written to a temporary file, then renamed): no tail of
        // the old content survives, and no temporary file is left behind.
        const QString path = write(QStringLiteral("over.json"), QByteArray(20000, 'x'));
        SessionFile{exampleSetup(), {3, QStringLiteral("commit")}}.save(path);
        QCOMPARE(SessionFile::load(path).position.round, 3);
        QCOMPARE(QDir(m_dir.path()).entryList({QStringLiteral("over.json*")}, QDir::Files).size(), 1);
    }

    void exportsCsvAndJson()
    {
        Setup s = exampleSetup();
        s.decoding.recordDistributions = true;
        auto e = Experiment::load(s, test::builtCorpora());
        const Generation g = generateSpeculative(e->target(), *e->draft(), s.decoding, e->prompt(), s.tokens);
        const QString csvPath = m_dir.filePath(QStringLiteral("t.csv"));
        exportTraces(csvPath, g.rounds, e->tokenizer());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        int positions = 0;
        for (const auto &r : g.rounds)
            positions += r.draftLength;
        QCOMPARE(lines.size(), positions + 1);
        QVERIFY(lines.first().startsWith(QStringLiteral("round,position,token,q,p")));
        const QString jsonPath = m_dir.filePath(QStringLiteral("t.json"));
        exportTraces(jsonPath, g.rounds, e->tokenizer());
        QFile json(jsonPath);
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray rounds = QJsonDocument::fromJson(json.readAll()).array();
        QCOMPARE(rounds.size(), static_cast<int>(g.rounds.size()));
        QVERIFY_THROWS_EXCEPTION(Error, exportTraces(m_dir.filePath(QStringLiteral("t.xlsx")), g.rounds, e->tokenizer()));
    }

    // Issue 22, 3: on a full disk (an injected ENOSPC, at the first byte and in the middle) a save and both
    // trace exports fail with "no space left on device", keep the previous file byte for byte and leave no
    // temporary file; 5: a FIFO target is refused and stays a FIFO.
    void fullDiskKeepsThePreviousFile()
    {
        Setup s = exampleSetup();
        s.decoding.recordDistributions = true;
        auto e = Experiment::load(s, test::builtCorpora());
        const Generation g = generateSpeculative(e->target(), *e->draft(), s.decoding, e->prompt(), s.tokens);
        const QString dir = m_dir.filePath(QStringLiteral("full"));
        QVERIFY(QDir().mkpath(dir));
        const QString session = dir + QStringLiteral("/s.json"), csv = dir + QStringLiteral("/t.csv"),
                      json = dir + QStringLiteral("/t.json");
        SessionFile{s, {1, QStringLiteral("dice")}}.save(session);
        exportTraces(csv, {g.rounds.begin(), g.rounds.begin() + 1}, e->tokenizer());
        exportTraces(json, {g.rounds.begin(), g.rounds.begin() + 1}, e->tokenizer());
        auto content = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray oldSession = content(session), oldCsv = content(csv), oldJson = content(json);
        const QStringList files = QDir(dir).entryList(QDir::Files | QDir::Hidden);
        QCOMPARE(files.size(), 3);
        const std::vector<std::function<void()>> saves{
            [&] {
                SessionFile{s, {5, QStringLiteral("commit")}}.save(session);
            },
            [&] { exportTraces(csv, g.rounds, e->tokenizer()); },
            [&] { exportTraces(json, g.rounds, e->tokenizer()); },
        };
        for (std::size_t after : {std::size_t{0}, std::size_t{100}})
            for (const auto &save : saves) {
                testing::failWritesWith(ENOSPC, after);
                QString message;
                try {
                    save();
                } catch (const Error &error) {
                    message = QString::fromUtf8(error.what());
                }
                testing::failWritesWith(0);
                QVERIFY2(message.contains(QStringLiteral("no space left on device")), qPrintable(message));
                QVERIFY2(!message.contains(QStringLiteral("Unknown error")) && !message.contains(QLatin1Char('\n')),
                         qPrintable(message));
            }
        QCOMPARE(content(session), oldSession);
        QCOMPARE(content(csv), oldCsv);
        QCOMPARE(content(json), oldJson);
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), files);

        const QString fifo = dir + QStringLiteral("/pipe.json");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QVERIFY_THROWS_EXCEPTION(Error, (SessionFile{s, {}}.save(fifo)));
        QVERIFY_THROWS_EXCEPTION(Error, exportTraces(fifo, g.rounds, e->tokenizer()));
        struct stat st
        {
        };
        QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
