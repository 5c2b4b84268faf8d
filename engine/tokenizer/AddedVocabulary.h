// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The added tokens of a Hugging Face tokenizer ("added_tokens": special tokens such as <|endoftext|>, and
// others): they are cut out of the text before anything else, the longest one first where several start at
// the same place. Tokens with "normalized": false are found in the raw text, the others in the normalized
// text; "lstrip" / "rstrip" take the whitespace beside a match into it; "single_word" only matches a token
// not inside a word.

#include "BpeModel.h"
#include "JsonFile.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace specdec::tok {

class Normalizer;

struct AddedToken
{
    PieceId id = 0;
    std::string content;
    bool singleWord = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = true;
    bool special = false;
};

/// A piece of the input after the added tokens are cut out: an added token's id, or text still to encode.
struct TextPiece
{
    std::string text;
    std::optional<PieceId> added;
    bool atStart = false; ///< the piece begins the input
};

class AddedVocabulary
{
public:
    AddedVocabulary() = default;
    /// "added_tokens" of tokenizer.json; `normalizer` (may be null) gives the normalized tokens' form.
    AddedVocabulary(const Json &addedTokens, const Normalizer *normalizer);

    /// `text` cut at the added tokens; the text pieces between them are normalized by `normalizer`.
    std::vector<TextPiece> split(std::string_view text, const Normalizer *normalizer) const;

    const std::vector<AddedToken> &tokens() const { return m_tokens; }
    const AddedToken *byId(PieceId id) const;
    const AddedToken *byContent(std::string_view content) const;

private:
    /// A byte trie of token texts, for leftmost-longest matching.
    struct Trie
    {
        struct Node
        {
            std::vector<std::pair<unsigned char, int>> children; // sorted by byte
            int token = -1;                                      // index into m_tokens
        };
        std::vector<Node> nodes{Node{}};
        void insert(std::string_view text, int token);
        /// The longest token that starts at `at`: (token index, end), or token -1.
        std::pair<int, std::size_t> longestAt(std::string_view text, std::size_t at) const;
        bool empty() const { return nodes.size() == 1; }
    };
    void cut(const std::string &text, const Trie &trie, bool atStart, std::vector<TextPiece> &out) const;

    std::vector<AddedToken> m_tokens;
    std::unordered_map<PieceId, std::size_t> m_byId; // the last token with the id
    Trie m_raw;                                      // tokens with normalized: false
    Trie m_normalized;                               // the others, in normalized form
};

} // namespace specdec::tok
