// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The decoder stage of a Hugging Face tokenizer: turns the pieces of a token sequence back into text.
// ByteLevel (GPT-2's alphabet back to bytes), Metaspace and Replace ("▁" back to a space), ByteFallback (<0xE4>
// tokens back to bytes), Fuse, Strip and a Sequence of them, as tokenizer.json's "decoder" describes. Pieces
// are byte strings here: a character whose bytes are not all decoded yet stays as bytes, and the caller holds
// them (IncrementalDecoder) instead of writing U+FFFD.

#include "JsonFile.h"

#include <memory>
#include <string>
#include <vector>

namespace specdec::tok {

class Decoder
{
public:
    virtual ~Decoder() = default;
    /// HF's decode_chain: the pieces after this stage.
    virtual std::vector<std::string> decodeChain(std::vector<std::string> pieces) const = 0;

    /// The stage `json` describes; null gives nullptr (pieces are joined with spaces). Throws specdec::Error.
    static std::unique_ptr<Decoder> fromJson(const Json &json);
};

} // namespace specdec::tok
