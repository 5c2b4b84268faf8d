// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The normalizer stage of a Hugging Face tokenizer: rewrites each piece of text that is not an added token
// before it is split into words. NFC / NFKC / NFD / NFKD (ICU), Lowercase, Replace, Prepend, Strip and a
// Sequence of them, as tokenizer.json's "normalizer" describes.

#include "JsonFile.h"

#include <memory>
#include <string>

namespace specdec::tok {

class Normalizer
{
public:
    virtual ~Normalizer() = default;
    /// Rewrites valid UTF-8 `text` in place.
    virtual void normalize(std::string &text) const = 0;

    /// The stage `json` describes; null gives nullptr (no normalization). Throws specdec::Error.
    static std::unique_ptr<Normalizer> fromJson(const Json &json);
};

} // namespace specdec::tok
