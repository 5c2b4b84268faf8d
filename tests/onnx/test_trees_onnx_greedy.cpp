// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees on the shipped ONNX models: greedy tree decoding equal to greedy autoregressive decoding (kjv and
// tang-song, ONNX and n-gram drafts, with the key/value cache and without, past the context length), and a
// tree's paths as one batched graph run, row for row the same as one path at a time.
#include "Generation.h"
#include "TestSupport.h"
#include "TreeTrace.h"
#include "Utf8.h"
#include "onnx/OnnxLanguageModel.h"

#include <QtTest>

using namespace specdec;
using test::onCi;

class TestTreesOnnxGreedy : public QObject
{
    Q_OBJECT
private slots:
    void onnxGreedyTreeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("corpus");
        QTest::addColumn<QString>("draft");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<bool>("cache");
        for (bool cache : {true, false}) {
            const char *mode = cache ? "cache on" : "cache off";
            QTest::addRow("kjv draft-small 2,2,1, %s", mode)
                << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small") << QStringLiteral("2,2,1")
                << QStringLiteral("And God said") << cache;
            QTest::addRow("kjv draft-small 3,2,1, %s", mode)
                << QStringLiteral("kjv") << QStringLiteral("onnx:draft-small") << QStringLiteral("3,2,1")
                << QStringLiteral("In the beginning") << cache;
            QTest::addRow("kjv ngram:4 3,1, %s", mode)
                << QStringLiteral("kjv") << QStringLiteral("ngram:4") << QStringLiteral("3,1")
                << QStringLiteral("In the beginning") << cache;
            QTest::addRow("tang-song draft-tiny 2,1, %s", mode)
                << QStringLiteral("tang-song") << QStringLiteral("onnx:draft-tiny") << QStringLiteral("2,1")
                << QStringLiteral("床前明月光") << cache;
        }
    }
    void onnxGreedyTreeEqualsAutoregressive()
    {
        QFETCH(QString, corpus);
        QFETCH(QString, draft);
        QFETCH(QString, shape);
        QFETCH(QString, prompt);
        QFETCH(bool, cache);
        const std::string dir = std::string(SPECDEC_SOURCE_DIR) + "/corpora/" + corpus.toStdString() + "/models/";
        const Corpus text = test::builtCorpus(corpus.toStdString());
        auto target = OnnxLanguageModel::load(dir + "target.onnx", 0);
        std::string spec = draft.toStdString();
        if (spec.rfind("onnx:", 0) == 0)
            spec = "onnx:" + dir + spec.substr(5) + ".onnx";
        BuiltModel d = buildModel(ModelSpec::parse(spec), text, &target->tokenizer(), target.get());
        DecodingSettings s;
        s.tree = TreeShape::parse(shape.toStdString());
        s.target.temperature = 0.0;
        s.draft.temperature = 1.0;
        s.kvCache = cache;
        const auto ids = target->tokenizer().encode(decodeUtf8(prompt.toStdString()));
        // Past the context length too: every path is scored in the windows autoregressive decoding uses (with
        // the cache: after the committed prefix's cache, refilled where the window start moves). 300 tokens
        // on kjv (the cache off: recomputed windows, slow; the context + 20 on CI).
        const int tokens = corpus == QStringLiteral("kjv") && (cache || !onCi()) ? 300 : target->contextLength() + 20;
        const Generation tree = generateSpeculative(*target, *d.model, s, ids, tokens);
        const Generation ar = generateAutoregressive(*target, s.target, 0, ids, tokens, {}, true);
        QCOMPARE(tree.tokens, ar.tokens); // (cached = uncached autoregressive text: test_shipped_models)
        QVERIFY(tree.target.calls < ar.target.calls);
        int refills = 0, discarded = 0;
        for (const TreeTrace &r : tree.treeRounds) {
            refills += r.targetCache.refills;
            discarded += r.targetCache.discarded;
            QCOMPARE(r.targetCache.after, r.contextLength + r.acceptedCount());
        }
        QCOMPARE(refills > 0, cache); // a state without a cache has no window to refill
        QVERIFY(discarded > 0);
    }

    void onnxBatchIsOneGraphRun()
    {
        // The shipped models take a batch: a tree's paths can run as one [B, T] batch, row for row the same
        // as one path at a time (before and past the context length, where the rows share one window).
        const std::string dir = std::string(SPECDEC_SOURCE_DIR) + "/corpora/kjv/models/";
        auto target = OnnxLanguageModel::load(dir + "target.onnx", 0);
        QVERIFY(target->canBatchWindows());
        QVERIFY(!target->batchWindows()); // off by default (see setBatchWindows)
        target->setBatchWindows(true);
        for (int length : {5, target->contextLength() + 7}) {
            std::vector<std::vector<TokenId>> paths(3, std::vector<TokenId>(static_cast<std::size_t>(length), 3));
            paths[1].back() = 7;
            paths[2][static_cast<std::size_t>(length - 2)] = 11;
            std::vector<SequenceRequest> requests;
            for (const auto &path : paths)
                requests.push_back({path, 3});
            std::vector<DistributionMatrix> rows;
            const CallStats before = target->stats();
            target->batchDistributions(requests, rows);
            QCOMPARE(target->stats().calls - before.calls, std::int64_t(1));
            for (std::size_t i = 0; i < paths.size(); ++i) {
                DistributionMatrix single;
                target->distributions(paths[i], 3, single);
                QVERIFY2((rows[i] - single).cwiseAbs().maxCoeff() < 1e-6, qPrintable(QString::number(length)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestTreesOnnxGreedy)
#include "test_trees_onnx_greedy.moc"
