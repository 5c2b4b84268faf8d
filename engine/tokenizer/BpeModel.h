// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The BPE model of a Hugging Face tokenizer: a word starts as its characters (or, with byte_fallback, the
// <0xXX> tokens of a character missing from the vocabulary, else unk_token) and the ranked merges are applied,
// lowest rank first and leftmost first among equals, until none applies:
//   while some adjacent pair (a, b) has a merge: replace the pair of lowest rank r(a, b) by the token ab.
// Merges come as "a b" or ["a", "b"]; ignore_merges takes a word found whole in the vocabulary as one token;
// continuing_subword_prefix and end_of_word_suffix mark non-initial and final characters. Words of up to 256
// bytes are cached, as HF does.

#include "JsonFile.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace specdec::tok {

using PieceId = std::uint32_t;

class BpeModel
{
public:
    /// The "model" object of tokenizer.json; throws specdec::Error on a malformed or inconsistent model
    /// (an id used twice, a merge naming a piece not in the vocabulary, an unknown unk_token).
    static BpeModel fromJson(const Json &model);

    /// Appends the ids of `word` (a pre-tokenized word, valid UTF-8) to `ids`.
    void encodeWord(std::string_view word, std::vector<PieceId> &ids) const;

    std::optional<PieceId> find(std::string_view piece) const;
    /// The piece of `id`, or nullptr when the vocabulary has no such id.
    const std::string *piece(PieceId id) const;
    /// One past the largest id of the vocabulary.
    std::size_t idBound() const { return m_pieces.size(); }

private:
    BpeModel() = default;
    void encodeWhole(std::string_view word, std::vector<PieceId> &ids) const;
    void merge(std::string_view word, std::vector<PieceId> &ids) const;
    /// Where no merge can join a piece to a following "▁" (SentencePiece files without a pre-tokenizer, whose
    /// whole text is one word), the word is cut before each such "▁" and the parts are encoded (and cached)
    /// alone: the same ids, without merging a 4 MB word at once. A cut before "▁" is safe after a character x
    /// when no piece holds "x▁" and x's symbol is x itself (a byte-fallback or unknown symbol ends in '>').
    void findMetaspaceCuts();

    struct Merge
    {
        std::uint32_t rank;
        PieceId result;
    };
    static std::uint64_t pairKey(PieceId a, PieceId b) { return (std::uint64_t(a) << 32) | b; }

    std::unordered_map<std::string, PieceId> m_vocab;
    std::vector<std::string> m_pieces; // by id ("" where no piece has the id)
    std::vector<bool> m_hasPiece;
    std::unordered_map<std::uint64_t, Merge> m_merges;
    std::optional<PieceId> m_unk;
    std::string m_prefix; // continuing_subword_prefix
    std::string m_suffix; // end_of_word_suffix
    bool m_fuseUnk = false;
    bool m_byteFallback = false;
    bool m_ignoreMerges = false;
    std::array<std::optional<PieceId>, 256> m_byteTokens; // <0x00>..<0xFF>
    bool m_cutBeforeMetaspace = false;
    bool m_unknownBeforeMetaspace = false;   // a piece has ">▁": only known characters allow a cut
    std::vector<char32_t> m_beforeMetaspace; // characters some piece has right before a "▁" (sorted)

    struct WordCache
    {
        std::mutex mutex;
        std::unordered_map<std::string, std::vector<PieceId>> words;
    };
    std::unique_ptr<WordCache> m_cache = std::make_unique<WordCache>();
};

} // namespace specdec::tok
