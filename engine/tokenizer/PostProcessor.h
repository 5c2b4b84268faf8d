// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The post-processor stage of a Hugging Face tokenizer: adds the special tokens around an encoded text when
// asked to (add_special_tokens). TemplateProcessing ("single": e.g. <bos> $A), Bert/Roberta ([CLS] $A [SEP]),
// ByteLevel (offsets only: nothing to do for ids) and a Sequence of them.

#include "BpeModel.h"
#include "JsonFile.h"

#include <memory>
#include <vector>

namespace specdec::tok {

class PostProcessor
{
public:
    virtual ~PostProcessor() = default;
    /// `ids` of one text, with the special tokens added.
    virtual std::vector<PieceId> process(std::vector<PieceId> ids) const = 0;
    /// The ids this stage puts before the text (what a prompt starts with).
    virtual std::vector<PieceId> prefix() const = 0;

    /// The stage `json` describes; null gives nullptr. Throws specdec::Error.
    static std::unique_ptr<PostProcessor> fromJson(const Json &json);
};

} // namespace specdec::tok
