// SPDX-License-Identifier: GPL-3.0-or-later
#include "Continuations.h"

#include "Error.h"
#include "Generation.h"

namespace specdec {

std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t index)
{
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

void enumerate(LanguageModel &target, const SamplerSettings &sampler, std::vector<TokenId> &sequence,
               std::vector<TokenId> &continuation, double probability, int length,
               std::map<std::vector<TokenId>, double> &out)
{
    if (static_cast<int>(continuation.size()) == length) {
        out.emplace(continuation, probability);
        return;
    }
    DistributionMatrix row;
    target.distributions(sequence, 1, row);
    Eigen::VectorXd p = row.row(0).transpose();
    applySampler(sampler, p);
    for (Eigen::Index x = 0; x < p.size(); ++x) {
        if (p[x] <= 0.0)
            continue;
        sequence.push_back(static_cast<TokenId>(x));
        continuation.push_back(static_cast<TokenId>(x));
        enumerate(target, sampler, sequence, continuation, probability * p[x], length, out);
        continuation.pop_back();
        sequence.pop_back();
    }
}

} // namespace

std::map<std::vector<TokenId>, double> exactContinuations(LanguageModel &target, const SamplerSettings &sampler,
                                                          const std::vector<TokenId> &prompt, int length)
{
    if (length < 1 || length > 4)
        throw Error("exact continuations are enumerated for 1 to 4 tokens, got " + std::to_string(length));
    std::map<std::vector<TokenId>, double> out;
    std::vector<TokenId> sequence = prompt;
    std::vector<TokenId> continuation;
    enumerate(target, sampler, sequence, continuation, 1.0, length, out);
    return out;
}

std::map<std::vector<TokenId>, std::int64_t> sampleContinuations(LanguageModel &target, LanguageModel *draft,
                                                                 const DecodingSettings &settings, DecodingMode mode,
                                                                 const std::vector<TokenId> &prompt, int length,
                                                                 std::int64_t samples)
{
    if (samples < 1)
        throw Error("the number of samples must be at least 1, got " + std::to_string(samples));
    if (mode == DecodingMode::Speculative && !draft)
        throw Error("speculative sampling needs a draft model");
    std::map<std::vector<TokenId>, std::int64_t> counts;
    DecodingSettings s = settings;
    for (std::int64_t i = 0; i < samples; ++i) {
        s.seed = deriveSeed(settings.seed, static_cast<std::uint64_t>(i));
        const Generation g = mode == DecodingMode::Speculative
            ? generateSpeculative(target, *draft, s, prompt, length)
            : generateAutoregressive(target, s.target, s.seed, prompt, length);
        ++counts[g.tokens];
    }
    return counts;
}

ContinuationFit fitContinuations(const std::map<std::vector<TokenId>, double> &exact,
                                 const std::map<std::vector<TokenId>, std::int64_t> &counts)
{
    std::vector<std::int64_t> observed;
    std::vector<double> probabilities;
    for (const auto &[continuation, probability] : exact) {
        const auto it = counts.find(continuation);
        observed.push_back(it == counts.end() ? 0 : it->second);
        probabilities.push_back(probability);
    }
    std::int64_t impossible = 0;
    for (const auto &[continuation, count] : counts)
        impossible += exact.count(continuation) ? 0 : count;
    observed.push_back(impossible);
    probabilities.push_back(0.0);
    return {chiSquareTest(observed, probabilities), empiricalTotalVariation(observed, probabilities)};
}

} // namespace specdec
