// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A tokenizer.json regex, compiled by PCRE2 (UTF + UCP, JIT where available) with the classes rewritten to
// mean what they mean in Oniguruma, the engine Hugging Face `tokenizers` uses: `\s` is Unicode White_Space
// (PCRE2's also takes U+180E), `\w` is letters, marks, decimal digits and connectors, `\h` is a hex digit.
// Every match is bounded (match and depth limits), so a pattern that backtracks catastrophically throws
// instead of hanging.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace specdec::tok {

class Regex
{
public:
    /// Compiles `pattern` (Oniguruma syntax); throws specdec::Error naming the problem and its offset.
    explicit Regex(std::string_view pattern);
    ~Regex();
    Regex(const Regex &) = delete;
    Regex &operator=(const Regex &) = delete;

    /// The non-empty, non-overlapping matches in valid UTF-8 `text`, left to right, as byte ranges [begin, end).
    /// Throws specdec::Error when a match exceeds the limits.
    std::vector<std::pair<std::size_t, std::size_t>> findAll(std::string_view text) const;

    const std::string &pattern() const { return m_pattern; }

private:
    struct Compiled;
    std::unique_ptr<Compiled> m_compiled;
    std::string m_pattern;
};

/// `pattern` with Oniguruma's meaning of `\s \S \w \W \h \H` spelled out for PCRE2.
std::string onigurumaToPcre2(std::string_view pattern);

} // namespace specdec::tok
