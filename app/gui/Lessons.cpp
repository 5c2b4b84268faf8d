// SPDX-License-Identifier: GPL-3.0-or-later
#include "Lessons.h"

#include <QCoreApplication>

namespace specdec::gui {

namespace {

/// The translation context of every lesson text (lupdate reads LessonText::tr calls).
struct LessonText
{
    Q_DECLARE_TR_FUNCTIONS(specdec::gui::Lessons)
};

Setup base(const char *corpus, const char *target, const char *draft, const char *prompt, double temperature, int k)
{
    Setup s;
    s.corpus = corpus;
    s.target = target;
    s.draft = draft;
    s.prompt = prompt;
    s.tokens = 200;
    s.decoding.draftLength = k;
    s.decoding.target.temperature = temperature;
    s.decoding.draft.temperature = temperature;
    s.decoding.seed = 7;
    return s;
}

} // namespace

QString Lesson::html() const
{
    return QStringLiteral("<h3>%1</h3><p><b>%2</b> %3</p><p><b>%4</b> %5</p><p><b>%6</b> %7</p>")
        .arg(title.toHtmlEscaped(), LessonText::tr("Misconception:").toHtmlEscaped(), misconception.toHtmlEscaped(),
             LessonText::tr("What the run shows:").toHtmlEscaped(), answer.toHtmlEscaped(), LessonText::tr("Look at:").toHtmlEscaped(),
             lookAt.toHtmlEscaped());
}

QList<Lesson> allLessons()
{
    QList<Lesson> all;
    Lesson l;

    l = {};
    l.key = QStringLiteral("small-draft-quality");
    l.title = LessonText::tr("1. A small draft lowers quality");
    l.misconception = LessonText::tr("The output is a mix of the draft's and the target's text, so a weak draft makes it worse.");
    l.answer = LessonText::tr("Every token is either a draft token that passed the test min(1, p/q) or a draw from the "
                  "residual; together they are distributed exactly as p. In the lab the histogram converges to p; "
                  "in the arena, at T = 0, every draft writes the target's own text.");
    l.lookAt = LessonText::tr("the lab's p-value (stays large for the correct rule, collapses for a wrong one) and the ✓ badges "
                  "in the arena, with their different target-pass counts.");
    l.setup = base("kjv", "ngram:6", "ngram:2", "In the beginning ", 0.0, 4);
    l.arenaLanes = {QStringLiteral("ngram:2"), QStringLiteral("uniform"), QStringLiteral("lookup:3"),
                    QStringLiteral("same")};
    l.lab = true;
    all << l;

    l = {};
    l.key = QStringLiteral("smallest-draft-best");
    l.title = LessonText::tr("2. The smallest draft is always best");
    l.misconception = LessonText::tr("A cheaper draft always gives a bigger speedup.");
    l.answer = LessonText::tr("A unigram or uniform draft is cheap but rarely agrees with the target: α collapses, a round "
                  "yields little more than one token, and the cost-model speedup falls to about 1 (below 1 as soon "
                  "as a draft call costs more, see lesson 4), while a bigger trigram draft is accepted far more often.");
    l.lookAt = LessonText::tr("the α̂ and speedup columns of the arena's table: ngram:1 and uniform against ngram:3.");
    l.setup = base("kjv", "ngram:6", "ngram:1", "And God said, ", 1.0, 4);
    l.arenaLanes = {QStringLiteral("ngram:1"), QStringLiteral("uniform"), QStringLiteral("ngram:3")};
    all << l;

    l = {};
    l.key = QStringLiteral("same-architecture");
    l.title = LessonText::tr("3. The draft must have the target's architecture");
    l.misconception = LessonText::tr("Only a smaller copy of the target's network can be its draft.");
    l.answer = LessonText::tr("The rule needs only q, a distribution over the same vocabulary. An n-gram table and prompt "
                  "lookup (no model at all) draft for the neural target and are accepted often.");
    l.lookAt = LessonText::tr("the arena lanes ngram:3 and lookup:3 against the ONNX target, next to the small ONNX draft.");
    l.setup = base("kjv", "onnx:corpora/kjv/models/target.onnx", "ngram:3", "And the LORD said unto Moses, ", 0.0, 4);
    l.arenaLanes = {QStringLiteral("ngram:3"), QStringLiteral("lookup:3"),
                    QStringLiteral("onnx:corpora/kjv/models/draft-small.onnx")};
    all << l;

    l = {};
    l.key = QStringLiteral("speculation-free");
    l.title = LessonText::tr("4. Speculation is free");
    l.misconception = LessonText::tr("If most drafts are accepted, speculation always pays.");
    l.answer = LessonText::tr("Each round costs K draft calls plus one target pass. With a draft costing c = 0.8 of the "
                  "target, even α = 0.9 gives (1 − α^(K+1)) / ((1 − α)(Kc + 1)) < 1 at K = 8.");
    l.lookAt = LessonText::tr("the speedup curve against K in the theory explorer: it dips below the dashed line at 1; move c "
                  "down and watch the best K grow.");
    l.setup = base("kjv", "ngram:6", "ngram:5", "In the beginning ", 1.0, 8);
    l.theory = std::array<double, 3>{0.9, 8, 0.8};
    all << l;

    l = {};
    l.key = QStringLiteral("sampling-breaks");
    l.title = LessonText::tr("5. Sampling (T > 0) breaks it");
    l.misconception = LessonText::tr("Speculative decoding is only exact for greedy decoding.");
    l.answer = LessonText::tr("At T = 1 the dice and the residual keep the output distributed as p: still lossless, but the "
                  "draft and target agree less often than at T = 0, so α is lower.");
    l.lookAt = LessonText::tr("α̂ in the theory panel at T = 1, then set T = 0 in the setup bar; the lab (correct rule) at T = 1.");
    l.setup = base("tang-song", "ngram:4", "ngram:2", "", 1.0, 4);
    l.lab = true;
    all << l;

    l = {};
    l.key = QStringLiteral("classic-demo");
    l.title = LessonText::tr("Classic demo: bigram draft, trigram target, greedy, K = 6");
    l.misconception = LessonText::tr("Speculative text is an approximation of the target's.");
    l.answer = LessonText::tr("On the poem corpus, greedy: the text equals the target's own, character for character, written "
                  "with fewer target passes than tokens (every accepted draft token is a pass saved).");
    l.lookAt = LessonText::tr("the ✓ badge and the target passes of each lane; the tokens-per-round plot.");
    l.setup = base("tang-song", "ngram:3", "ngram:2", "", 0.0, 6);
    l.arenaLanes = {QStringLiteral("ngram:2"), QStringLiteral("same")};
    all << l;
    return all;
}

} // namespace specdec::gui
