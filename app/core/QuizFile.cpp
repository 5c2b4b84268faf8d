// SPDX-License-Identifier: GPL-3.0-or-later
#include "QuizFile.h"

#include <algorithm>

namespace specdec::app {

namespace {

const QString kFormat = QStringLiteral("specdec-lab quiz");

QuizQuestion parseQuestion(const JsonFields &f, const QJsonValue &v, const QString &at)
{
    if (!v.isObject())
        f.fail(at, QStringLiteral("must be an object"));
    const QJsonObject o = v.toObject();
    f.onlyKeys(o, at,
               {QStringLiteral("id"), QStringLiteral("type"), QStringLiteral("text"), QStringLiteral("options"),
                QStringLiteral("correct"), QStringLiteral("explanation"), QStringLiteral("show_me")});
    QuizQuestion q;
    q.id = f.string(o, at, "id");
    const QString type = f.string(o, at, "type");
    if (type != QLatin1String("single") && type != QLatin1String("multiple"))
        f.fail(JsonFields::join(at, QStringLiteral("type")),
               QStringLiteral("must be \"single\" or \"multiple\", got '%1'").arg(type));
    q.multiple = type == QLatin1String("multiple");
    q.text = f.localized(o, at, "text");
    const QJsonArray options = f.array(o, at, "options", 2, 8);
    for (int i = 0; i < options.size(); ++i)
        q.options << f.localized(options[i], QStringLiteral("%1.options[%2]").arg(at).arg(i));
    const QString correctAt = JsonFields::join(at, QStringLiteral("correct"));
    const QStringList correct = f.strings(o, at, "correct", 1, static_cast<int>(options.size()));
    for (const QString &letter : correct) {
        const int index = letter.size() == 1 ? letter[0].unicode() - u'A' : -1;
        if (index < 0 || index >= options.size())
            f.fail(correctAt,
                   QStringLiteral("'%1' is not an option letter (A to %2)")
                       .arg(letter, QuizQuestion::letter(static_cast<int>(options.size()) - 1)));
        if (q.correct.contains(letter))
            f.fail(correctAt, QStringLiteral("names '%1' twice").arg(letter));
        q.correct += letter;
    }
    if (!q.multiple && q.correct.size() != 1)
        f.fail(correctAt, QStringLiteral("must name exactly one option for a single-choice question"));
    std::sort(q.correct.begin(), q.correct.end());
    q.explanation = f.localized(o, at, "explanation");
    const QString showAt = JsonFields::join(at, QStringLiteral("show_me"));
    QJsonObject show = f.object(o, at, "show_me");
    q.showMeCaption = f.localized(show, showAt, "caption");
    show.remove(QStringLiteral("caption"));
    q.showMe = parseDemonstration(f, show, showAt);
    return q;
}

QuizFile fromObject(const JsonFields &f, const QJsonObject &root, const QString &path)
{
    f.onlyKeys(
        root, {},
        {QStringLiteral("format"), QStringLiteral("version"), QStringLiteral("title"), QStringLiteral("questions")});
    if (f.string(root, {}, "format") != kFormat)
        f.fail(QStringLiteral("format"), QStringLiteral("must be \"%1\"").arg(kFormat));
    const int version = f.integer(root, {}, "version", 0, 1000);
    if (version != QuizFile::kVersion)
        f.fail(QStringLiteral("version"),
               QStringLiteral("%1 is not supported (this build reads version %2)").arg(version).arg(QuizFile::kVersion));
    QuizFile quiz;
    quiz.path = path;
    quiz.title = f.localized(root, {}, "title");
    const QJsonArray questions = f.array(root, {}, "questions", 1, 100);
    for (int i = 0; i < questions.size(); ++i) {
        quiz.questions << parseQuestion(f, questions[i], QStringLiteral("questions[%1]").arg(i));
        for (int j = 0; j < i; ++j)
            if (quiz.questions[j].id == quiz.questions.back().id)
                f.fail(QStringLiteral("questions[%1].id").arg(i),
                       QStringLiteral("'%1' is used twice").arg(quiz.questions.back().id));
    }
    return quiz;
}

} // namespace

bool QuizQuestion::isCorrect(const QString &chosen) const
{
    QString sorted = chosen;
    std::sort(sorted.begin(), sorted.end());
    return sorted == correct;
}

QuizFile QuizFile::load(const QString &path)
{
    const JsonFields f(QStringLiteral("quiz file"), path);
    return fromObject(f, f.readFile(path, kMaxBytes), path);
}

QuizFile QuizFile::parse(const QByteArray &bytes, const QString &name)
{
    const JsonFields f(QStringLiteral("quiz file"), name);
    if (bytes.size() > kMaxBytes)
        f.fail({}, QStringLiteral("is %1 bytes; at most %2 are read").arg(bytes.size()).arg(kMaxBytes));
    return fromObject(f, f.parse(bytes), name);
}

} // namespace specdec::app
