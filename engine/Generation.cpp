// SPDX-License-Identifier: GPL-3.0-or-later
#include "Generation.h"

#include "DecodingState.h"
#include "Error.h"
#include "Random.h"
#include "TreeDecoder.h"

#include <chrono>

namespace specdec {

namespace {

void requireTokenCount(int tokens)
{
    if (tokens < 1)
        throw Error("the number of tokens to generate must be at least 1, got " + std::to_string(tokens));
}

CallStats difference(const CallStats &after, const CallStats &before)
{
    return {after.calls - before.calls, after.positions - before.positions, after.seconds - before.seconds};
}


/// Plays rounds of `decoder` until `tokens` are committed (or `progress` says stop), keeping each round's
/// trace in `rounds`: the one loop of the chain and the tree decoders.
template <typename Decoder, typename Rounds>
Generation playRounds(Decoder &decoder, Rounds Generation::*rounds, LanguageModel &target, LanguageModel &draft,
                      std::vector<TokenId> sequence, int tokens, std::size_t slack, const ProgressCallback &progress)
{
    Generation result;
    result.tokens.reserve(static_cast<std::size_t>(tokens) + slack);
    const CallStats targetBefore = target.stats();
    const CallStats draftBefore = draft.stats();
    double teaching = 0.0; // what only a teaching run computes (RoundTrace::teachingSeconds): not timed
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(result.tokens.size()) < tokens) {
        const int wanted = tokens - static_cast<int>(result.tokens.size());
        (result.*rounds).push_back(decoder.round(sequence, wanted));
        teaching += (result.*rounds).back().teachingSeconds;
        const auto &committed = (result.*rounds).back().committed;
        result.tokens.insert(result.tokens.end(), committed.begin(), committed.end());
        if (progress && !progress(std::min<int>(static_cast<int>(result.tokens.size()), tokens), tokens))
            break;
    }
    if (static_cast<int>(result.tokens.size()) > tokens)
        result.tokens.resize(static_cast<std::size_t>(tokens));
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - teaching;
    result.target = difference(target.stats(), targetBefore);
    result.draft = difference(draft.stats(), draftBefore);
    return result;
}

} // namespace

Generation generateAutoregressive(LanguageModel &target, const SamplerSettings &sampler, std::uint64_t seed,
                                  std::vector<TokenId> sequence, int tokens, const ProgressCallback &progress,
                                  bool kvCache)
{
    requireTokenCount(tokens);
    sampler.validate();
    const std::unique_ptr<DecodingState> state = target.newState(kvCache);
    Rng rng(seed);
    Generation result;
    result.tokens.reserve(static_cast<std::size_t>(tokens));
    const CallStats before = target.stats();
    DistributionMatrix row;
    const auto start = std::chrono::steady_clock::now();
    while (static_cast<int>(result.tokens.size()) < tokens) {
        state->extend(std::span<const TokenId>(sequence).subspan(static_cast<std::size_t>(state->length())), 1, row);
        auto p = row.row(0).transpose();
        applySampler(sampler, p);
        const TokenId next = sampler.greedy() ? argmax(p) : rng.categorical(p);
        sequence.push_back(next);
        result.tokens.push_back(next);
        if (progress && !progress(static_cast<int>(result.tokens.size()), tokens))
            break;
    }
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.target = difference(target.stats(), before);
    return result;
}

Generation generateSpeculative(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                               std::vector<TokenId> sequence, int tokens, const ProgressCallback &progress)
{
    requireTokenCount(tokens);
    if (!settings.tree.empty())
        return generateTree(target, draft, settings, std::move(sequence), tokens, progress);
    SpeculativeDecoder decoder(target, draft, settings);
    return playRounds(decoder, &Generation::rounds, target, draft, std::move(sequence), tokens,
                      static_cast<std::size_t>(settings.draftLength), progress);
}

Generation generateTree(LanguageModel &target, LanguageModel &draft, const DecodingSettings &settings,
                        std::vector<TokenId> sequence, int tokens, const ProgressCallback &progress)
{
    requireTokenCount(tokens);
    TreeDecoder decoder(target, draft, settings);
    return playRounds(decoder, &Generation::treeRounds, target, draft, std::move(sequence), tokens,
                      static_cast<std::size_t>(settings.tree.depth()) + 1, progress);
}

} // namespace specdec
