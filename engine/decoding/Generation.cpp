// SPDX-License-Identifier: GPL-3.0-or-later
#include "Generation.h"

#include "AutoregressiveRun.h"
#include "Error.h"
#include "SpeculativeRun.h"

#include <algorithm>

namespace specdec {

Generation generateAutoregressive(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                  std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress, bool kvCache)
{
    if (tokens < 1)
        throw Error("the number of tokens to generate must be at least 1, got " + std::to_string(tokens));
    const std::size_t promptLength = prompt.size();
    AutoregressiveRun run(target, sampler, seed, std::move(prompt), kvCache);
    const CallStats before = target.stats();
    Generation result;
    while (run.generated() < tokens) {
        run.generate(1);
        if (target.endsText(run.sequence().back())) {
            result.endOfText = true;
            break;
        }
        if (progress && !progress(run.generated(), tokens))
            break;
    }
    result.tokens.assign(run.sequence().begin() + static_cast<std::ptrdiff_t>(promptLength), run.sequence().end());
    result.seconds = run.seconds();
    result.target = target.stats() - before;
    return result;
}

Generation generateSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> prompt, int tokens, const ProgressCallback &progress, bool baseline)
{
    SpeculativeRun run(target, draft, settings, std::move(prompt), tokens, baseline);
    Generation result;
    while (auto step = run.step()) {
        if (step->round.tree)
            result.treeRounds.push_back(*step->round.tree);
        else
            result.rounds.push_back(std::move(step->round.path));
        if (progress && !progress(run.generated(), tokens))
            break;
    }
    result.tokens.assign(run.text().begin(), run.text().end());
    result.endOfText = run.endedAtEndOfText();
    result.baselineTokens.assign(run.baselineText().begin(), run.baselineText().end());
    result.report = run.report();
    result.seconds = result.report.seconds;
    result.target = result.report.target;
    result.draft = result.report.draft;
    return result;
}

} // namespace specdec
