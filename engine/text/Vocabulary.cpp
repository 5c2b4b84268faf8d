// SPDX-License-Identifier: GPL-3.0-or-later
#include "Vocabulary.h"

#include "Error.h"
#include "Utf8.h"

#include <algorithm>
#include <cstdio>

namespace specdec {

Vocabulary Vocabulary::fromText(std::u32string_view text)
{
    std::vector<bool> seenBmp(0x10000, false);
    std::vector<char32_t> tokens;
    std::vector<char32_t> astral;
    for (char32_t cp : text) {
        if (cp < 0x10000) {
            if (!seenBmp[cp]) {
                seenBmp[cp] = true;
                tokens.push_back(cp);
            }
        } else {
            astral.push_back(cp);
        }
    }
    std::sort(astral.begin(), astral.end());
    astral.erase(std::unique(astral.begin(), astral.end()), astral.end());
    tokens.insert(tokens.end(), astral.begin(), astral.end());
    std::sort(tokens.begin(), tokens.end());
    Vocabulary v;
    v.m_tokens = std::move(tokens);
    v.buildIndex();
    return v;
}

Vocabulary Vocabulary::fromTokens(std::vector<char32_t> tokens)
{
    Vocabulary v;
    v.m_tokens = std::move(tokens);
    v.buildIndex();
    for (std::size_t i = 1; i < v.m_index.size(); ++i) {
        if (v.m_index[i].first == v.m_index[i - 1].first)
            throw Error("vocabulary lists " + displayCodePoint(v.m_index[i].first) + " twice (token ids "
                        + std::to_string(v.m_index[i - 1].second) + " and " + std::to_string(v.m_index[i].second) + ")");
    }
    return v;
}

void Vocabulary::buildIndex()
{
    m_index.clear();
    m_index.reserve(m_tokens.size());
    for (std::size_t i = 0; i < m_tokens.size(); ++i)
        m_index.emplace_back(m_tokens[i], static_cast<TokenId>(i));
    std::sort(m_index.begin(), m_index.end());
}

TokenId Vocabulary::find(char32_t cp) const
{
    auto it = std::lower_bound(m_index.begin(), m_index.end(), cp,
                               [](const auto &entry, char32_t value) { return entry.first < value; });
    return (it != m_index.end() && it->first == cp) ? it->second : -1;
}

std::vector<TokenId> Vocabulary::encode(std::u32string_view text, std::string_view what) const
{
    std::vector<TokenId> ids;
    ids.reserve(text.size());
    std::vector<char32_t> unknown;
    for (char32_t cp : text) {
        const TokenId id = find(cp);
        if (id < 0) {
            if (std::find(unknown.begin(), unknown.end(), cp) == unknown.end())
                unknown.push_back(cp);
        } else {
            ids.push_back(id);
        }
    }
    if (!unknown.empty())
        throw Error(std::string(what) + " has " + std::to_string(unknown.size()) + " character"
                    + (unknown.size() == 1 ? "" : "s") + " not in the vocabulary: " + describeCodePoints(unknown));
    return ids;
}

std::u32string Vocabulary::decode(std::span<const TokenId> ids) const
{
    std::u32string out;
    out.reserve(ids.size());
    for (TokenId id : ids)
        out.push_back(token(id));
    return out;
}

std::string Vocabulary::decodeUtf8(std::span<const TokenId> ids) const
{
    return encodeUtf8(decode(ids));
}

std::vector<char32_t> Vocabulary::missingFrom(const Vocabulary &other, std::size_t limit) const
{
    std::vector<char32_t> missing;
    for (const auto &[cp, id] : m_index) {
        if (missing.size() >= limit)
            break;
        if (!other.contains(cp))
            missing.push_back(cp);
    }
    return missing;
}

void Vocabulary::requireSame(const Vocabulary &target, const Vocabulary &draft)
{
    if (target == draft)
        return;
    const auto onlyTarget = target.missingFrom(draft);
    const auto onlyDraft = draft.missingFrom(target);
    std::string message = "draft and target vocabularies differ (target " + std::to_string(target.size())
        + " tokens, draft " + std::to_string(draft.size()) + ")";
    if (!onlyTarget.empty())
        message += "; only in the target: " + describeCodePoints(onlyTarget);
    if (!onlyDraft.empty())
        message += "; only in the draft: " + describeCodePoints(onlyDraft);
    if (onlyTarget.empty() && onlyDraft.empty())
        message += "; same tokens in a different order";
    throw Error(message);
}

std::string describeCodePoints(const std::vector<char32_t> &codePoints, std::size_t shown)
{
    std::string out;
    const std::size_t n = std::min(shown, codePoints.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i > 0)
            out += ", ";
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(codePoints[i]));
        out += displayCodePoint(codePoints[i]) + " (" + code + ")";
    }
    if (codePoints.size() > n)
        out += " and " + std::to_string(codePoints.size() - n) + " more";
    return out;
}

} // namespace specdec
