// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile tokenizer files: truncated JSON, a merge naming an unknown piece, duplicate ids, 100,000-level nesting,
// a regex that does not compile or backtracks catastrophically, a 1 GB file. Each gives one line that names the
// file and the problem (specdec::Error), through the engine and through `specdec tokenize` -- no crash, no hang,
// no unbounded read. The files are written here by small generators.
#include "Error.h"
#include "tokenizer/HfTokenizer.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include <fcntl.h>
#include <unistd.h>

using namespace specdec;
using namespace specdec::tok;

namespace {

/// A valid small tokenizer.json; `vocab`, `merges` and `preTokenizer` replace the defaults.
std::string tokenizerJson(const Json &vocab = Json{{"a", 0}, {"b", 1}, {"ab", 2}, {" ", 3}},
                          const Json &merges = Json::array({"a b"}),
                          const Json &preTokenizer = Json{{"type", "Whitespace"}})
{
    const Json json{{"version", "1.0"},
                    {"added_tokens", Json::array({Json{{"id", 4}, {"content", "<s>"}, {"special", true}}})},
                    {"normalizer", nullptr},
                    {"pre_tokenizer", preTokenizer},
                    {"post_processor", nullptr},
                    {"decoder", nullptr},
                    {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}}}};
    return json.dump();
}

Json splitOn(const char *regex)
{
    return Json{{"type", "Split"}, {"pattern", {{"Regex", regex}}}, {"behavior", "Isolated"}};
}

struct Outcome
{
    std::string message;
    bool threw = false;
};

Outcome loadAndEncode(const std::string &path, const std::string &text = "ab ab")
{
    try {
        const HfTokenizer tokenizer = HfTokenizer::load(path);
        tokenizer.encode(text);
    } catch (const Error &e) {
        return {e.what(), true};
    }
    return {};
}

} // namespace

class TestTokenizerHostile : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const char *name, const std::string &content)
    {
        const QString path = m_dir.filePath(QString::fromLatin1(name));
        std::ofstream(path.toStdString(), std::ios::binary) << content;
        return path;
    }

    /// One line, naming the file and containing `problem`; and the CLI says the same with exit status 1.
    void expectError(const QString &path, const char *problem, const std::string &text = "ab ab")
    {
        QElapsedTimer timer;
        timer.start();
        const Outcome outcome = loadAndEncode(path.toStdString(), text);
        QVERIFY2(outcome.threw, qPrintable(path));
        QVERIFY2(outcome.message.find('\n') == std::string::npos, outcome.message.c_str());
        QVERIFY2(outcome.message.find(path.toStdString()) != std::string::npos, outcome.message.c_str());
        QVERIFY2(outcome.message.find(problem) != std::string::npos, outcome.message.c_str());
        QVERIFY(timer.elapsed() < 30000);

        QProcess process;
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("tokenize"), QStringLiteral("--tokenizer"), path, QStringLiteral("--text"),
                       QString::fromStdString(text)});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 1);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(err.count(u'\n'), 1);
        QVERIFY2(err.startsWith(QStringLiteral("specdec: error: ") + path), qPrintable(err));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The generator's file is valid: the errors below come from what each case breaks.
        const Outcome valid = loadAndEncode(write("valid.json", tokenizerJson()).toStdString());
        QVERIFY2(!valid.threw, valid.message.c_str());
    }

    void truncatedJson()
    {
        const std::string json = tokenizerJson();
        expectError(write("truncated.json", json.substr(0, json.size() / 2)), "not valid JSON");
    }

    void mergeNamingAnUnknownPiece()
    {
        expectError(write("merge.json", tokenizerJson(Json{{"a", 0}, {"b", 1}, {"ab", 2}}, Json::array({"a b", "a zz"}))),
                    "merge 1 (\"a\", \"zz\") names the piece \"zz\", which is not in the vocabulary");
    }

    void duplicateIds()
    {
        expectError(write("duplicate.json", tokenizerJson(Json{{"a", 0}, {"b", 1}, {"ab", 1}}, Json::array())),
                    "gives id 1 to both");
    }

    void deepNesting()
    {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        expectError(write("deep.json", deep), "nested deeper than 256 levels");
        std::string deepVocab = tokenizerJson();
        deepVocab.insert(deepVocab.find("\"vocab\":") + 8, std::string(100000, '['));
        expectError(write("deep-vocab.json", deepVocab), "nested deeper than 256 levels");
    }

    void regexThatDoesNotCompile()
    {
        expectError(write("regex.json",
                          tokenizerJson(Json{{"a", 0}, {"b", 1}, {"ab", 2}}, Json::array({"a b"}), splitOn("(a|"))),
                    "the regex does not compile");
    }

    void catastrophicRegex()
    {
        // Compiles, but backtracks exponentially on a long word: the match limit stops it.
        expectError(write("catastrophic.json",
                          tokenizerJson(Json{{"a", 0}, {"b", 1}, {"ab", 2}, {"!", 3}}, Json::array({"a b"}),
                                        splitOn("(\\w+\\s?)+$"))),
                    "backtracks too much", std::string(20000, 'a') + "!");
    }

    void oneGigabyteFile()
    {
        // Sparse: 1 GB of size, no disk; the size is checked before anything is read.
        const QString path = m_dir.filePath(QStringLiteral("huge.json"));
        const int fd = ::open(path.toLocal8Bit().constData(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, 1'000'000'000), 0);
        ::close(fd);
        expectError(path, "more than the 512 MiB a tokenizer file may have");
    }

    void notATokenizer()
    {
        expectError(write("array.json", "[1, 2, 3]"), "not a tokenizer.json");
        expectError(write("wordpiece.json", Json{{"model", {{"type", "WordPiece"}, {"vocab", Json::object()}}}}.dump()),
                    "the model \"WordPiece\" is not supported");
        expectError(m_dir.filePath(QStringLiteral("missing.json")), "no such file");
    }
};

QTEST_GUILESS_MAIN(TestTokenizerHostile)
#include "test_tokenizer_hostile.moc"
