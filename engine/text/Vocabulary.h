// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The token set shared by a draft and its target: Unicode code points, sorted, token id = rank.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace specdec {

using TokenId = std::int32_t;

/// A sorted set of code points; token id i is the i-th smallest. Built from a corpus, or given by a model
/// file (then possibly unsorted: the file's order is kept, since the model's logits follow it).
class Vocabulary
{
public:
    Vocabulary() = default;
    /// The distinct code points of `text`, sorted.
    static Vocabulary fromText(std::u32string_view text);
    /// Exactly these tokens in this order (duplicates are an error).
    static Vocabulary fromTokens(std::vector<char32_t> tokens);

    int size() const { return static_cast<int>(m_tokens.size()); }
    bool empty() const { return m_tokens.empty(); }
    char32_t token(TokenId id) const { return m_tokens[static_cast<std::size_t>(id)]; }
    const std::vector<char32_t> &tokens() const { return m_tokens; }

    /// The id of a code point, or -1 when it is not in the vocabulary.
    TokenId find(char32_t codePoint) const;
    bool contains(char32_t codePoint) const { return find(codePoint) >= 0; }

    /// Encodes text; throws Error naming every character (up to a few) that is not in the vocabulary.
    std::vector<TokenId> encode(std::u32string_view text, std::string_view what = "text") const;
    std::u32string decode(std::span<const TokenId> ids) const;
    std::string decodeUtf8(std::span<const TokenId> ids) const;

    /// The first few code points present in this vocabulary but not in `other`.
    std::vector<char32_t> missingFrom(const Vocabulary &other, std::size_t limit = SIZE_MAX) const;

    /// Throws Error when the two differ, listing tokens present in only one of them.
    static void requireSame(const Vocabulary &target, const Vocabulary &draft);

    friend bool operator==(const Vocabulary &a, const Vocabulary &b) { return a.m_tokens == b.m_tokens; }

private:
    std::vector<char32_t> m_tokens;                    // id -> code point
    std::vector<std::pair<char32_t, TokenId>> m_index; // sorted by code point, for find()
    void buildIndex();
};

/// "'a', 'b', '\n' and 3 more": a short list of code points for messages.
std::string describeCodePoints(const std::vector<char32_t> &codePoints, std::size_t shown = 8);

} // namespace specdec
