// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons and the quiz as data: the shipped files load (six lessons, the classic demo first; ten questions
// with the types and answers); a damaged file is one line naming the file and the field; every
// shipped lesson's claims hold when its setup runs through the engine, and a false claim is caught.
#include "Error.h"
#include "LessonClaims.h"
#include "LessonFile.h"
#include "QuizFile.h"
#include "TestSupport.h"
#include "Theory.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace specdec;
using namespace specdec::app;

namespace {

QString lessonsDir()
{
    return QStringLiteral(SPECDEC_SOURCE_DIR "/lessons");
}

QStringList shippedModels()
{
    QStringList files;
    QDirIterator it(QStringLiteral(SPECDEC_SOURCE_DIR "/corpora"), {QStringLiteral("*.onnx")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QFileInfo(it.next()).canonicalFilePath();
    return files;
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// The classic demo's file with `edit` applied, as bytes.
template<typename Edit> QByteArray editedLesson(Edit edit)
{
    QJsonObject o = readJson(lessonsDir() + QStringLiteral("/00-classic-demo.lesson.json"));
    edit(o);
    return QJsonDocument(o).toJson();
}

QString errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const Error &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestLessons : public QObject
{
    Q_OBJECT
private slots:
    void shippedLessonsLoad();
    void shippedQuizLoads();
    void badLessonNamesTheField_data();
    void badLessonNamesTheField();
    void badQuizNamesTheField();
    void sizeIsBounded();
    void claimsParse();
    void shippedClaimsHold_data();
    void shippedClaimsHold();
    void aFalseClaimIsCaught();
};

void TestLessons::shippedLessonsLoad()
{
    QStringList errors;
    const QList<LessonFile> lessons = loadLessonFolder(lessonsDir(), &errors);
    QCOMPARE(errors, QStringList());
    QCOMPARE(lessons.size(), 8);
    QCOMPARE(lessons.front().id, QStringLiteral("classic-demo")); // listed first, as the docs take it first
    for (const LessonFile &l : lessons) {
        QVERIFY(!l.title.text(QStringLiteral("en")).isEmpty());
        QVERIFY(!l.title.text(QStringLiteral("zh_CN")).isEmpty());
        QVERIFY(l.title.text(QStringLiteral("zh_CN")) != l.title.text(QStringLiteral("en")));
        QVERIFY(l.steps.size() >= 2);
        QVERIFY2(!l.claims.isEmpty(), qPrintable(l.id)); // every shipped lesson says something checkable
        QVERIFY(l.demo.setup.has_value());
        l.demo.setup->validate();
        QVERIFY(l.demo.opens("arena") || l.demo.lab || l.demo.theory);
    }
    const LessonFile &classic = lessons.front();
    QCOMPARE(classic.demo.setup->decoding.draftLength, 6);
    QVERIFY(classic.demo.setup->decoding.target.greedy());
    QCOMPARE(classic.demo.arenaLanes, (QStringList{QStringLiteral("ngram:2"), QStringLiteral("same")}));
    const LessonFile &four = lessons[4];
    QVERIFY(four.demo.theory.has_value());
    QCOMPARE(four.demo.theory->k, 8);
    const LessonFile &trees = lessons[6]; // the window plays trees; the arena puts a chain beside two trees
    QCOMPARE(trees.id, QStringLiteral("token-trees"));
    QCOMPARE(trees.demo.setup->decoding.tree, TreeShape::parse("3,2,1"));
    QVERIFY(trees.demo.arenaLanes.contains(QStringLiteral("ngram:2 tree:2,2,1")));
}

void TestLessons::shippedQuizLoads()
{
    const QuizFile quiz = QuizFile::load(lessonsDir() + QStringLiteral("/ten-questions.quiz.json"));
    QCOMPARE(quiz.questions.size(), 10);
    // (type, correct) of the ten questions, as the issue lists them.
    const QList<QPair<bool, QString>> expected{{false, QStringLiteral("A")}, {false, QStringLiteral("B")},
                                               {false, QStringLiteral("B")}, {false, QStringLiteral("B")},
                                               {false, QStringLiteral("A")}, {true, QStringLiteral("ABC")},
                                               {false, QStringLiteral("A")}, {true, QStringLiteral("AB")},
                                               {false, QStringLiteral("B")}, {true, QStringLiteral("AB")}};
    for (int i = 0; i < 10; ++i) {
        const QuizQuestion &q = quiz.questions[i];
        QCOMPARE(q.id, QStringLiteral("q%1").arg(i + 1));
        QCOMPARE(q.multiple, expected[i].first);
        QCOMPARE(q.correct, expected[i].second);
        QVERIFY(q.isCorrect(expected[i].second));
        QVERIFY(!q.isCorrect(QStringLiteral("D")));
        QVERIFY(q.options.size() >= 4);
        QVERIFY(!q.explanation.text(QStringLiteral("zh_CN")).isEmpty());
        QVERIFY(!q.showMe.open.isEmpty()); // every question has a demonstration
        if (q.showMe.opens("window") || q.showMe.opens("arena"))
            QVERIFY(q.showMe.setup.has_value());
    }
    QVERIFY(quiz.questions[5].isCorrect(QStringLiteral("CAB")));
    QVERIFY(!quiz.questions[5].isCorrect(QStringLiteral("AB")));
    // Q9: the theory explorer at α = 0.8, K = 4 beside a run; Q7: the lab with q(x) > p(x) for the first bar.
    const QuizQuestion &q9 = quiz.questions[8];
    QVERIFY(q9.showMe.opens("theory") && q9.showMe.opens("window"));
    QCOMPARE(q9.showMe.theory->alpha, 0.8);
    QCOMPARE(q9.showMe.theory->k, 4);
    const QuizQuestion &q7 = quiz.questions[6];
    QVERIFY(q7.showMe.lab.has_value());
    QVERIFY(q7.showMe.lab->q[0] > q7.showMe.lab->p[0]);
}

void TestLessons::badLessonNamesTheField_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("field");
    QTest::addRow("not json") << QByteArray("{\"format\": ") << QStringLiteral("not valid JSON at byte offset");
    QTest::addRow("array") << QByteArray("[]") << QStringLiteral("must hold a JSON object");
    QTest::addRow("format") << editedLesson([](QJsonObject &o) { o[QStringLiteral("format")] = QStringLiteral("x"); })
                            << QStringLiteral("'format'");
    QTest::addRow("version") << editedLesson([](QJsonObject &o) { o[QStringLiteral("version")] = 7; })
                             << QStringLiteral("'version' 7 is not supported");
    QTest::addRow("typo") << editedLesson([](QJsonObject &o) { o[QStringLiteral("stepz")] = 1; })
                          << QStringLiteral("'stepz' is not a known field");
    QTest::addRow("k") << editedLesson([](QJsonObject &o) {
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        QJsonObject setup = demo[QStringLiteral("setup")].toObject();
        setup[QStringLiteral("k")] = 99;
        demo[QStringLiteral("setup")] = setup;
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.setup.k' must be from 1 to 64, got 99");
    QTest::addRow("temperature") << editedLesson([](QJsonObject &o) {
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        QJsonObject setup = demo[QStringLiteral("setup")].toObject();
        setup[QStringLiteral("temperature")] = QStringLiteral("hot");
        demo[QStringLiteral("setup")] = setup;
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.setup.temperature' must be a number");
    QTest::addRow("target spec") << editedLesson([](QJsonObject &o) {
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        QJsonObject setup = demo[QStringLiteral("setup")].toObject();
        setup[QStringLiteral("target")] = QStringLiteral("gpt:5");
        demo[QStringLiteral("setup")] = setup;
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.setup.target'");
    QTest::addRow("tool") << editedLesson([](QJsonObject &o) {
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        demo[QStringLiteral("open")] = QJsonArray{QStringLiteral("window"), QStringLiteral("oven")};
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.open[1]' must be one of window, arena, lab, theory");
    QTest::addRow("chinese missing") << editedLesson([](QJsonObject &o) {
        QJsonArray steps = o[QStringLiteral("steps")].toArray();
        steps[2] = QJsonObject{{QStringLiteral("en"), QStringLiteral("only English")}};
        o[QStringLiteral("steps")] = steps;
    }) << QStringLiteral("'steps[2].zh_CN' is missing or empty");
    QTest::addRow("lab overflow") << editedLesson([](QJsonObject &o) { // issue 22: showed 0.00 / 0.00
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        demo[QStringLiteral("lab")] = QJsonObject{
            {QStringLiteral("p"), QJsonArray{1e308, 1e308}},
            {QStringLiteral("q"), QJsonArray{1, 1}},
            {QStringLiteral("labels"), QJsonArray{QStringLiteral("a"), QStringLiteral("b")}}};
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.lab.p' must sum to a finite number");
    QTest::addRow("phase") << editedLesson([](QJsonObject &o) {
        QJsonObject demo = o[QStringLiteral("demo")].toObject();
        demo[QStringLiteral("phase")] = QStringLiteral("dessert");
        o[QStringLiteral("demo")] = demo;
    }) << QStringLiteral("'demo.phase' must be one of draft");
    QTest::addRow("claim syntax") << editedLesson([](QJsonObject &o) {
        o[QStringLiteral("claims")] = QJsonArray{QStringLiteral("alpha(ngram:2) is big")};
    }) << QStringLiteral("'claims[0]' claim \"alpha(ngram:2) is big\": needs one comparison");
    QTest::addRow("claim lane") << editedLesson([](QJsonObject &o) {
        o[QStringLiteral("claims")] = QJsonArray{QStringLiteral("same_text(ngram:2) >= 1"),
                                                 QStringLiteral("alpha(ngram:9) > 0.5")};
    }) << QStringLiteral("'claims[1]' names lane 'ngram:9', which is not one of the lesson's drafts (ngram:2, ngram:2, same)");
}

void TestLessons::badLessonNamesTheField()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, field);
    const QString error = errorOf([&] { LessonFile::parse(bytes, QStringLiteral("mine.lesson.json")); });
    QVERIFY2(error.startsWith(QStringLiteral("lesson file mine.lesson.json: ")), qPrintable(error));
    QVERIFY2(error.contains(field), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n'))); // one line
}

void TestLessons::badQuizNamesTheField()
{
    QJsonObject o = readJson(lessonsDir() + QStringLiteral("/ten-questions.quiz.json"));
    QJsonArray questions = o[QStringLiteral("questions")].toArray();
    QJsonObject q1 = questions[0].toObject();
    q1[QStringLiteral("correct")] = QJsonArray{QStringLiteral("A"), QStringLiteral("B")};
    questions[0] = q1;
    o[QStringLiteral("questions")] = questions;
    QString error = errorOf([&] { QuizFile::parse(QJsonDocument(o).toJson(), QStringLiteral("q.json")); });
    QVERIFY2(error.contains(QStringLiteral("'questions[0].correct' must name exactly one option")), qPrintable(error));
    q1[QStringLiteral("correct")] = QJsonArray{QStringLiteral("E")};
    questions[0] = q1;
    o[QStringLiteral("questions")] = questions;
    error = errorOf([&] { QuizFile::parse(QJsonDocument(o).toJson(), QStringLiteral("q.json")); });
    QVERIFY2(error.contains(QStringLiteral("'questions[0].correct' 'E' is not an option letter (A to D)")),
             qPrintable(error));
    QJsonObject q7 = questions[6].toObject();
    QJsonObject show = q7[QStringLiteral("show_me")].toObject();
    QJsonObject lab = show[QStringLiteral("lab")].toObject();
    lab[QStringLiteral("labels")] = QJsonArray{QStringLiteral("x"), QStringLiteral("y")};
    show[QStringLiteral("lab")] = lab;
    q7[QStringLiteral("show_me")] = show;
    questions[0] = questions[1]; // also a duplicate id, reported after the lab error of question 6
    questions[6] = q7;
    o[QStringLiteral("questions")] = questions;
    error = errorOf([&] { QuizFile::parse(QJsonDocument(o).toJson(), QStringLiteral("q.json")); });
    QVERIFY2(error.contains(QStringLiteral("'questions[1].id' 'q2' is used twice")), qPrintable(error));
}

void TestLessons::sizeIsBounded()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("huge.lesson.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(LessonFile::kMaxBytes + 1, ' '));
    f.close();
    QVERIFY(errorOf([&] { LessonFile::load(path); }).contains(QStringLiteral("at most 262144 are read")));
    QVERIFY(errorOf([&] {
                LessonFile::load(dir.filePath(QStringLiteral("none.json")));
            }).contains(QStringLiteral("does not exist")));
    // A folder with one bad file still gives the good ones, and the bad one's line.
    QVERIFY(QFile::copy(lessonsDir() + QStringLiteral("/00-classic-demo.lesson.json"),
                        dir.filePath(QStringLiteral("a.lesson.json"))));
    QStringList errors;
    QCOMPARE(loadLessonFolder(dir.path(), &errors).size(), 1);
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors[0].contains(QStringLiteral("huge.lesson.json")));
}

void TestLessons::claimsParse()
{
    const Claim c = Claim::parse(QStringLiteral("alpha(draft-small) > alpha(ngram:3)"));
    QCOMPARE(c.left.kind, ClaimTerm::Kind::Metric);
    QCOMPARE(c.left.lane, QStringLiteral("draft-small"));
    QCOMPARE(c.op, QStringLiteral(">"));
    QCOMPARE(c.right.lane, QStringLiteral("ngram:3"));
    QVERIFY(c.holds(0.8, 0.6) && !c.holds(0.6, 0.6));
    QVERIFY(errorOf([] { Claim::parse(QStringLiteral("x <= 2")); }).contains(QStringLiteral("'x' is neither a number")));
    QVERIFY(errorOf([] {
                Claim::parse(QStringLiteral("beta(ngram:2) > 1"));
            }).contains(QStringLiteral("unknown function 'beta'")));
    QVERIFY(errorOf([] {
                Claim::parse(QStringLiteral("cost_speedup(0.9, 8) > 1"));
            }).contains(QStringLiteral("takes 3 numbers")));
    QVERIFY(errorOf([] {
                Claim::parse(QStringLiteral("generalised_speedup(0.9, 8, 0.1) > 1"));
            }).contains(QStringLiteral("takes 4 numbers")));
    QCOMPARE(laneNamed(QStringLiteral("draft-small"),
                       {QStringLiteral("ngram:3"), QStringLiteral("onnx:/a/b/draft-small.onnx")}),
             QStringLiteral("onnx:/a/b/draft-small.onnx"));
    QCOMPARE(laneNamed(QStringLiteral("draft"), {QStringLiteral("onnx:/a/b/draft-small.onnx")}), QString());
    // Theory claims are evaluated without a run.
    LessonFile lesson;
    lesson.path = QStringLiteral("t.json");
    lesson.claims = {QStringLiteral("expected_tokens(0.8, 4) > 3.35"), QStringLiteral("expected_tokens(0.8, 4) < 3.37"),
                     QStringLiteral("cost_speedup(0.9, 8, 0.8) >= 1"),
                     // a verification of 5 positions costing 2 steps: 3.36 / (2 + 4 · 0.05) = 1.53, not Thm 3.8's
                     // 3.36 / (1 + 4 · 0.05) = 2.80
                     QStringLiteral("generalised_speedup(0.8, 4, 0.05, 2) < 1.6"),
                     QStringLiteral("generalised_speedup(0.8, 4, 0.05, 1) >= cost_speedup(0.8, 4, 0.05)")};
    const auto results = checkClaims(lesson, test::builtCorpora(), {});
    QCOMPARE(results.size(), 5);
    QVERIFY(results[0].holds && results[1].holds);
    QVERIFY(!results[2].holds); // "speculation is free" is false at c = 0.8
    QVERIFY(results[3].holds);
    QCOMPARE(results[3].left, theory::generalisedSpeedup(0.8, 4, 0.05, 2.0));
    QVERIFY(results[4].holds);
    QCOMPARE(results[4].left, results[4].right); // V = 1 is Theorem 3.8
}

void TestLessons::shippedClaimsHold_data()
{
    QTest::addColumn<QString>("path");
    QStringList errors;
    for (const LessonFile &l : loadLessonFolder(lessonsDir(), &errors))
        QTest::addRow("%s", qPrintable(l.id)) << l.path;
}

void TestLessons::shippedClaimsHold()
{
    QFETCH(QString, path);
    const LessonFile lesson = LessonFile::load(path);
    QList<ClaimResult> results;
    try {
        results = checkClaims(lesson, test::builtCorpora(), shippedModels());
    } catch (const Error &e) {
#ifdef SPECDEC_NO_ONNX_EXECUTOR
        if (QByteArray(e.what()).contains("this build has no ONNX executor"))
            QSKIP("the lesson's setup loads an ONNX model, and this build has no ONNX executor");
#endif
        QFAIL(e.what());
    }
    QCOMPARE(results.size(), lesson.claims.size());
    for (const ClaimResult &r : results)
        QVERIFY2(
            r.holds,
            qPrintable(QStringLiteral("%1: %2 (left %3, right %4)").arg(lesson.id, r.claim).arg(r.left).arg(r.right)));
}

void TestLessons::aFalseClaimIsCaught()
{
    // Lesson 2 with claims its run contradicts (as lesson 3's old text did: "all drafts reach about 80-90 %").
    LessonFile lesson = LessonFile::load(lessonsDir() + QStringLiteral("/02-smallest-draft-best.lesson.json"));
    lesson.claims = {QStringLiteral("alpha(ngram:3) > 0.8"), QStringLiteral("alpha(uniform) > alpha(ngram:3)"),
                     QStringLiteral("alpha(ngram:3) > 0.3")};
    const auto results = checkClaims(lesson, test::builtCorpora(), shippedModels());
    QCOMPARE(results.size(), 3);
    QVERIFY(!results[0].holds);
    QVERIFY(!results[1].holds);
    QVERIFY(results[2].holds);
    QVERIFY(results[0].left > 0.3 && results[0].left < 0.8);
}

QTEST_GUILESS_MAIN(TestLessons)
#include "test_lessons.moc"
