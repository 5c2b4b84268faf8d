// SPDX-License-Identifier: GPL-3.0-or-later
#include "DecodingState.h"

#include "Error.h"

#include <algorithm>
#include <chrono>

namespace specdec {

DecodingState::DecodingState(LanguageModel &model, LanguageModel &counter)
    : m_model(model)
    , m_counter(counter)
{
}

DecodingState::~DecodingState() = default;

void DecodingState::extend(std::span<const TokenId> tokens, int m, DistributionMatrix &out)
{
    dropBranches();
    const int before = length();
    const int after = before + static_cast<int>(tokens.size());
    if (m < 1 || m > after + 1)
        throw Error("model asked for " + std::to_string(m) + " positions of a sequence of " + std::to_string(after)
                    + " tokens");
    const int V = m_model.tokenizer().size();
    for (TokenId t : tokens)
        if (t < 0 || t >= V)
            throw Error(m_model.describe() + ": token id " + std::to_string(t) + " is outside the vocabulary of "
                        + std::to_string(V));
    m_tokens.insert(m_tokens.end(), tokens.begin(), tokens.end());
    const auto start = std::chrono::steady_clock::now();
    out.resize(m, V);
    m_extraRuns = 0;
    try {
        compute(static_cast<int>(tokens.size()), m, out);
    } catch (...) {
        m_tokens.resize(static_cast<std::size_t>(before));
        discardFrom(before);
        throw;
    }
    const auto stop = std::chrono::steady_clock::now();
    CallStats &stats = m_counter.m_stats;
    stats.calls += 1 + m_extraRuns;
    m_extraRuns = 0;
    stats.positions += m;
    stats.seconds += std::chrono::duration<double>(stop - start).count();
}

void DecodingState::compute(int added, int m, DistributionMatrix &out)
{
    m_stats.fed += added;
    m_model.compute(m_tokens, m, out);
}

int DecodingState::discardFrom(int length)
{
    return std::max(0, this->length() - length);
}

int DecodingState::truncate(int length)
{
    if (length < 0)
        throw Error("a decoding state cannot be truncated to " + std::to_string(length) + " tokens");
    dropBranches();
    if (length >= this->length())
        return 0;
    const int discarded = discardFrom(length);
    m_tokens.resize(static_cast<std::size_t>(length));
    m_stats.discarded += discarded;
    return discarded;
}

int DecodingState::syncTo(std::span<const TokenId> sequence)
{
    const auto limit = std::min(m_tokens.size(), sequence.size());
    std::size_t common = 0;
    while (common < limit && m_tokens[common] == sequence[common])
        ++common;
    return truncate(static_cast<int>(common));
}

int DecodingState::followTo(std::span<const TokenId> sequence)
{
    const std::size_t limit = std::min(m_tokens.size(), sequence.size());
    const std::size_t from = limit - std::min(limit, kFollowChecked);
    if (std::equal(m_tokens.begin() + static_cast<std::ptrdiff_t>(from),
                   m_tokens.begin() + static_cast<std::ptrdiff_t>(limit),
                   sequence.begin() + static_cast<std::ptrdiff_t>(from)))
        return truncate(static_cast<int>(limit));
    return syncTo(sequence);
}

void DecodingState::extendBranches(std::span<const TokenId> shared, std::span<const std::vector<TokenId>> branches,
                                   int m, std::vector<DistributionMatrix> &out)
{
    if (branches.empty())
        throw Error("a branched extension needs at least one branch");
    const std::size_t n = branches[0].size();
    for (const std::vector<TokenId> &branch : branches)
        if (branch.size() != n)
            throw Error("the branches of one extension must have one length, got " + std::to_string(n) + " and "
                        + std::to_string(branch.size()) + " tokens");
    if (m < 1 || static_cast<std::size_t>(m) > n + 1)
        throw Error("a branched extension asked for " + std::to_string(m) + " rows of branches of " + std::to_string(n)
                    + " tokens");
    const int V = m_model.tokenizer().size();
    auto checkToken = [&](TokenId t) {
        if (t < 0 || t >= V)
            throw Error(m_model.describe() + ": token id " + std::to_string(t) + " is outside the vocabulary of "
                        + std::to_string(V));
    };
    for (TokenId t : shared)
        checkToken(t);
    for (const std::vector<TokenId> &branch : branches)
        for (TokenId t : branch)
            checkToken(t);
    // Do the branches continue the rows kept by the last call (a tree's next depth)?
    std::vector<int> parents;
    const std::size_t reused = m_branches.empty() ? 0 : m_branches[0].size();
    if (!m_branches.empty() && shared.empty() && n > reused) {
        for (const std::vector<TokenId> &branch : branches) {
            const auto row = std::find_if(m_branches.begin(), m_branches.end(), [&](const std::vector<TokenId> &kept) {
                return std::equal(kept.begin(), kept.end(), branch.begin());
            });
            if (row == m_branches.end()) {
                parents.clear();
                break;
            }
            parents.push_back(static_cast<int>(row - m_branches.begin()));
        }
    }
    if (parents.empty()) {
        dropBranches();
    } else { // rows no branch continues are thrown away
        std::vector<bool> used(m_branches.size(), false);
        for (int parent : parents)
            used[static_cast<std::size_t>(parent)] = true;
        m_stats.discarded += static_cast<std::int64_t>(std::count(used.begin(), used.end(), false))
            * static_cast<std::int64_t>(reused);
    }
    const int before = length();
    m_tokens.insert(m_tokens.end(), shared.begin(), shared.end());
    const auto start = std::chrono::steady_clock::now();
    out.resize(branches.size());
    for (DistributionMatrix &rows : out)
        rows.resize(m, V);
    m_extraRuns = 0;
    try {
        computeBranches(static_cast<int>(shared.size()), branches, parents,
                        parents.empty() ? 0 : static_cast<int>(reused), m, out);
    } catch (...) {
        m_branches.clear();
        dropBranchEntries();
        m_tokens.resize(static_cast<std::size_t>(before));
        discardFrom(before);
        throw;
    }
    m_branches.assign(branches.begin(), branches.end());
    const auto stop = std::chrono::steady_clock::now();
    CallStats &stats = m_counter.m_stats;
    stats.calls += 1 + m_extraRuns;
    m_extraRuns = 0;
    stats.positions += static_cast<std::int64_t>(branches.size()) * m;
    stats.seconds += std::chrono::duration<double>(stop - start).count();
}

void DecodingState::computeBranches(int sharedAdded, std::span<const std::vector<TokenId>> branches,
                                    std::span<const int> /*parents*/, int reused, int m,
                                    std::vector<DistributionMatrix> &out)
{
    std::vector<std::vector<TokenId>> sequences(branches.size());
    std::vector<SequenceRequest> requests(branches.size());
    for (std::size_t b = 0; b < branches.size(); ++b) {
        sequences[b].reserve(m_tokens.size() + branches[b].size());
        sequences[b].assign(m_tokens.begin(), m_tokens.end());
        sequences[b].insert(sequences[b].end(), branches[b].begin(), branches[b].end());
        requests[b] = {sequences[b], m};
    }
    m_model.computeBatch(requests, out);
    m_stats.fed += sharedAdded
        + static_cast<std::int64_t>(branches.size()) * (static_cast<std::int64_t>(branches[0].size()) - reused);
}

void DecodingState::keepBranchEntries(int /*branch*/, int /*count*/) { }

void DecodingState::dropBranchEntries() { }

int DecodingState::keepBranch(int branch, int count)
{
    if (branch < 0 || branch >= branchRows())
        throw Error("a decoding state has no branch " + std::to_string(branch) + " to keep (it keeps "
                    + std::to_string(branchRows()) + ")");
    const std::vector<TokenId> &kept = m_branches[static_cast<std::size_t>(branch)];
    if (count < 0 || static_cast<std::size_t>(count) > kept.size())
        throw Error("a branch of " + std::to_string(kept.size()) + " tokens cannot keep " + std::to_string(count));
    const int discarded = branchRows() * static_cast<int>(kept.size()) - count;
    keepBranchEntries(branch, count);
    m_tokens.insert(m_tokens.end(), kept.begin(), kept.begin() + count);
    m_branches.clear();
    m_stats.discarded += discarded;
    return discarded;
}

int DecodingState::dropBranches()
{
    if (m_branches.empty())
        return 0;
    const int discarded = branchRows() * static_cast<int>(m_branches[0].size());
    dropBranchEntries();
    m_branches.clear();
    m_stats.discarded += discarded;
    return discarded;
}

} // namespace specdec
