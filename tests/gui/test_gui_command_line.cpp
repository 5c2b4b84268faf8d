// SPDX-License-Identifier: GPL-3.0-or-later
// The window's command line reads numbers as the CLI does (issue 22, 8 and 10): whole numbers for counts,
// range errors naming the text given, 64-bit seeds, and a bounded --size.
#include "../TestSupport.h"
#include "CommandLine.h"
#include "GuiTestSupport.h"

#include <QtTest>

using namespace specdec;
using namespace specdec::gui;

class TestCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void numbersAreReadAsTheCliReadsThem_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::addRow("k 1e300") << QStringList{QStringLiteral("-k"), QStringLiteral("1e300")}
                                 << QStringLiteral("--k expects a whole number, got '1e300'");
        QTest::addRow("k 4.7") << QStringList{QStringLiteral("-k"), QStringLiteral("4.7")}
                               << QStringLiteral("--k expects a whole number, got '4.7'");
        QTest::addRow("k beyond int") << QStringList{QStringLiteral("-k"), QStringLiteral("99999999999")}
                                      << QStringLiteral("--k is out of range: 99999999999");
        QTest::addRow("top-k 2.5") << QStringList{QStringLiteral("--top-k"), QStringLiteral("2.5")}
                                   << QStringLiteral("--top-k expects a whole number");
        QTest::addRow("seed -1") << QStringList{QStringLiteral("--seed"), QStringLiteral("-1")}
                                 << QStringLiteral(
                                        "--seed expects a whole number from 0 to 18446744073709551615, got '-1'");
        QTest::addRow("seed nan") << QStringList{QStringLiteral("--seed"), QStringLiteral("nan")}
                                  << QStringLiteral("got 'nan'");
        QTest::addRow("seed 2^64") << QStringList{QStringLiteral("--seed"), QStringLiteral("18446744073709551616")}
                                   << QStringLiteral("--seed expects");
        QTest::addRow("rounds abc") << QStringList{QStringLiteral("--rounds"), QStringLiteral("abc")}
                                    << QStringLiteral("--rounds expects a whole number, got 'abc'");
        QTest::addRow("card 0") << QStringList{QStringLiteral("--card"), QStringLiteral("0")}
                                << QStringLiteral("--card is out of range: 0");
        QTest::addRow("size 20000") << QStringList{QStringLiteral("--size"), QStringLiteral("20000x20000")}
                                    << QStringLiteral("sides from 1 to 8192");
        QTest::addRow("size junk") << QStringList{QStringLiteral("--size"), QStringLiteral("100x")}
                                   << QStringLiteral("got '100x'");
    }

    void numbersAreReadAsTheCliReadsThem()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const CommandLine cl = parseCommandLine(QStringList{QStringLiteral("specdec-lab")} + arguments,
                                                test::tinySetup());
        QVERIFY2(cl.error.contains(error), qPrintable(cl.error));
    }

    void validNumbersAreKept()
    {
        const CommandLine cl = parseCommandLine(
            {QStringLiteral("specdec-lab"), QStringLiteral("-k"), QStringLiteral("7"), QStringLiteral("--seed"),
             QStringLiteral("9007199254740993"), QStringLiteral("--rounds"), QStringLiteral("12"),
             QStringLiteral("--size"), QStringLiteral("8192x600")},
            test::tinySetup());
        QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
        QCOMPARE(cl.setup.decoding.draftLength, 7);
        QCOMPARE(cl.setup.decoding.seed, std::uint64_t{9007199254740993ULL}); // a double would give ...992
        QCOMPARE(cl.rounds, 12);
        QCOMPARE(cl.size, QSize(8192, 600));
    }

    // --tokenizer sets the setup's tokenizer (as specdec's), and without it the saved one stays.
    void tokenizerIsASetupOption()
    {
        const CommandLine cl = parseCommandLine(
            {QStringLiteral("specdec-lab"), QStringLiteral("--tokenizer"), QStringLiteral("/m/qwen3/tokenizer.json")},
            test::tinySetup());
        QVERIFY2(cl.error.isEmpty(), qPrintable(cl.error));
        QVERIFY(cl.setupGiven);
        QCOMPARE(cl.setup.tokenizer, std::string("/m/qwen3/tokenizer.json"));
        Setup saved = test::tinySetup();
        saved.tokenizer = "/m/gpt2/tokenizer.json";
        QCOMPARE(parseCommandLine({QStringLiteral("specdec-lab"), QStringLiteral("-k"), QStringLiteral("3")}, saved)
                     .setup.tokenizer,
                 saved.tokenizer);
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "test_gui_command_line.moc"
