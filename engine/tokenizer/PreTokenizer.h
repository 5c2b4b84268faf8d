// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pre-tokenizer stage of a Hugging Face tokenizer: cuts a normalized piece of text into words, each of
// which the model encodes on its own. Split (a literal or the file's regex, with its delimiter behaviour),
// ByteLevel (GPT-2's regex and byte alphabet), Metaspace ("▁" for spaces), Digits, Whitespace,
// WhitespaceSplit and a Sequence of them, as tokenizer.json's "pre_tokenizer" describes.

#include "JsonFile.h"

#include <memory>
#include <string>
#include <vector>

namespace specdec::tok {

class PreTokenizer
{
public:
    virtual ~PreTokenizer() = default;
    /// Splits each of `words` further (in place, order kept, empty words dropped). `atStart`: the first word
    /// begins the input text (Metaspace's "first" prepend scheme).
    virtual void split(std::vector<std::string> &words, bool atStart) const = 0;

    /// The stage `json` describes; null gives nullptr (the piece is one word). Throws specdec::Error.
    static std::unique_ptr<PreTokenizer> fromJson(const Json &json);
};

} // namespace specdec::tok
