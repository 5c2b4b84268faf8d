// SPDX-License-Identifier: GPL-3.0-or-later
// N-gram models: proper distributions, add-k counted independently, Kneser–Ney backoff and perplexity; how
// often the training text holds the model's contexts (a text too small for the order).
#include "CorpusFit.h"
#include "Error.h"
#include "Evaluation.h"
#include "NGramModel.h"
#include "TestSupport.h"
#include "Utf8.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace specdec;

namespace {

Eigen::VectorXd next(LanguageModel &model, const std::u32string &context)
{
    DistributionMatrix rows;
    model.distributions(model.tokenizer().encode(context), 1, rows);
    return rows.row(0).transpose();
}

/// Occurrences of `pattern` in `text`, overlapping ones included.
double occurrences(const std::u32string &text, const std::u32string &pattern)
{
    double n = 0;
    for (std::size_t at = text.find(pattern); at != std::u32string::npos; at = text.find(pattern, at + 1))
        ++n;
    return n;
}

} // namespace

class TestNGram : public QObject
{
    Q_OBJECT
private slots:
    void distributionsSumToOne_data()
    {
        QTest::addColumn<QString>("spec");
        for (int order = 1; order <= 10; ++order) {
            QTest::addRow("kn %d", order) << QStringLiteral("ngram:%1").arg(order);
            QTest::addRow("addk %d", order) << QStringLiteral("ngram:%1:addk=0.2").arg(order);
        }
    }
    void distributionsSumToOne()
    {
        QFETCH(QString, spec);
        for (const Corpus &corpus : {test::tinyEnglish(), test::tinyChinese()}) {
            auto model = test::model(spec.toStdString(), corpus);
            const std::vector<TokenId> text = corpus.tokens(corpus.vocabulary);
            DistributionMatrix rows;
            // Every prefix of the corpus (seen contexts) in one call, and the empty prefix.
            model->distributions(std::span(text).first(60), 61, rows);
            for (int r = 0; r < rows.rows(); ++r) {
                QVERIFY2(std::abs(rows.row(r).sum() - 1.0) < 1e-9,
                         qPrintable(QString::number(rows.row(r).sum(), 'g', 17)));
                QVERIFY(rows.row(r).minCoeff() >= 0.0);
            }
            // Unseen contexts: the corpus reversed.
            std::vector<TokenId> reversed(text.rbegin(), text.rend());
            model->distributions(std::span(reversed).first(40), 40, rows);
            for (int r = 0; r < rows.rows(); ++r)
                QVERIFY(std::abs(rows.row(r).sum() - 1.0) < 1e-9);
        }
    }

    // The coverage of each context length is counted exactly (positions with that many tokens before them,
    // distinct contexts among them), and a five-line corpus is too small for ngram:6 (each 5-character context
    // once: it can only repeat the text) but not for ngram:2; tiny-en's 177 characters fit ngram:6.
    void corpusFitSaysWhenTheTextIsTooSmall()
    {
        const Corpus zh = test::tinyChinese();
        QCOMPARE(std::count(zh.text.begin(), zh.text.end(), U'\n'), 5);
        auto six = test::model("ngram:6", zh);
        const auto &model = dynamic_cast<const NGramModel &>(*six);
        QCOMPARE(model.trainedTokens(), zh.text.size());
        for (int length = 0; length < 6; ++length) {
            std::set<std::u32string> contexts;
            for (std::size_t i = length; i < zh.text.size(); ++i)
                contexts.insert(zh.text.substr(i - length, length));
            QCOMPARE(model.coverage(length).positions, zh.text.size() - length);
            QCOMPARE(model.coverage(length).contexts, contexts.size());
        }
        const auto fit = corpusFit(*six);
        QVERIFY(fit);
        QCOMPARE(fit->order, 6);
        QVERIFY2(fit->occurrences() < 1.01, qPrintable(QString::number(fit->occurrences())));
        QVERIFY(fit->tooSmall());
        QCOMPARE(fit->largestFittingOrder, 2); // 1.39 per 1-character context, 1.08 per 2-character one
        QVERIFY(!corpusFit(*test::model("ngram:2", zh))->tooSmall());
        QVERIFY(!corpusFit(*test::model("ngram:1", zh))->tooSmall());
        const auto en = corpusFit(*test::model("ngram:6", test::tinyEnglish()));
        QVERIFY2(!en->tooSmall() && en->occurrences() > 1.5, qPrintable(QString::number(en->occurrences())));
        QVERIFY(!corpusFit(*test::model("uniform", zh)));
    }

    void addKMatchesCountsExactly()
    {
        const Corpus corpus = test::tinyEnglish();
        const double k = 0.2;
        const double v = corpus.vocabulary.size();
        for (const char32_t *context : {U"th", U"t ", U"at", U"og"}) {
            auto model = test::model("ngram:3:addk=0.2", corpus);
            const Eigen::VectorXd p = next(*model, context);
            // c(h) counts h followed by any token: occurrences of h that are not at the very end of the text.
            double ch = 0;
            for (char32_t w : corpus.vocabulary.tokens())
                ch += occurrences(corpus.text, std::u32string(context) + w);
            for (int w = 0; w < corpus.vocabulary.size(); ++w) {
                const double c = occurrences(corpus.text, std::u32string(context) + corpus.vocabulary.token(w));
                QVERIFY(std::abs(p[w] - (c + k) / (ch + k * v)) < 1e-14);
            }
        }
    }

