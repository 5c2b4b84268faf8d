// SPDX-License-Identifier: GPL-3.0-or-later
#include "Pattern.h"

#include "Error.h"

namespace specdec::tok {

Pattern Pattern::fromJson(const Json &json)
{
    if (json.is_object() && json.contains("String"))
        return literal(stringMember(json, "String", "the pattern"));
    if (json.is_object() && json.contains("Regex")) {
        Pattern pattern;
        try {
            pattern.m_regex = std::make_shared<const Regex>(stringMember(json, "Regex", "the pattern"));
        } catch (const Error &e) {
            fail(e.what());
        }
        return pattern;
    }
    fail("a pattern is neither {\"String\": ...} nor {\"Regex\": ...}");
}

Pattern Pattern::literal(std::string text)
{
    Pattern pattern;
    pattern.m_literal = std::move(text);
    return pattern;
}

std::vector<std::pair<std::size_t, std::size_t>> Pattern::findAll(std::string_view text) const
{
    if (m_regex)
        return m_regex->findAll(text);
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    if (m_literal.empty())
        return matches;
    for (std::size_t at = text.find(m_literal); at != std::string_view::npos; at = text.find(m_literal, at)) {
        matches.emplace_back(at, at + m_literal.size());
        at += m_literal.size();
    }
    return matches;
}

std::string Pattern::replaceAll(std::string_view text, std::string_view content) const
{
    std::string out;
    out.reserve(text.size());
    std::size_t previous = 0;
    for (const auto &[begin, end] : findAll(text)) {
        out.append(text.substr(previous, begin - previous));
        out.append(content);
        previous = end;
    }
    out.append(text.substr(previous));
    return out;
}

} // namespace specdec::tok
