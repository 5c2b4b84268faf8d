// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "pattern" of tokenizer.json's Split, Replace normalizer and Replace decoder: {"String": s} (literal) or
// {"Regex": r} (an Oniguruma regex, see Regex.h).

#include "JsonFile.h"
#include "Regex.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace specdec::tok {

class Pattern
{
public:
    static Pattern fromJson(const Json &json);
    static Pattern literal(std::string text);

    /// Non-overlapping, non-empty matches as byte ranges, left to right.
    std::vector<std::pair<std::size_t, std::size_t>> findAll(std::string_view text) const;
    std::string replaceAll(std::string_view text, std::string_view content) const;

private:
    std::string m_literal;
    std::shared_ptr<const Regex> m_regex;
};

} // namespace specdec::tok