    void addKUnseenContextIsUniform()
    {
        const Corpus corpus = test::tinyEnglish();
        auto model = test::model("ngram:3:addk=0.2", corpus);
        const Eigen::VectorXd p = next(*model, U"gg"); // "gg" never occurs
        QCOMPARE(occurrences(corpus.text, U"gg"), 0.0);
        for (int w = 0; w < p.size(); ++w)
            QCOMPARE(p[w], 1.0 / corpus.vocabulary.size());
    }

    void kneserNeyBacksOffToShorterContext()
    {
        const Corpus corpus = test::builtCorpus("kjv");
        auto model = test::model("ngram:3", corpus);
        // "Qz" never occurs in the KJV, so P(.|"Qz") is P(.|"z") exactly (the unseen order passes its weight on).
        QCOMPARE(occurrences(corpus.text, U"Qz"), 0.0);
        QVERIFY((next(*model, U"Qz") - next(*model, U"z")).cwiseAbs().maxCoeff() < 1e-15);
        // Every token has positive probability after any context.
        QVERIFY(next(*model, U"the").minCoeff() > 0.0);
        for (int order = 1; order <= 3; ++order) {
            const auto d = static_cast<NGramModel &>(*model).discounts(order);
            QVERIFY(d[0] > 0.0 && d[0] <= 1.0);
            QVERIFY(d[1] > 0.0 && d[1] <= 2.0);
            QVERIFY(d[2] > 0.0 && d[2] <= 3.0);
        }
    }

    void orderOneIsTheUnigram()
    {
        const Corpus corpus = test::builtCorpus("kjv");
        auto model = test::model("ngram:1", corpus);
        const Eigen::VectorXd a = next(*model, U"In the beginning");
        const Eigen::VectorXd b = next(*model, U"");
        QCOMPARE(a, b);
        const double n = static_cast<double>(corpus.text.size());
        for (int w = 0; w < corpus.vocabulary.size(); ++w) {
            const double frequency = occurrences(corpus.text, std::u32string(1, corpus.vocabulary.token(w))) / n;
            QVERIFY2(std::abs(a[w] - frequency) < 1e-5, qPrintable(QStringLiteral("%1 vs %2").arg(a[w]).arg(frequency)));
        }
    }

    void kneserNeyBeatsAddKOnHeldOutText_data()
    {
        QTest::addColumn<QString>("corpusName");
        QTest::addColumn<int>("order");
        QTest::addRow("kjv 3") << QStringLiteral("kjv") << 3;
        QTest::addRow("kjv 6") << QStringLiteral("kjv") << 6;
        QTest::addRow("tang-song 2") << QStringLiteral("tang-song") << 2;
        QTest::addRow("tang-song 3") << QStringLiteral("tang-song") << 3;
    }
    void kneserNeyBeatsAddKOnHeldOutText()
    {
        QFETCH(QString, corpusName);
        QFETCH(int, order);
        const Corpus corpus = test::builtCorpus(corpusName.toStdString());
        const std::vector<TokenId> all = corpus.tokens(corpus.vocabulary);
        const std::size_t split = all.size() * 95 / 100;
        const std::span<const TokenId> train = std::span(all).first(split);
        const std::span<const TokenId> heldOut = std::span(all).subspan(
            split, std::min<std::size_t>(20000, all.size() - split));
        auto kn = NGramModel::train(train, Tokenizer::chars(corpus.vocabulary), {order, Smoothing::KneserNey, 0.0});
        double best = std::numeric_limits<double>::infinity();
        for (double k : {0.01, 0.05, 0.2, 1.0}) {
            auto addk = NGramModel::train(train, Tokenizer::chars(corpus.vocabulary), {order, Smoothing::AddK, k});
            best = std::min(best, perplexity(*addk, heldOut, static_cast<std::size_t>(order)));
        }
        const double knPerplexity = perplexity(*kn, heldOut, static_cast<std::size_t>(order));
        qInfo("%s order %d: Kneser-Ney perplexity %.3f, best add-k %.3f", qPrintable(corpusName), order, knPerplexity,
              best);
        QVERIFY(knPerplexity < best);
    }

    void breaksAreNotCrossed()
    {
        // "ab | bc": without the break a bigram would see "b" followed by "b".
        const Vocabulary v = Vocabulary::fromText(U"abc");
        const std::vector<TokenId> text{0, 1, -1, 1, 2};
        auto model = NGramModel::train(text, Tokenizer::chars(v), {2, Smoothing::AddK, 0.0});
        const Eigen::VectorXd afterB = next(*model, U"b");
        QCOMPARE(afterB[1], 0.0);
        QCOMPARE(afterB[2], 1.0);
        const Eigen::VectorXd afterA = next(*model, U"a");
        QCOMPARE(afterA[1], 1.0);
    }

    void invalidSettingsAreErrors()
    {
        const Corpus corpus = test::tinyEnglish();
        const auto ids = corpus.tokens(corpus.vocabulary);
        QVERIFY_THROWS_EXCEPTION(
            Error, NGramModel::train(ids, Tokenizer::chars(corpus.vocabulary), {0, Smoothing::KneserNey, 0}));
        QVERIFY_THROWS_EXCEPTION(
            Error, NGramModel::train(ids, Tokenizer::chars(corpus.vocabulary), {11, Smoothing::KneserNey, 0}));
        QVERIFY_THROWS_EXCEPTION(Error,
                                 NGramModel::train(ids, Tokenizer::chars(corpus.vocabulary), {2, Smoothing::AddK, -1}));
        QVERIFY_THROWS_EXCEPTION(
            Error, NGramModel::train({}, Tokenizer::chars(corpus.vocabulary), {2, Smoothing::KneserNey, 0}));
    }
};

QTEST_APPLESS_MAIN(TestNGram)
#include "test_ngram.moc"
