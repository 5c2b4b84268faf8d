// SPDX-License-Identifier: GPL-3.0-or-later
// UTF-8 decoding and the vocabulary: edge cases, 4-byte characters, Chinese, and clear errors.
#include "Error.h"
#include "Utf8.h"
#include "Vocabulary.h"

#include <QtTest>

using namespace specdec;

class TestText : public QObject
{
    Q_OBJECT
private slots:
    void decodesAsciiChineseAndAstral()
    {
        const std::string bytes = "a\xE6\x98\xA5\xF0\x9F\x98\x80\n"; // a 春 😀 \n
        const std::u32string cps = decodeUtf8(bytes);
        QCOMPARE(cps.size(), std::size_t(4));
        QCOMPARE(cps[0], U'a');
        QCOMPARE(cps[1], U'春');
        QCOMPARE(cps[2], char32_t(0x1F600));
        QCOMPARE(cps[3], U'\n');
        QCOMPARE(encodeUtf8(cps), bytes);
    }

    void dropsByteOrderMark() { QCOMPARE(decodeUtf8("\xEF\xBB\xBFok"), std::u32string(U"ok")); }

    void rejectsInvalid_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("offset");
        QTest::addRow("lone continuation") << QByteArray("ab\x80") << 2;
        QTest::addRow("truncated 3-byte") << QByteArray("xyz\xE6\x98") << 3;
        QTest::addRow("overlong slash") << QByteArray("\xC0\xAF") << 0;
        QTest::addRow("surrogate") << QByteArray("a\xED\xA0\x80") << 1;
        QTest::addRow("above 10FFFF") << QByteArray("\xF4\x90\x80\x80") << 0;
        QTest::addRow("bad leading byte") << QByteArray("ok\xFF") << 2;
        QTest::addRow("missing continuation") << QByteArray("\xE6"
                                                            "a"
                                                            "b")
                                              << 0;
    }
    void rejectsInvalid()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, offset);
        try {
            decodeUtf8(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), "corpus.txt");
            QFAIL("invalid UTF-8 was accepted");
        } catch (const Error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("byte offset %1").arg(offset)), qPrintable(message));
            QVERIFY2(message.startsWith(QStringLiteral("corpus.txt")), qPrintable(message));
        }
    }

    void vocabularyIsSortedByCodePoint()
    {
        const Vocabulary v = Vocabulary::fromText(U"春b a\U0001F600b春");
        QCOMPARE(v.size(), 5);
        QCOMPARE(v.token(0), U' ');
        QCOMPARE(v.token(1), U'a');
        QCOMPARE(v.token(2), U'b');
        QCOMPARE(v.token(3), U'春');
        QCOMPARE(v.token(4), char32_t(0x1F600));
        QCOMPARE(v.find(U'春'), 3);
        QCOMPARE(v.find(U'z'), -1);
        const auto ids = v.encode(U"a春\U0001F600");
        QCOMPARE(ids, (std::vector<TokenId>{1, 3, 4}));
        QCOMPARE(v.decode(ids), std::u32string(U"a春\U0001F600"));
    }

    void unknownPromptCharactersAreNamed()
    {
        const Vocabulary v = Vocabulary::fromText(U"abc");
        try {
            v.encode(U"abXcYX", "prompt");
            QFAIL("unknown characters accepted");
        } catch (const Error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("'X' (U+0058)")), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("'Y' (U+0059)")), qPrintable(message));
            QVERIFY2(message.startsWith(QStringLiteral("prompt has 2 characters")), qPrintable(message));
        }
    }

    void mismatchListsDifferingTokens()
    {
        const Vocabulary target = Vocabulary::fromText(U"abcd");
        const Vocabulary draft = Vocabulary::fromText(U"abcz");
        QVERIFY_THROWS_EXCEPTION(Error, Vocabulary::requireSame(target, draft));
        try {
            Vocabulary::requireSame(target, draft);
        } catch (const Error &e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("only in the target: 'd'")), qPrintable(message));
            QVERIFY2(message.contains(QStringLiteral("only in the draft: 'z'")), qPrintable(message));
        }
        Vocabulary::requireSame(target, Vocabulary::fromText(U"dcba")); // same set: no throw
    }

    void duplicateModelTokensAreAnError()
    {
        QVERIFY_THROWS_EXCEPTION(Error, Vocabulary::fromTokens({U'a', U'b', U'a'}));
        const Vocabulary v = Vocabulary::fromTokens({U'z', U'a'});
        QCOMPARE(v.find(U'z'), 0);
        QCOMPARE(v.find(U'a'), 1);
    }
};

QTEST_APPLESS_MAIN(TestText)
#include "test_text.moc"
