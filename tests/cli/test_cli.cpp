// SPDX-License-Identifier: GPL-3.0-or-later
// The specdec command line: the documented forms work, and every bad input gives a one-line error and a
// non-zero exit status, never a crash.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <functional>

namespace {

struct Result
{
    int exitCode = -1;
    bool crashed = false;
    QString out;
    QString err;
};

Result specdec(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"), arguments);
    process.waitForFinished(120000);
    return {process.exitCode(), process.exitStatus() != QProcess::NormalExit,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

QJsonObject json(const Result &r)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON: %s\n%s", qPrintable(error.errorString()), qPrintable(r.out.left(500)));
    return doc.object();
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString writeFile(const QString &name, const QByteArray &bytes)
    {
        QFile f(m_dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(f.fileName()));
        f.write(bytes);
        return f.fileName();
    }

private slots:
    void runTextHasOneC()
    {
        // c has one definition in an output: with --baseline every "c = " is the run's, without it the prompt's.
        for (bool baseline : {true, false}) {
            QStringList args{QStringLiteral("run"),      QStringLiteral("--corpus"), QStringLiteral("kjv"),
                             QStringLiteral("--target"), QStringLiteral("ngram:5"),  QStringLiteral("--draft"),
                             QStringLiteral("ngram:2"),  QStringLiteral("--prompt"), QStringLiteral("And God"),
                             QStringLiteral("--tokens"), QStringLiteral("200"),      QStringLiteral("-k"),
                             QStringLiteral("3")};
            if (baseline)
                args << QStringLiteral("--baseline");
            const Result r = specdec(args);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QSet<QString> values;
            const QRegularExpression c(QStringLiteral("\\bc = (?:T_draft\\(1\\)/T_target\\(1\\) = )?([0-9.]+)"));
            for (auto it = c.globalMatch(r.out); it.hasNext();)
                values.insert(it.next().captured(1));
            QVERIFY2(values.size() == 1, qPrintable(r.out));
            QVERIFY2(!r.out.contains(QLatin1String("nan")), qPrintable(r.out));
        }
    }

    void runJsonHasDocumentedFields()
    {
        const Result r = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("kjv"),
                                  QStringLiteral("--target"), QStringLiteral("ngram:5"), QStringLiteral("--draft"),
                                  QStringLiteral("ngram:2"), QStringLiteral("--prompt"), QStringLiteral("And God"),
                                  QStringLiteral("--tokens"), QStringLiteral("120"), QStringLiteral("-k"),
                                  QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("9"),
                                  QStringLiteral("--baseline"), QStringLiteral("--trace"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = json(r);
        for (const char *key : {"text", "generated_tokens", "rounds", "target_calls", "draft_calls", "drafted",
                                "accepted", "acceptance_rate", "tokens_per_round", "per_position_acceptance", "theory",
                                "speedup", "cost_ratio_c", "seconds", "trace"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QStringLiteral("generated_tokens")).toInt(), 120);
        QCOMPARE(o.value(QStringLiteral("text")).toString().size(), 120);
        QCOMPARE(o.value(QStringLiteral("per_position_acceptance")).toArray().size(), 3);
        QVERIFY(o.value(QStringLiteral("theory")).toObject().contains(QStringLiteral("expected_tokens_per_round")));
        const QJsonObject speedup = o.value(QStringLiteral("speedup")).toObject();
        for (const char *key : {"forward_passes", "cost_model", "wall_clock"})
            QVERIFY2(speedup.value(QLatin1String(key)).toDouble() > 0.0, key);
        const QJsonArray trace = o.value(QStringLiteral("trace")).toArray();
        QCOMPARE(trace.size(), o.value(QStringLiteral("rounds")).toInt());
        // The measured cost of verification (KV cache on by default): V(1..17) measured before the run (K up to 16, not
        // only this run's K = 3) and the generalised prediction with one c: this run's, as cost_ratio_c says.
        const QJsonObject theoryObject = o.value(QStringLiteral("theory")).toObject();
        QCOMPARE(theoryObject.value(QStringLiteral("verification_cost")).toArray().size(), 17);
        QCOMPARE(theoryObject.value(QStringLiteral("verification_cost")).toArray().first().toDouble(), 1.0);
        QVERIFY(theoryObject.value(QStringLiteral("generalised_speedup")).toDouble() > 0.0);
        QVERIFY(theoryObject.value(QStringLiteral("costs_from_run")).toBool());
        QCOMPARE(theoryObject.value(QStringLiteral("c")).toDouble(), o.value(QStringLiteral("cost_ratio_c")).toDouble());
        QVERIFY(o.value(QStringLiteral("kv_cache")).toBool());
        // Each round's cache lengths: the target's state after the rollback holds the context plus the accepted drafts.
        const QJsonObject round = trace.first().toObject();
        const QJsonObject cache = round.value(QStringLiteral("target_cache")).toObject();
        const int accepted = round.value(QStringLiteral("rejected_at")).isNull()
            ? round.value(QStringLiteral("k")).toInt()
            : round.value(QStringLiteral("rejected_at")).toInt();
        QCOMPARE(cache.value(QStringLiteral("after")).toInt(),
                 round.value(QStringLiteral("context_length")).toInt() + accepted);
        QCOMPARE(cache.value(QStringLiteral("discarded")).toInt(),
                 cache.value(QStringLiteral("extended")).toInt() - cache.value(QStringLiteral("after")).toInt());
        const Result badCache = specdec({QStringLiteral("run"), QStringLiteral("--kv-cache"), QStringLiteral("maybe")});
        QVERIFY(badCache.exitCode != 0);
        QVERIFY2(badCache.err.contains(QLatin1String("--kv-cache must be on or off")), qPrintable(badCache.err));
        QVERIFY(trace.first()
                    .toObject()
                    .value(QStringLiteral("positions"))
                    .toArray()
                    .first()
                    .toObject()
                    .contains(QStringLiteral("p_top")));
        // Same seed, same text.
        const Result again = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("kjv"),
                                      QStringLiteral("--target"), QStringLiteral("ngram:5"), QStringLiteral("--prompt"),
                                      QStringLiteral("And God"), QStringLiteral("--tokens"), QStringLiteral("120"),
                                      QStringLiteral("-k"), QStringLiteral("3"), QStringLiteral("--seed"),
                                      QStringLiteral("9"), QStringLiteral("--json")});
        QCOMPARE(json(again).value(QStringLiteral("text")).toString(), o.value(QStringLiteral("text")).toString());
    }

    // One schema for every speculative run (docs/run-report.schema.json, listed in docs/cli.md): chain and tree,
    // with and without a baseline, give the same keys with the same types (null where a value does not apply).
    void runJsonHasOneSchemaForChainsAndTrees()
    {
        QFile file(QStringLiteral(SPECDEC_SOURCE_DIR "/docs/run-report.schema.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject schema =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("fields")).toObject();
        QVERIFY(schema.size() > 40);
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        const QStringList common{QStringLiteral("run"),      QStringLiteral("--corpus"), tiny,
                                 QStringLiteral("--target"), QStringLiteral("ngram:3"),  QStringLiteral("--draft"),
                                 QStringLiteral("ngram:1"),  QStringLiteral("--prompt"), QStringLiteral("the "),
                                 QStringLiteral("--tokens"), QStringLiteral("60"),       QStringLiteral("--json")};
        const QList<QStringList> runs{
            {QStringLiteral("-k"), QStringLiteral("3"), QStringLiteral("--baseline")},
            {QStringLiteral("--tree"), QStringLiteral("3,2"), QStringLiteral("--baseline"), QStringLiteral("--trace")},
            {QStringLiteral("--tree"), QStringLiteral("2,1"), QStringLiteral("--kv-cache"), QStringLiteral("off")},
            {QStringLiteral("-k"), QStringLiteral("2"), QStringLiteral("--trace")},
        };
        // "a.b" for every key of nested objects (arrays are leaves), with its JSON type
        const auto typeName = [](const QJsonValue &v) -> QString {
            switch (v.type()) {
            case QJsonValue::Null: return QStringLiteral("null");
            case QJsonValue::Bool: return QStringLiteral("boolean");
            case QJsonValue::Double: return QStringLiteral("number");
            case QJsonValue::String: return QStringLiteral("string");
            case QJsonValue::Array: return QStringLiteral("array");
            case QJsonValue::Object: return QStringLiteral("object");
            default: return QStringLiteral("undefined");
            }
        };
        std::function<void(const QJsonObject &, const QString &, QMap<QString, QString> &)> flatten =
            [&](const QJsonObject &o, const QString &prefix, QMap<QString, QString> &out) {
                for (auto it = o.begin(); it != o.end(); ++it) {
                    out.insert(prefix + it.key(), typeName(it.value()));
                    if (it.value().isObject())
                        flatten(it.value().toObject(), prefix + it.key() + QLatin1Char('.'), out);
                }
            };
        for (const QStringList &extra : runs) {
            const Result r = specdec(common + extra);
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            QMap<QString, QString> fields;
            flatten(json(r), QString(), fields);
            for (auto it = schema.begin(); it != schema.end(); ++it) {
                const QString key = it.key();
                if (key.startsWith(QLatin1String("baseline."))
                    && fields.value(QStringLiteral("baseline")) == QLatin1String("null"))
                    continue; // a run without --baseline has "baseline": null
                QVERIFY2(fields.contains(key), qPrintable(extra.join(QLatin1Char(' ')) + QStringLiteral(": no ") + key));
                const QStringList allowed = it.value().toString().split(QLatin1Char('|'));
                QVERIFY2(allowed.contains(fields.value(key)),
                         qPrintable(extra.join(QLatin1Char(' ')) + QStringLiteral(": ") + key + QStringLiteral(" is ")
                                    + fields.value(key) + QStringLiteral(", the schema says ") + it.value().toString()));
            }
            for (auto it = fields.begin(); it != fields.end(); ++it)
                QVERIFY2(schema.contains(it.key()),
                         qPrintable(extra.join(QLatin1Char(' ')) + QStringLiteral(": ") + it.key()
                                    + QStringLiteral(" is not in the schema")));
        }
    }

    void runStopsAtItsCapAndSaysSo()
    {
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        const QStringList args{QStringLiteral("run"),      QStringLiteral("--corpus"), tiny,
                               QStringLiteral("--target"), QStringLiteral("ngram:3"),  QStringLiteral("--tokens"),
                               QStringLiteral("5000"),     QStringLiteral("--cap"),    QStringLiteral("300")};
        const Result r = specdec(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("generated_tokens")).toInt(), 300);
        QCOMPARE(o.value(QStringLiteral("stopped_at_cap")).toBool(), true);
        QVERIFY(r.err.contains(QStringLiteral("cap of 300 tokens")));
        // Streamed text (no --json): the first rounds, the whole text, the summary; under the cap no message.
        const Result text = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), tiny, QStringLiteral("--target"),
                                     QStringLiteral("ngram:3"), QStringLiteral("--tokens"), QStringLiteral("400")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY(text.out.contains(QStringLiteral("more rounds (--trace shows all)")));
        QVERIFY(text.out.contains(QStringLiteral("text: ")));
        QVERIFY(text.out.contains(QStringLiteral("acceptance rate")));
        QVERIFY(!text.err.contains(QStringLiteral("cap")));
        const Result bad = specdec(QStringList(args.mid(0, 7))
                                   + QStringList{QStringLiteral("--cap"), QStringLiteral("0")});
        QVERIFY(bad.exitCode != 0);
        QVERIFY(bad.err.contains(QStringLiteral("cap")));
    }

    void runTextAndAutoregressive()
    {
        const Result r = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("tang-song"),
                                  QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--prompt"),
                                  QStringLiteral("床前明月光"), QStringLiteral("--tokens"), QStringLiteral("30")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("round    1")));
        QVERIFY(r.out.contains(QStringLiteral("text: 床前明月光")));
        const Result ar = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("tang-song"),
                                   QStringLiteral("--mode"), QStringLiteral("autoregressive"),
                                   QStringLiteral("--tokens"), QStringLiteral("25"), QStringLiteral("--json")});
        QVERIFY2(ar.exitCode == 0, qPrintable(ar.err));
        QCOMPARE(json(ar).value(QStringLiteral("target_calls")).toInt(), 25);
    }

    void loadProgressOnATerminalOnly()
    {
        // At a terminal the load is told on stderr, in place ("specdec: loading ngram:6 + ngram:2 … 42 %") and
        // erased at the end; through a pipe (scripts, --json readers, every other test) nothing is added.
        const QStringList arguments{QStringLiteral("run"),      QStringLiteral("--corpus"), QStringLiteral("kjv"),
                                    QStringLiteral("--target"), QStringLiteral("ngram:6"),  QStringLiteral("--draft"),
                                    QStringLiteral("ngram:2"),  QStringLiteral("--tokens"), QStringLiteral("5")};
        const Result piped = specdec(arguments);
        QVERIFY2(piped.exitCode == 0, qPrintable(piped.err));
        QVERIFY2(!piped.err.contains(QStringLiteral("loading")), qPrintable(piped.err));
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            QSKIP("no script(1) to give the program a terminal");
        QProcess process; // script(1) runs the command on a pseudo-terminal: stderr is a terminal there
        process.start(script,
                      {QStringLiteral("-qec"),
                       QStringLiteral(SPECDEC_BIN_DIR "/specdec ") + arguments.join(QLatin1Char(' ')),
                       QStringLiteral("/dev/null")});
        QVERIFY(process.waitForFinished(120000));
        const QString terminal = QString::fromUtf8(process.readAllStandardOutput());
        if (process.exitCode() != 0 && QString::fromUtf8(process.readAllStandardError()).contains(QLatin1String("pseudo")))
            QSKIP("no pseudo-terminal here");
        QCOMPARE(process.exitCode(), 0);
        const QString line = QStringLiteral("specdec: loading ngram:6 + ngram:2 … ");
        QVERIFY2(terminal.count(line) >= 3, qPrintable(terminal.left(2000)));
        QVERIFY(terminal.contains(line + QStringLiteral("0 %")));
        // The last progress line is erased before the run prints its rounds.
        const auto lastLine = terminal.lastIndexOf(line);
        QVERIFY(terminal.indexOf(QStringLiteral("\r\x1b[K"), lastLine) > lastLine);
        QVERIFY(terminal.indexOf(QStringLiteral("round    1"), lastLine) > lastLine);
    }

    void runWithASubwordTokenizer()
    {
        // n-grams over Qwen3's ids: the JSON text is the decoded text (what the committed pieces of the trace
        // spell, "␣" read as a space), greedy speculative writes greedy autoregressive's text, traces show pieces.
        const QString qwen3 = QStringLiteral(SPECDEC_TOKENIZER_DIR "/qwen3");
        const QStringList common{QStringLiteral("--tokenizer"),   qwen3,
                                 QStringLiteral("--target"),      QStringLiteral("ngram:4"),
                                 QStringLiteral("--draft"),       QStringLiteral("ngram:2"),
                                 QStringLiteral("--prompt"),      QStringLiteral("And God said"),
                                 QStringLiteral("--temperature"), QStringLiteral("0"),
                                 QStringLiteral("--tokens"),      QStringLiteral("40"),
                                 QStringLiteral("--json")};
        const Result r = specdec(QStringList{QStringLiteral("run"), QStringLiteral("--trace")} + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("vocabulary_size")).toInt(), 151669);
        const QString text = o.value(QStringLiteral("text")).toString();
        QString spelled;
        for (const QJsonValue round : o.value(QStringLiteral("trace")).toArray())
            spelled += round.toObject().value(QStringLiteral("committed")).toString();
        QVERIFY2(spelled.contains(QStringLiteral("␣")), qPrintable(spelled)); // pieces, not text
        spelled.remove(QLatin1Char('|')).replace(QStringLiteral("␣"), QStringLiteral(" "));
        QCOMPARE(text, spelled);
        QVERIFY(text.startsWith(QLatin1Char(' ')) || text.startsWith(QLatin1Char(',')));
        QVERIFY(!text.contains(QChar(0xFFFD)) && !text.contains(QStringLiteral("Ġ")));
        const Result ar = specdec(
            QStringList{QStringLiteral("run"), QStringLiteral("--mode"), QStringLiteral("autoregressive")} + common);
        QVERIFY2(ar.exitCode == 0, qPrintable(ar.err));
        QCOMPARE(json(ar).value(QStringLiteral("text")).toString(), text);
        // token_ids: the generated ids, the prompt excluded, in both modes (what tests/hf/hfjs_greedy.js compares).
        const QJsonArray ids = o.value(QStringLiteral("token_ids")).toArray();
        QCOMPARE(ids.size(), 40);
        QCOMPARE(json(ar).value(QStringLiteral("token_ids")).toArray(), ids);
        const Result decoded = specdec(
            {QStringLiteral("detokenize"), QStringLiteral("--tokenizer"), qwen3, QStringLiteral("--ids"), [&ids] {
                 QStringList list;
                 for (const QJsonValue id : ids)
                     list << QString::number(id.toInt());
                 return list.join(QLatin1Char(','));
             }()});
        QVERIFY2(decoded.exitCode == 0, qPrintable(decoded.err));
        QCOMPARE(decoded.out.trimmed(), text.trimmed());

        // SentencePiece with byte fallback (Mixtral) on Chinese: characters split into byte tokens show as <E7>
        // chips in the trace, and the text holds them back until each character completes (never U+FFFD).
        const Result zh = specdec({QStringLiteral("run"), QStringLiteral("--corpus"), QStringLiteral("tang-song"),
                                   QStringLiteral("--tokenizer"), QStringLiteral(SPECDEC_TOKENIZER_DIR "/mixtral"),
                                   QStringLiteral("--target"), QStringLiteral("ngram:4"), QStringLiteral("--prompt"),
                                   QStringLiteral("床前明月光"), QStringLiteral("--temperature"), QStringLiteral("0"),
                                   QStringLiteral("--tokens"), QStringLiteral("30"), QStringLiteral("--json"),
                                   QStringLiteral("--trace")});
        QVERIFY2(zh.exitCode == 0, qPrintable(zh.err));
        const QJsonObject zhJson = json(zh);
        QString zhPieces;
        for (const QJsonValue round : zhJson.value(QStringLiteral("trace")).toArray())
            zhPieces += round.toObject().value(QStringLiteral("committed")).toString() + QLatin1Char('|');
        QVERIFY2(zhPieces.contains(QStringLiteral("<E")), qPrintable(zhPieces));
        const QString zhText = zhJson.value(QStringLiteral("text")).toString();
        QVERIFY2(!zhText.contains(QChar(0xFFFD)) && !zhText.contains(QLatin1Char('<')), qPrintable(zhText));
        QVERIFY2(std::any_of(zhText.begin(), zhText.end(),
                             [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; }),
                 qPrintable(zhText));

        // A draft with its own characters cannot serve a Qwen3 target: one line says which tokenizer each uses.
        const Result mismatch = specdec({QStringLiteral("run"), QStringLiteral("--tokenizer"), qwen3,
                                         QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--draft"),
                                         QStringLiteral("onnx:corpora/kjv/models/draft-tiny.onnx")});
        QCOMPARE(mismatch.exitCode, 1);
        QVERIFY2(mismatch.err.contains(QStringLiteral("draft and target tokenizers differ: the draft uses the chars "
                                                      "tokenizer of draft-tiny.onnx")),
                 qPrintable(mismatch.err));
        QVERIFY2(mismatch.err.contains(QStringLiteral("the target qwen3's tokenizer.json (151,669 ids)")),
                 qPrintable(mismatch.err));
        QCOMPARE(mismatch.err.trimmed().count(QLatin1Char('\n')), 0);
    }

    void runFollowsGenerationConfig()
    {
        // A folder's generation_config.json sets the sampling when the command line sets none (one stderr line says
        // so); --temperature (or --top-k, --top-p) overrides it. The test folders say do_sample false: greedy.
        const QString source = QStringLiteral(SPECDEC_TEST_DATA_DIR "/hf/llama-op17/");
        const QString dir = m_dir.filePath(QStringLiteral("sampled"));
        QVERIFY(QDir().mkpath(dir));
        for (const char *name : {"config.json", "tokenizer.json", "model.onnx"})
            QVERIFY(QFile::copy(source + QLatin1String(name), dir + QLatin1Char('/') + QLatin1String(name)));
        QFile generation(dir + QStringLiteral("/generation_config.json"));
        QVERIFY(generation.open(QIODevice::WriteOnly));
        generation.write(R"({"eos_token_id": 283, "do_sample": true, "temperature": 0.7, "top_k": 20, "top_p": 0.8})");
        generation.close();
        auto run = [](const QString &folder, const QStringList &extra) {
            return specdec(QStringList{QStringLiteral("run"), QStringLiteral("--target"), QStringLiteral("hf:") + folder,
                                       QStringLiteral("--mode"), QStringLiteral("autoregressive"),
                                       QStringLiteral("--tokens"), QStringLiteral("8"), QStringLiteral("--prompt"),
                                       QStringLiteral("In the beginning"), QStringLiteral("--json")}
                           + extra);
        };
        const Result advised = run(dir, {});
        QVERIFY2(advised.exitCode == 0, qPrintable(advised.err));
        QCOMPARE(json(advised).value(QStringLiteral("temperature")).toDouble(), 0.7);
        QCOMPARE(json(advised).value(QStringLiteral("top_k")).toInt(), 20);
        QCOMPARE(json(advised).value(QStringLiteral("top_p")).toDouble(), 0.8);
        QVERIFY2(advised.err.contains(QStringLiteral("temperature 0.7, top-k 20, top-p 0.8, as "))
                     && advised.err.contains(QStringLiteral("generation_config.json says")),
                 qPrintable(advised.err));
        const Result overridden = run(dir, {QStringLiteral("--temperature"), QStringLiteral("1")});
        QVERIFY2(overridden.exitCode == 0, qPrintable(overridden.err));
        QCOMPARE(json(overridden).value(QStringLiteral("temperature")).toDouble(), 1.0);
        QCOMPARE(json(overridden).value(QStringLiteral("top_k")).toInt(), 0);
        QVERIFY2(!overridden.err.contains(QStringLiteral("says")), qPrintable(overridden.err));
        const Result greedy = run(source, {});
        QVERIFY2(greedy.exitCode == 0, qPrintable(greedy.err));
        QCOMPARE(json(greedy).value(QStringLiteral("temperature")).toDouble(), 0.0);
        QVERIFY2(greedy.err.contains(QStringLiteral("greedy (temperature 0), as ")), qPrintable(greedy.err));
    }

    void distSumsToOne()
    {
        const Result r = specdec({QStringLiteral("dist"), QStringLiteral("--corpus"), QStringLiteral("kjv"),
                                  QStringLiteral("--model"), QStringLiteral("ngram:2:addk=0.2"),
                                  QStringLiteral("--context"), QStringLiteral("th"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = json(r);
        const QJsonArray probs = o.value(QStringLiteral("probs")).toArray();
        QCOMPARE(o.value(QStringLiteral("tokens")).toArray().size(), probs.size());
        double sum = 0;
        for (const auto &p : probs)
            sum += p.toDouble();
        QVERIFY(std::abs(sum - 1.0) < 1e-9);
    }

    void sampleCountsAllSamples()
    {
        const QString corpus = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        for (const QString &mode : {QStringLiteral("speculative"), QStringLiteral("autoregressive")}) {
            const Result r = specdec({QStringLiteral("sample"), QStringLiteral("--corpus"), corpus,
                                      QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--draft"),
                                      QStringLiteral("ngram:1"), QStringLiteral("--prompt"), QStringLiteral("the "),
                                      QStringLiteral("--tokens"), QStringLiteral("2"), QStringLiteral("--samples"),
                                      QStringLiteral("20000"), QStringLiteral("--mode"), mode, QStringLiteral("--seed"),
                                      QStringLiteral("4"), QStringLiteral("--exact"), QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QJsonObject o = json(r);
            double total = 0;
            const QJsonObject counts = o.value(QStringLiteral("counts")).toObject();
            for (auto it = counts.begin(); it != counts.end(); ++it) {
                QCOMPARE(it.key().size(), 2);
                total += it.value().toDouble();
            }
            QCOMPARE(total, 20000.0);
            QVERIFY(o.value(QStringLiteral("p_value")).toDouble() > 1e-3);
        }
    }

    void losslessFlagsWrongVariants()
    {
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        for (const QString &variant : {QStringLiteral("correct"), QStringLiteral("resample-from-target")}) {
            const Result r = specdec({QStringLiteral("lossless"), QStringLiteral("--corpus"), tiny,
                                      QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--draft"),
                                      QStringLiteral("ngram:1"), QStringLiteral("--context"), QStringLiteral("the "),
                                      QStringLiteral("--variant"), variant, QStringLiteral("--samples"),
                                      QStringLiteral("200000"), QStringLiteral("--seed"), QStringLiteral("3"),
                                      QStringLiteral("--json")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QJsonObject o = json(r);
            for (const char *key : {"chi2", "dof", "p_value", "tv", "counts", "expected"})
                QVERIFY2(o.contains(QLatin1String(key)), key);
            const double pValue = o.value(QStringLiteral("p_value")).toDouble();
            if (variant == QLatin1String("correct"))
                QVERIFY2(pValue > 1e-3, qPrintable(QString::number(pValue)));
            else
                QVERIFY2(pValue < 1e-9, qPrintable(QString::number(pValue)));
        }
    }

    void compareReportsEachDraft()
    {
        const Result r = specdec(
            {QStringLiteral("compare"), QStringLiteral("--corpus"), QStringLiteral("kjv"), QStringLiteral("--target"),
             QStringLiteral("ngram:4"), QStringLiteral("--draft"), QStringLiteral("ngram:2"), QStringLiteral("--draft"),
             QStringLiteral("lookup:2"), QStringLiteral("--draft"), QStringLiteral("same"),
             QStringLiteral("--temperature"), QStringLiteral("0"), QStringLiteral("--tokens"), QStringLiteral("200"),
             QStringLiteral("--prompt"), QStringLiteral("And"), QStringLiteral("--baseline"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray results = json(r).value(QStringLiteral("results")).toArray();
        QCOMPARE(results.size(), 3);
        for (const auto &v : results) {
            const QJsonObject o = v.toObject();
            // greedy: every lane writes the target's own text (each lane's baseline played alongside it)
            QVERIFY(o.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("same_text")).toBool());
            QCOMPARE(o.value(QStringLiteral("generated_tokens")).toInt(), 200);
        }
        QCOMPARE(results.at(2).toObject().value(QStringLiteral("acceptance_rate")).toDouble(), 1.0);
    }

    void treesOnTheCommandLine()
    {
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        const QStringList common{QStringLiteral("--corpus"), tiny,
                                 QStringLiteral("--target"), QStringLiteral("ngram:3"),
                                 QStringLiteral("--draft"),  QStringLiteral("ngram:1"),
                                 QStringLiteral("--prompt"), QStringLiteral("the ")};
        // run: the tree of every round in the trace, the tree metrics in the report.
        Result r = specdec(QStringList{QStringLiteral("run"), QStringLiteral("--tree"), QStringLiteral("3,2"),
                                       QStringLiteral("--tokens"), QStringLiteral("40"), QStringLiteral("--trace"),
                                       QStringLiteral("--json")}
                           + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QJsonObject o = json(r);
        QCOMPARE(o.value(QStringLiteral("mode")).toString(), QStringLiteral("speculative"));
        QCOMPARE(o.value(QStringLiteral("decoder")).toString(), QStringLiteral("tree"));
        QCOMPARE(o.value(QStringLiteral("tree")).toString(), QStringLiteral("3,2"));
        QCOMPARE(o.value(QStringLiteral("generated_tokens")).toInt(), 40);
        QCOMPARE(o.value(QStringLiteral("per_position_acceptance")).toArray().size(), 2); // per depth
        QVERIFY(o.value(QStringLiteral("nodes_drafted")).toInt() > o.value(QStringLiteral("drafted")).toInt());
        const QJsonObject round = o.value(QStringLiteral("trace")).toArray().first().toObject();
        QCOMPARE(round.value(QStringLiteral("nodes")).toArray().size(), 9);
        for (const char *key : {"parent", "token", "q", "p", "verdict"})
            QVERIFY2(round.value(QStringLiteral("nodes")).toArray().first().toObject().contains(QLatin1String(key)), key);
        QVERIFY(round.contains(QStringLiteral("accepted_path")));
        // lossless: the k-candidates mode, with the exact acceptance beside the measured one.
        r = specdec({QStringLiteral("lossless"), QStringLiteral("--corpus"), tiny, QStringLiteral("--target"),
                     QStringLiteral("ngram:3"), QStringLiteral("--draft"), QStringLiteral("ngram:1"),
                     QStringLiteral("--context"), QStringLiteral("the "), QStringLiteral("--tree"), QStringLiteral("3"),
                     QStringLiteral("--samples"), QStringLiteral("20000"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        o = json(r);
        QCOMPARE(o.value(QStringLiteral("accepted")).toArray().size(), 3);
        QVERIFY(std::abs(o.value(QStringLiteral("measured_acceptance")).toDouble()
                         - o.value(QStringLiteral("exact_acceptance")).toDouble())
                < o.value(QStringLiteral("acceptance_half_width")).toDouble());
        // compare: one row per tree.
        r = specdec(QStringList{QStringLiteral("compare"), QStringLiteral("--tree"), QStringLiteral("1,1"),
                                QStringLiteral("--tree"), QStringLiteral("2,2"), QStringLiteral("--tokens"),
                                QStringLiteral("50"), QStringLiteral("--json")}
                    + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(json(r).value(QStringLiteral("results")).toArray().size(), 2);
        // sample: the tree decodes every sample.
        r = specdec(QStringList{QStringLiteral("sample"), QStringLiteral("--tree"), QStringLiteral("2,1"),
                                QStringLiteral("--samples"), QStringLiteral("300"), QStringLiteral("--json")}
                    + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(json(r).value(QStringLiteral("tree")).toString(), QStringLiteral("2,1"));
        // Bad trees: one line naming the problem and a non-zero exit status, never a crash.
        const QList<QPair<QStringList, QString>> bad{
            {{QStringLiteral("run"), QStringLiteral("--tree"), QStringLiteral("3,x")}, QStringLiteral("entry 2 ('x')")},
            {{QStringLiteral("run"), QStringLiteral("--tree"), QStringLiteral("8,8,8,8")}, QStringLiteral("512 nodes")},
            {{QStringLiteral("run"), QStringLiteral("--tree"), QStringLiteral("2"), QStringLiteral("--variant"),
              QStringLiteral("accept-all")},
             QStringLiteral("unknown tree variant")},
            {{QStringLiteral("run"), QStringLiteral("--tree"), QStringLiteral("2"), QStringLiteral("--policy"),
              QStringLiteral("heuristic")},
             QStringLiteral("policy must be constant")},
            {{QStringLiteral("lossless"), QStringLiteral("--tree"), QStringLiteral("2,1")}, QStringLiteral("one depth")},
        };
        for (const auto &[arguments, message] : bad) {
            r = specdec(arguments + QStringList{QStringLiteral("--corpus"), tiny});
            QVERIFY(!r.crashed);
            QVERIFY2(r.exitCode != 0, qPrintable(arguments.join(QLatin1Char(' '))));
            QVERIFY2(r.err.contains(message), qPrintable(r.err));
            QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
        }
    }

    void sweepReportsVerificationCost()
    {
        const Result r = specdec(
            {QStringLiteral("sweep"), QStringLiteral("--corpus"), QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt"),
             QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--draft"),
             QStringLiteral("ngram:2"), QStringLiteral("--ks"), QStringLiteral("1,3"), QStringLiteral("--temperatures"),
             QStringLiteral("0"), QStringLiteral("--tokens"), QStringLiteral("40"), QStringLiteral("--prompt"),
             QStringLiteral("the"), QStringLiteral("--repeat"), QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray rows = json(r).value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 2);
        for (const auto &v : rows) {
            const QJsonObject o = v.toObject();
            for (const char *key : {"verification_cost", "draft_cost_step", "predicted_speedup_generalised",
                                    "verification_cost_run", "draft_cost_run", "predicted_speedup_generalised_run"})
                QVERIFY2(o.value(QLatin1String(key)).toDouble() > 0.0, key);
        }
        // The table has the V and c columns too.
        const Result table = specdec(
            {QStringLiteral("sweep"), QStringLiteral("--corpus"), QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt"),
             QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--draft"),
             QStringLiteral("ngram:2"), QStringLiteral("--ks"), QStringLiteral("2"), QStringLiteral("--temperatures"),
             QStringLiteral("1"), QStringLiteral("--tokens"), QStringLiteral("30"), QStringLiteral("--prompt"),
             QStringLiteral("the"), QStringLiteral("--repeat"), QStringLiteral("1")});
        QVERIFY2(table.exitCode == 0, qPrintable(table.err));
        QVERIFY2(table.out.contains(QStringLiteral("| V(K+1) | c step | predicted with V | V run | c run |")),
                 qPrintable(table.out));
        const QStringList lines = table.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.last().count(QLatin1Char('|')), 18); // 17 cells
    }

    // Issue 24: a uniform draft at T = 0 is rejected at its first position, so positions 2..8 are never tested:
    // compare and sweep, as text and as JSON, print no "nan" for them (run and bench: test_race cliPrintsNoNan).
    void compareAndSweepPrintNoNan()
    {
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        const QStringList common{QStringLiteral("--corpus"),      tiny,
                                 QStringLiteral("--target"),      QStringLiteral("ngram:3"),
                                 QStringLiteral("--tokens"),      QStringLiteral("20"),
                                 QStringLiteral("--temperature"), QStringLiteral("0"),
                                 QStringLiteral("--prompt"),      QStringLiteral("the ")};
        const QStringList compare = QStringList{QStringLiteral("compare"), QStringLiteral("--draft"),
                                                QStringLiteral("uniform"), QStringLiteral("--draft"),
                                                QStringLiteral("ngram:2"), QStringLiteral("-k"),
                                                QStringLiteral("8")}
            + common;
        const QStringList sweep = QStringList{QStringLiteral("sweep"),   QStringLiteral("--draft"),
                                              QStringLiteral("uniform"), QStringLiteral("--ks"),
                                              QStringLiteral("1,8"),     QStringLiteral("--temperatures"),
                                              QStringLiteral("0")}
            + common;
        for (const QStringList &arguments : {compare, sweep})
            for (const bool json : {false, true}) {
                const Result r = specdec(json ? arguments + QStringList{QStringLiteral("--json")} : arguments);
                QVERIFY2(r.exitCode == 0, qPrintable(r.err));
                QVERIFY2(r.out.contains(QStringLiteral("uniform")), qPrintable(r.out));
                QVERIFY2(!r.out.contains(QStringLiteral("nan"), Qt::CaseInsensitive), qPrintable(r.out));
            }
    }

    void benchKvCacheSpeedup()
    {
#ifdef SPECDEC_NO_ONNX_EXECUTOR
        QSKIP("the shipped kjv target is an ONNX model, and this build has no ONNX executor");
#endif
        // The shipped kjv target, cached against uncached: the same text, and the ratio printed.
        const Result r = specdec({QStringLiteral("bench"), QStringLiteral("--kv-cache-speedup"),
                                  QStringLiteral("--tokens"), QStringLiteral("24"), QStringLiteral("--repeat"),
                                  QStringLiteral("1"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = json(r);
        QVERIFY(o.value(QStringLiteral("same_text")).toBool());
        QCOMPARE(o.value(QStringLiteral("tokens")).toInt(), 24);
        QVERIFY(o.value(QStringLiteral("speedup")).toDouble() > 0.0);
        QVERIFY(o.value(QStringLiteral("cached_seconds")).toDouble() > 0.0);
        const Result ngram = specdec({QStringLiteral("bench"), QStringLiteral("--kv-cache-speedup"),
                                      QStringLiteral("--target"), QStringLiteral("ngram:3"), QStringLiteral("--tokens"),
                                      QStringLiteral("5")});
        QVERIFY(ngram.exitCode != 0);
        QVERIFY2(ngram.err.contains(QStringLiteral("keeps no key/value cache")), qPrintable(ngram.err));
    }

    void onnxCommands()
    {
#ifdef SPECDEC_NO_ONNX_EXECUTOR
        // Built without the executor: each door to it (onnx-ops, onnx-run, an onnx: model) is one line saying so.
        const QString onnx = QStringLiteral(SPECDEC_TEST_DATA_DIR "/onnx/tiny_transformer.onnx");
        for (const QStringList &arguments :
             {QStringList{QStringLiteral("onnx-ops")},
              QStringList{QStringLiteral("onnx-run"), onnx, QStringLiteral("--output-dir"), m_dir.path()},
              QStringList{QStringLiteral("run"), QStringLiteral("--corpus"),
                          QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt"), QStringLiteral("--target"),
                          QStringLiteral("onnx:") + onnx}}) {
            const Result r = specdec(arguments);
            QVERIFY(r.exitCode != 0);
            QVERIFY2(r.err.contains(QStringLiteral("this build has no ONNX executor")), qPrintable(r.err));
            QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
        }
        return;
#endif
        const Result ops = specdec({QStringLiteral("onnx-ops")});
        QVERIFY2(ops.exitCode == 0, qPrintable(ops.err));
        for (const char *op : {"MatMul", "LayerNormalization", "GRU", "Softmax"})
            QVERIFY2(ops.out.contains(QLatin1String(op)), op);
        const QString parity = QStringLiteral(SPECDEC_TEST_DATA_DIR "/onnx/tiny_transformer.parity");
        const Result run = specdec(
            {QStringLiteral("onnx-run"), QStringLiteral(SPECDEC_TEST_DATA_DIR "/onnx/tiny_transformer.onnx"),
             QStringLiteral("--input"), QStringLiteral("tokens=") + parity + QStringLiteral("/input_0.pb"),
             QStringLiteral("--output-dir"), m_dir.filePath(QStringLiteral("out"))});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("out/logits.pb"))));
    }

    void badInputIsAClearError_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString run = QStringLiteral("run");
        const QString tiny = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-en.txt");
        const QString c = QStringLiteral("--corpus");
        QTest::addRow("missing corpus file")
            << QStringList{run, c, QStringLiteral("/nonexistent/x.txt")} << QStringLiteral("does not exist");
        QTest::addRow("empty corpus") << QStringList{run, c, writeFile(QStringLiteral("empty.txt"), {})}
                                      << QStringLiteral("is empty");
        QTest::addRow("invalid UTF-8") << QStringList{run, c,
                                                      writeFile(QStringLiteral("bad.txt"),
                                                                QByteArray("abc\xff\xfe"
                                                                           "def"))}
                                       << QStringLiteral("invalid UTF-8 at byte offset 3");
        QTest::addRow("unknown corpus name")
            << QStringList{run, c, QStringLiteral("nosuchcorpus")} << QStringLiteral("unknown corpus");
        QTest::addRow("order 0") << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("ngram:0")}
                                 << QStringLiteral("between 1 and 10");
        QTest::addRow("order 11") << QStringList{run, c, tiny, QStringLiteral("--draft"), QStringLiteral("ngram:11")}
                                  << QStringLiteral("between 1 and 10");
        QTest::addRow("K 0") << QStringList{run, c, tiny, QStringLiteral("-k"), QStringLiteral("0")}
                             << QStringLiteral("between 1 and 64");
        QTest::addRow("K 65") << QStringList{run, c, tiny, QStringLiteral("-k"), QStringLiteral("65")}
                              << QStringLiteral("between 1 and 64");
        QTest::addRow("negative temperature")
            << QStringList{run, c, tiny, QStringLiteral("--temperature"), QStringLiteral("-1")}
            << QStringLiteral("temperature");
        QTest::addRow("top-p 0") << QStringList{run, c, tiny, QStringLiteral("--top-p"), QStringLiteral("0")}
                                 << QStringLiteral("top-p must be in (0, 1]");
        QTest::addRow("top-p 1.5") << QStringList{run, c, tiny, QStringLiteral("--top-p"), QStringLiteral("1.5")}
                                   << QStringLiteral("top-p must be in (0, 1]");
        QTest::addRow("top-k -1") << QStringList{run, c, tiny, QStringLiteral("--top-k"), QStringLiteral("-1")}
                                  << QStringLiteral("top-k must be >= 0");
        QTest::addRow("prompt outside vocabulary")
            << QStringList{run, c, tiny, QStringLiteral("--prompt"), QStringLiteral("the ZEBRA")}
            << QStringLiteral("'Z' (U+005A)");
        QTest::addRow("vocabulary mismatch")
            << QStringList{run, c, tiny, QStringLiteral("--draft-corpus"),
                           QStringLiteral(SPECDEC_TEST_DATA_DIR "/tiny-zh.txt")}
            << QStringLiteral("tokenizers differ: the draft uses the chars tokenizer of tiny-zh");
        QTest::addRow("unknown model spec")
            << QStringList{run, c, tiny, QStringLiteral("--draft"), QStringLiteral("gpt:9")}
            << QStringLiteral("unknown model kind");
        QTest::addRow("hf: without a folder")
            << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("hf:")}
            << QStringLiteral("no folder after hf:");
        QTest::addRow("hf: not a folder")
            << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("hf:") + tiny}
            << QStringLiteral("not a folder");
        QTest::addRow("hf: folder without config.json")
            << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("hf:" SPECDEC_TEST_DATA_DIR "/onnx")}
            << QStringLiteral("the folder has no config.json");
        QTest::addRow("hf: tokenizers differ")
            << QStringList{run,
                           c,
                           tiny,
                           QStringLiteral("--target"),
                           QStringLiteral("hf:" SPECDEC_TEST_DATA_DIR "/hf/llama-op17"),
                           QStringLiteral("--draft"),
                           QStringLiteral("onnx:" SPECDEC_TEST_DATA_DIR "/onnx/gpt2_with_past.onnx")}
            << QStringLiteral("tokenizers differ");
        QTest::addRow("bad add-k") << QStringList{run, c, tiny, QStringLiteral("--target"),
                                                  QStringLiteral("ngram:3:addk=x")}
                                   << QStringLiteral("add-k needs a number");
        QTest::addRow("tokens 0") << QStringList{run, c, tiny, QStringLiteral("--tokens"), QStringLiteral("0")}
                                  << QStringLiteral("at least 1");
        QTest::addRow("tokens not a number")
            << QStringList{run, c, tiny, QStringLiteral("--tokens"), QStringLiteral("ten")}
            << QStringLiteral("whole number");
        QTest::addRow("same as target") << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("same")}
                                        << QStringLiteral("draft only");
        QTest::addRow("unknown mode") << QStringList{run, c, tiny, QStringLiteral("--mode"), QStringLiteral("fast")}
                                      << QStringLiteral("--mode");
        QTest::addRow("unknown option") << QStringList{run, QStringLiteral("--frobnicate")}
                                        << QStringLiteral("frobnicate");
        QTest::addRow("unknown command") << QStringList{QStringLiteral("fly")} << QStringLiteral("unknown command");
        QTest::addRow("dist context outside vocabulary")
            << QStringList{QStringLiteral("dist"), c, tiny, QStringLiteral("--context"), QStringLiteral("q")}
            << QStringLiteral("'q'");
        QTest::addRow("sample 0 samples")
            << QStringList{QStringLiteral("sample"), c, tiny, QStringLiteral("--samples"), QStringLiteral("0")}
            << QStringLiteral("--samples must be from 1 to 10000000, got 0");
        QTest::addRow("unknown variant") << QStringList{run, c, tiny, QStringLiteral("--variant"),
                                                        QStringLiteral("sloppy")}
                                         << QStringLiteral("unknown variant");
        QTest::addRow("unknown policy") << QStringList{run, c, tiny, QStringLiteral("--policy"), QStringLiteral("often")}
                                        << QStringLiteral("unknown draft policy");
        QTest::addRow("lookup as target")
            << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("lookup:2")}
            << QStringLiteral("draft only");
        QTest::addRow("onnx-run without model")
            << QStringList{QStringLiteral("onnx-run"), QStringLiteral("--output-dir"), QStringLiteral("/tmp")}
            << QStringLiteral("exactly one model");
        QTest::addRow("onnx garbage file")
            << QStringList{run, c, tiny, QStringLiteral("--target"),
                           QStringLiteral("onnx:")
                               + writeFile(QStringLiteral("garbage.onnx"), QByteArray("this is not protobuf at all"))}
            << QStringLiteral("garbage.onnx");
        QTest::addRow("onnx file missing")
            << QStringList{run, c, tiny, QStringLiteral("--target"), QStringLiteral("onnx:/nonexistent/m.onnx")}
            << QStringLiteral("m.onnx");
    }
    void badInputIsAClearError()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = specdec(arguments);
        QVERIFY(!r.crashed);
        QVERIFY2(r.exitCode != 0, qPrintable(r.out));
        QVERIFY2(r.err.startsWith(QStringLiteral("specdec: error: ")), qPrintable(r.err));
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
