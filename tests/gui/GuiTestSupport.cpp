// SPDX-License-Identifier: GPL-3.0-or-later
#include "GuiTestSupport.h"

#include "AutoregressiveRun.h"

#include "../TestSupport.h"

#include "Metrics.h"
#include "SpeculativeDecoder.h"
#include "Utf8.h"

#include <QAction>
#include <QWidget>

#include <algorithm>

namespace specdec::test {

PlayedRounds playRounds(const std::string &target, const std::string &draft, double temperature, int rounds,
                        std::uint64_t seed, const std::string &prompt)
{
    static const Corpus corpus = tinyEnglish();
    auto targetModel = buildModel(ModelSpec::parse(target), corpus).model;
    auto draftModel = buildModel(ModelSpec::parse(draft), corpus, &targetModel->tokenizer(), targetModel.get()).model;
    DecodingSettings settings;
    settings.target.temperature = temperature;
    settings.draft.temperature = temperature;
    settings.seed = seed;
    settings.recordDistributions = true;
    SpeculativeDecoder decoder(*targetModel, *draftModel, settings);

    PlayedRounds played;
    played.info.vocabulary = std::make_shared<const Tokenizer>(targetModel->tokenizer());
    played.info.prompt = targetModel->tokenizer().encode(decodeUtf8(prompt, "prompt"));
    played.info.draftLength = settings.draftLength;
    played.info.greedy = temperature == 0.0;
    std::vector<TokenId> sequence = played.info.prompt;
    std::vector<RoundTrace> traces;
    // the baseline alongside, as SessionRun plays it: c = T_draft(1) / T_target(1) needs its steps (Metrics.h)
    AutoregressiveRun baseline(*targetModel, settings.target, settings.seed, sequence);
    double seconds = 0.0, baselineSeconds = 0.0;
    for (int i = 0; i < rounds; ++i) {
        gui::RoundRecord r;
        r.trace = decoder.round(sequence, settings.draftLength);
        r.seconds = r.trace.targetSeconds + r.trace.draftSeconds;
        r.baselineSeconds = baseline.generate(static_cast<int>(r.trace.committed.size()));
        seconds += r.seconds;
        baselineSeconds += r.baselineSeconds;
        r.round = computeMetrics({r.trace}, r.seconds, r.baselineSeconds);
        traces.push_back(r.trace);
        r.cumulative = computeMetrics(traces, seconds, baselineSeconds);
        played.records.push_back(std::make_shared<const gui::RoundRecord>(std::move(r)));
    }
    played.history = historyOf(played, rounds);
    return played;
}

Setup tinySetup()
{
    Setup s;
    s.corpus = dataPath("tiny-en.txt");
    s.target = "ngram:4";
    s.draft = "ngram:2";
    s.prompt = "the ";
    return s;
}

std::shared_ptr<gui::RoundHistory> historyOf(const PlayedRounds &played, int count)
{
    auto history = std::make_shared<gui::RoundHistory>(std::max(1, count));
    history->append({played.records.begin(), played.records.begin() + count});
    return history;
}

int findRound(const PlayedRounds &played, bool rejected)
{
    for (std::size_t i = 0; i < played.records.size(); ++i)
        if ((played.records[i]->trace.rejectedAt >= 0) == rejected)
            return static_cast<int>(i);
    return -1;
}

bool press(QWidget *window, const QKeySequence &key)
{
    QList<QAction *> bound;
    for (QAction *a : window->findChildren<QAction *>())
        if (a->shortcut() == key && a->isEnabled())
            bound << a;
    if (bound.size() != 1)
        return false;
    bound.front()->trigger();
    return true;
}

int marks(const QString &row)
{
    return static_cast<int>(row.count(QChar(0x2713)) + row.count(QChar(0x2717))); // ✓ ✗
}

bool allZero(const QVector<double> &values)
{
    return std::all_of(values.begin(), values.end(), [](double v) { return v == 0.0; });
}

} // namespace specdec::test
