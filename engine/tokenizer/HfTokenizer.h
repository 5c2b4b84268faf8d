// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Hugging Face tokenizer read from tokenizer.json (and tokenizer_config.json beside it, for BOS / EOS), run
// as the `tokenizers` library runs it:
//   added tokens cut out -> normalizer -> pre-tokenizer -> BPE model -> post-processor    (encode)
//   ids -> pieces -> decoder -> text                                                      (decode)
// Byte-level BPE (GPT-2, Llama-3, Qwen2/3, SmolLM2) and SentencePiece-style BPE with byte fallback (Llama-2,
// Mistral/Mixtral, Gemma). Pure C++: PCRE2 for the file's regexes, ICU for Unicode normalization.

#include "AddedVocabulary.h"
#include "BpeModel.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace specdec::tok {

class Normalizer;
class PreTokenizer;
class PostProcessor;
class Decoder;

class HfTokenizer
{
public:
    /// Loads `path` (a tokenizer.json, or a folder holding one) and the tokenizer_config.json beside it when
    /// there is one. Throws specdec::Error "path: problem" on one line.
    static HfTokenizer load(const std::string &path);
    /// From the text of a tokenizer.json (and optionally of a tokenizer_config.json); `name` names it in errors.
    static HfTokenizer fromJsonText(std::string_view tokenizerJson, const std::string &name,
                                    std::string_view configJson = {});

    HfTokenizer(HfTokenizer &&) noexcept;
    HfTokenizer &operator=(HfTokenizer &&) noexcept;
    ~HfTokenizer();

    /// The ids of valid UTF-8 `text` (specdec::Error names the offset of invalid UTF-8). With
    /// `addSpecialTokens`, the post-processor's tokens (and tokenizer_config.json's BOS) are added.
    std::vector<PieceId> encode(std::string_view text, bool addSpecialTokens = true) const;
    /// The text of `ids`. Bytes of a character that `ids` ends in the middle of are left out (see
    /// IncrementalDecoder); an id without a piece throws specdec::Error.
    std::string decode(std::span<const PieceId> ids, bool skipSpecialTokens = false) const;
    /// The decoded bytes of `ids`, possibly ending inside a UTF-8 character.
    std::string decodeBytes(std::span<const PieceId> ids, bool skipSpecialTokens = false) const;

    /// The piece of `id` as the vocabulary spells it ("Ġthe", "▁of", "<0xE4>", "<|endoftext|>"), or nullopt.
    std::optional<std::string> piece(PieceId id) const;
    std::optional<PieceId> find(std::string_view piece) const;
    bool isSpecial(PieceId id) const;
    /// One past the largest id (model and added tokens).
    std::size_t idBound() const;

    /// True when the decoder maps GPT-2's byte-level alphabet back to bytes ("Ġthe" stands for " the").
    bool byteLevel() const { return m_byteLevel; }
    /// Hashes of the parts of the file, to tell two tokenizers apart and say which part differs.
    struct Fingerprint
    {
        std::uint64_t vocabulary = 0; ///< the model's pieces and ids
        std::uint64_t merges = 0;     ///< the model's merges, in rank order
        std::uint64_t added = 0;      ///< added (special) tokens
        std::uint64_t pipeline = 0;   ///< normalizer, pre-tokenizer, post-processor, decoder, model options
        std::size_t mergeCount = 0;
        friend bool operator==(const Fingerprint &, const Fingerprint &) = default;
    };
    const Fingerprint &fingerprint() const { return m_fingerprint; }

    std::optional<PieceId> bos() const { return m_bos; }
    std::optional<PieceId> eos() const { return m_eos; }
    const std::string &name() const { return m_name; }

private:
    HfTokenizer(BpeModel model, std::string name);
    static HfTokenizer fromJson(const Json &json, const std::string &name, const Json &config);
    void readConfig(const Json &config);

    std::string m_name;
    BpeModel m_model;
    std::unique_ptr<Normalizer> m_normalizer;
    std::unique_ptr<PreTokenizer> m_preTokenizer;
    std::unique_ptr<PostProcessor> m_postProcessor;
    std::unique_ptr<Decoder> m_decoder;
    AddedVocabulary m_added;
    std::optional<PieceId> m_bos;
    std::optional<PieceId> m_eos;
    bool m_addBos = false; // tokenizer_config.json's add_bos_token, where the post-processor does not add it
    bool m_addEos = false;
    bool m_byteLevel = false;
    Fingerprint m_fingerprint;
};

/// Decodes a growing token sequence piece by piece: push() returns the text that the new token completes;
/// the bytes of a character not yet complete (a Chinese character split into byte tokens) are held in
/// pending() until the token that completes it arrives, never shown as U+FFFD.
class IncrementalDecoder
{
public:
    explicit IncrementalDecoder(const HfTokenizer &tokenizer, bool skipSpecialTokens = false);
    std::string push(PieceId id);
    const std::string &pending() const { return m_pending; }

private:
    const HfTokenizer &m_tokenizer;
    bool m_skipSpecial;
    std::vector<PieceId> m_window; // the ids decoded together: a context id, then the ids since
    std::size_t m_emitted = 0;     // bytes of the window's text already returned
    std::string m_pending;
};

} // namespace specdec::tok
