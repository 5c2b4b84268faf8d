// SPDX-License-Identifier: GPL-3.0-or-later
// The lossless claim, tested statistically: the joint distribution of the first two generated tokens of
// speculative decoding matches the target's exact probabilities (chi-square goodness of fit, fixed seeds,
// 10^5 samples), at several sampler settings; and every deliberately wrong variant fails the same test. The same
// test on the subword pair (n-grams over Qwen3's tokenization of kjv, 151,669 ids).
#include "Continuations.h"
#include "Statistics.h"
#include "TestSupport.h"

#include <QtTest>

using namespace specdec;

namespace {

constexpr std::int64_t kSamples = 100000;
constexpr std::int64_t kSubwordSamples = 3000; // every call fills 151,669-long rows: ~2 ms a sample

ContinuationFit fitSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               const std::vector<TokenId> &prompt, DecodingMode mode = DecodingMode::Speculative)
{
    return fitContinuations(exactContinuations(target, settings.target, prompt, 2),
                            sampleContinuations(target, &draft, settings, mode, prompt, 2, kSamples));
}

DecodingSettings settings(double temperature, int topK, double topP, double draftTemperature, int k, std::uint64_t seed,
                          Variant variant = Variant::Correct, const char *policy = "constant")
{
    DecodingSettings s;
    s.policy = DraftPolicy::parse(policy);
    s.draftLength = k;
    s.target = {temperature, topK, topP};
    s.draft = {draftTemperature, topK, topP};
    s.seed = seed;
    s.variant = variant;
    return s;
}

} // namespace

Q_DECLARE_METATYPE(specdec::DecodingSettings)

class TestLossless : public QObject
{
    Q_OBJECT
private:
    test::TinyPair m_tiny;

private slots:
    void speculativeMatchesTarget_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addRow("T=1 K=4") << settings(1.0, 0, 1.0, 1.0, 4, 11);
        QTest::addRow("T=1 K=1") << settings(1.0, 0, 1.0, 1.0, 1, 12);
        QTest::addRow("T=0.7") << settings(0.7, 0, 1.0, 0.7, 3, 13);
        QTest::addRow("top-k=6") << settings(1.0, 6, 1.0, 1.0, 2, 14);
        QTest::addRow("top-p=0.9") << settings(1.0, 0, 0.9, 1.0, 2, 15);
        QTest::addRow("draft T=1.5, target T=0.7") << settings(0.7, 0, 1.0, 1.5, 2, 16);
        QTest::addRow("draft T=0.3, target T=1.2, top-p=0.9") << settings(1.2, 0, 0.9, 0.3, 3, 17);
        QTest::addRow("policy confidence:0.3") << settings(1.0, 0, 1.0, 1.0, 4, 18, Variant::Correct, "confidence:0.3");
        QTest::addRow("policy threshold:0.5") << settings(1.0, 0, 1.0, 1.0, 4, 19, Variant::Correct, "threshold:0.5");
    }
    void speculativeMatchesTarget()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitSpeculative(*m_tiny.target, *m_tiny.draft, decoding, m_tiny.prompt);
        const QString why = test::losslessVerdict(fit, true, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void autoregressiveMatchesTarget()
    {
        const ContinuationFit fit = fitSpeculative(*m_tiny.target, *m_tiny.draft, settings(0.8, 0, 1.0, 0.8, 4, 21),
                                                   m_tiny.prompt, DecodingMode::Autoregressive);
        const QString why = test::losslessVerdict(fit, true);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void wrongVariantsAreCaught_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addRow("accept-all") << settings(1.0, 0, 1.0, 1.0, 4, 31, Variant::AcceptAll);
        QTest::addRow("greedy-match") << settings(1.0, 0, 1.0, 1.0, 4, 32, Variant::GreedyMatch);
        QTest::addRow("resample-from-target") << settings(1.0, 0, 1.0, 1.0, 4, 33, Variant::ResampleFromTarget);
        QTest::addRow("unnormalized-residual") << settings(1.0, 0, 1.0, 1.0, 4, 34, Variant::UnnormalizedResidual);
        QTest::addRow("temperature-target-only") << settings(0.7, 0, 1.0, 0.5, 4, 35, Variant::TemperatureTargetOnly);
    }
    void wrongVariantsAreCaught()
    {
        QFETCH(DecodingSettings, decoding);
        const ContinuationFit fit = fitSpeculative(*m_tiny.target, *m_tiny.draft, decoding, m_tiny.prompt);
        const QString why = test::losslessVerdict(fit, false);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void sameVariantIsCorrectWithSameSettings()
    {
        // The control of the case above: the correct rule with the very settings of temperature-target-only.
        const ContinuationFit fit = fitSpeculative(*m_tiny.target, *m_tiny.draft, settings(0.7, 0, 1.0, 0.5, 4, 35),
                                                   m_tiny.prompt);
        const QString why = test::losslessVerdict(fit, true);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void subwordPairIsLossless_data()
    {
        // The subword pair with top-k = 6 (so the exact distribution of two tokens has 36 continuations; the
        // vectors stay 151,669 long): the correct rule passes, the no-residual rule (resample from p) fails.
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addColumn<bool>("lossless");
        QTest::addRow("correct K=2") << settings(1.0, 6, 1.0, 1.0, 2, 41) << true;
        QTest::addRow("resample-from-target K=2")
            << settings(1.0, 6, 1.0, 1.0, 2, 42, Variant::ResampleFromTarget) << false;
    }
    void subwordPairIsLossless()
    {
        QFETCH(DecodingSettings, decoding);
        QFETCH(bool, lossless);
        test::SubwordPair &pair = test::subwordPair();
        QCOMPARE(pair.target->tokenizer().size(), 151669);
        const ContinuationFit fit = fitContinuations(exactContinuations(*pair.target, decoding.target, pair.prompt, 2),
                                                     sampleContinuations(*pair.target, pair.draft.get(), decoding,
                                                                         DecodingMode::Speculative, pair.prompt, 2,
                                                                         kSubwordSamples));
        const QString why = test::losslessVerdict(fit, lossless, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void chiSquareSurvivalMatchesTables()
    {
        // Critical values of the chi-square distribution (any statistics table).
        QVERIFY(std::abs(chiSquareSurvival(3.841459, 1) - 0.05) < 1e-6);
        QVERIFY(std::abs(chiSquareSurvival(18.307038, 10) - 0.05) < 1e-6);
        QVERIFY(std::abs(chiSquareSurvival(6.634897, 1) - 0.01) < 1e-6);
        QVERIFY(std::abs(chiSquareSurvival(124.342113, 100) - 0.05) < 1e-6);
        QVERIFY(std::abs(chiSquareSurvival(2.0, 2) - std::exp(-1.0)) < 1e-12); // dof 2: exp(-x/2)
    }
};

QTEST_APPLESS_MAIN(TestLossless)
#include "test_lossless.moc"
