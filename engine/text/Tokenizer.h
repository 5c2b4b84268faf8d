// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tokenizer a draft and its target share: a token is an id with its text piece. Two kinds: `chars` (Unicode
// code points, a Vocabulary: a corpus's distinct characters or an ONNX model's `specdec.vocab`) and a Hugging Face
// tokenizer.json (tok::HfTokenizer; ids are the file's, so a real model's logits line up).

#include "Vocabulary.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace specdec {

namespace tok {
class HfTokenizer;
}

/// One token's text as the vocabulary spells it, and what it stands for.
struct TokenPiece
{
    enum class Kind {
        Text, ///< characters (a code point, "Ġthe", "▁of")
        Byte, ///< one byte of a character split into tokens ("<0xE5>", or a byte-level piece that is not whole UTF-8)
        Special, ///< a special token ("<|endoftext|>")
    };
    Kind kind = Kind::Text;
    std::string text;  ///< as the vocabulary spells it
    std::string bytes; ///< what it adds to the decoded text (byte-level "Ġthe" -> " the"; SentencePiece keeps "▁")
};

/// A piece as traces show it: a leading space as "␣" ("␣the"), "▁" as is, bytes that are not whole UTF-8
/// characters as <E5>, special tokens as spelled. Chars pieces are the character itself.
std::string displayPiece(const TokenPiece &piece);

/// A shared, immutable tokenizer (copies are cheap and compare equal).
class Tokenizer
{
public:
    enum class Kind { Chars, HuggingFace };

    /// An empty chars tokenizer.
    Tokenizer();
    /// The code points of `vocabulary`, in its order; `source` names where they come from ("kjv", a model file).
    static Tokenizer chars(Vocabulary vocabulary, std::string source = {});
    /// A tokenizer.json, or a folder holding one (tok::HfTokenizer::load); throws Error on one line.
    static Tokenizer load(const std::string &path);

    Kind kind() const;
    /// The number of ids: distributions over this tokenizer have this many entries.
    int size() const;
    bool empty() const { return size() == 0; }

    /// The ids of UTF-8 `text`, without special tokens (BOS is not added). Chars: throws Error naming the
    /// characters outside the vocabulary; `what` names the text in messages.
    std::vector<TokenId> encode(std::string_view text, std::string_view what = "text") const;
    /// encode() of code points (the form the chars tokenizer's callers hold).
    std::vector<TokenId> encode(std::u32string_view text, std::string_view what = "text") const;
    /// The UTF-8 text of `ids`; the bytes of a character the ids end inside of are held back (left out).
    std::string decode(std::span<const TokenId> ids) const;
    /// The text `ids` add after `context` (SentencePiece strips a leading space only at the start of a text).
    std::string decodeAfter(std::span<const TokenId> context, std::span<const TokenId> ids) const;

    TokenPiece piece(TokenId id) const;
    /// displayPiece(piece(id)); "?" for an id outside the tokenizer.
    std::string display(TokenId id) const;

    /// The code points of a chars tokenizer; nullptr for a tokenizer.json.
    const Vocabulary *characters() const;
    const tok::HfTokenizer *huggingFace() const;

    /// "the chars tokenizer of kjv (65 ids)", "Qwen3's tokenizer.json (151,669 ids)".
    std::string describe() const;

    /// Same kind, same ids with the same pieces (a tokenizer.json: same vocabulary, merges, added tokens and
    /// pipeline). Two chars tokenizers of the same code points are equal whatever their source.
    friend bool operator==(const Tokenizer &a, const Tokenizer &b);

    /// Throws Error when they differ: one plain sentence saying which tokenizer each uses ("the draft uses the
    /// chars tokenizer of kjv, the target Qwen3's tokenizer.json (151,669 ids)"), then a few differences.
    static void requireSame(const Tokenizer &target, const Tokenizer &draft);

    struct Impl;

private:
    explicit Tokenizer(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> m_impl;
};

/// Decodes a growing sequence token by token, holding back a character's bytes until it completes (the text of a
/// run streamed round by round).
class TextStream
{
public:
    /// `context` is already shown (the prompt): only what follows it is returned.
    TextStream(const Tokenizer &tokenizer, std::span<const TokenId> context = {});
    ~TextStream();
    TextStream(const TextStream &) = delete;
    TextStream &operator=(const TextStream &) = delete;

    /// The text the new ids complete.
    std::string push(std::span<const TokenId> ids);
    /// Bytes of a character not yet complete.
    std::string pending() const;

private:
    struct State;
    Tokenizer m_tokenizer;
    std::unique_ptr<State> m_state;
};

/// "1,234,567".
std::string groupedNumber(long long value);

} // namespace specdec
