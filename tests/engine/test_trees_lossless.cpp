// SPDX-License-Identifier: GPL-3.0-or-later
// Token trees, the lossless claim by chi-square: the joint distribution of the first two tokens of tree
// decoding (n-gram models on tiny-en.txt, several shapes and sampler settings) matches the target's exact
// probabilities, and both wrong variants (no residual update, typical acceptance) fail the same test; the same
// for the subword pair (n-grams over Qwen3's tokenization of kjv, 151,669 ids).
#include "Continuations.h"
#include "TestSupport.h"

#include <QtTest>

using namespace specdec;
using test::onCi;
using test::treeSettings;

Q_DECLARE_METATYPE(specdec::DecodingSettings)

class TestTreesLossless : public QObject
{
    Q_OBJECT
private:
    test::TinyPair m_tiny;

private slots:
    void treesAreLossless_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        std::uint64_t seed = 50;
        for (const char *shape : {"2,1", "3,2", "4"}) {
            QTest::addRow("%s T=1", shape) << treeSettings(shape, 1.0, 1.0, ++seed);
            QTest::addRow("%s T=0.7", shape) << treeSettings(shape, 0.7, 1.0, ++seed);
            QTest::addRow("%s top-p=0.9", shape) << treeSettings(shape, 1.0, 0.9, ++seed);
        }
    }
    void treesAreLossless()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*m_tiny.target, decoding.target, m_tiny.prompt, 2),
            sampleContinuations(*m_tiny.target, m_tiny.draft.get(), decoding, DecodingMode::Speculative, m_tiny.prompt,
                                2, onCi() ? 40000 : 100000));
        const QString why = test::losslessVerdict(fit, true, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void subwordTreesAreLossless_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addColumn<bool>("lossless");
        DecodingSettings correct = treeSettings("4", 1.0, 1.0, 81);
        DecodingSettings wrong = treeSettings("4", 1.0, 1.0, 82, TreeVariant::TypicalAcceptance);
        correct.target.topK = correct.draft.topK = wrong.target.topK = wrong.draft.topK = 6;
        QTest::addRow("correct 4") << correct << true;
        QTest::addRow("typical-acceptance 4") << wrong << false;
    }
    void subwordTreesAreLossless()
    {
        QFETCH(DecodingSettings, decoding);
        QFETCH(bool, lossless);
#if defined(__SANITIZE_THREAD__)
        // One thread samples 2,000 continuations over 151,669-token rows (nothing to race): under ThreadSanitizer
        // that takes over QtTest's 300 s per function. The plain and ASan builds run it.
        QSKIP("a single-threaded statistical run, too slow under ThreadSanitizer");
#endif
        test::SubwordPair &pair = test::subwordPair();
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*pair.target, decoding.target, pair.prompt, 2),
            sampleContinuations(*pair.target, pair.draft.get(), decoding, DecodingMode::Speculative, pair.prompt, 2,
                                2000)); // ~5 ms a sample: every row is 151,669 long
        const QString why = test::losslessVerdict(fit, lossless, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void wrongTreeVariantsAreCaught_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addRow("no-residual-update 4") << treeSettings("4", 1.0, 1.0, 71, TreeVariant::NoResidualUpdate);
        QTest::addRow("no-residual-update 3,2") << treeSettings("3,2", 1.0, 1.0, 72, TreeVariant::NoResidualUpdate);
        QTest::addRow("no-residual-update 2,1") << treeSettings("2,1", 1.0, 1.0, 73, TreeVariant::NoResidualUpdate);
        QTest::addRow("typical-acceptance 2,1") << treeSettings("2,1", 1.0, 1.0, 74, TreeVariant::TypicalAcceptance);
        QTest::addRow("typical-acceptance 3,2 T=0.7")
            << treeSettings("3,2", 0.7, 1.0, 75, TreeVariant::TypicalAcceptance);
    }
    void wrongTreeVariantsAreCaught()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*m_tiny.target, decoding.target, m_tiny.prompt, 2),
            sampleContinuations(*m_tiny.target, m_tiny.draft.get(), decoding, DecodingMode::Speculative, m_tiny.prompt,
                                2, onCi() ? 40000 : 100000));
        const QString why = test::losslessVerdict(fit, false);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_APPLESS_MAIN(TestTreesLossless)
#include "test_trees_lossless.moc"
