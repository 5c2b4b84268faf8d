// SPDX-License-Identifier: GPL-3.0-or-later
#include "PreTokenizer.h"

#include "ByteLevelAlphabet.h"
#include "Pattern.h"
#include "TextUnits.h"

#include <algorithm>
#include <functional>

namespace specdec::tok {

namespace {

/// What happens to the delimiters a Split finds (HF's SplitDelimiterBehavior).
enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

struct Span
{
    std::size_t begin;
    std::size_t end;
    bool match;
};

/// `text` cut at `matches` into spans (matches and the gaps between them), then regrouped by `behavior` as HF
/// does; the non-empty parts are appended to `out`.
void applyBehavior(const std::string &text, const std::vector<std::pair<std::size_t, std::size_t>> &matches,
                   bool invert, Behavior behavior, std::vector<std::string> &out)
{
    std::vector<Span> spans;
    spans.reserve(matches.size() * 2 + 1);
    std::size_t previous = 0;
    for (const auto &[begin, end] : matches) {
        if (begin > previous)
            spans.push_back({previous, begin, invert});
        spans.push_back({begin, end, !invert});
        previous = end;
    }
    if (previous < text.size())
        spans.push_back({previous, text.size(), invert});

    std::vector<Span> parts;
    parts.reserve(spans.size());
    switch (behavior) {
    case Behavior::Removed:
        for (const Span &s : spans)
            if (!s.match)
                parts.push_back(s);
        break;
    case Behavior::Isolated: parts = spans; break;
    case Behavior::MergedWithPrevious: {
        bool previousMatch = false;
        for (const Span &s : spans) {
            if (s.match && !previousMatch && !parts.empty())
                parts.back().end = s.end;
            else
                parts.push_back(s);
            previousMatch = s.match;
        }
        break;
    }
    case Behavior::MergedWithNext: {
        bool previousMatch = false;
        for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
            if (it->match && !previousMatch && !parts.empty())
                parts.back().begin = it->begin;
            else
                parts.push_back(*it);
            previousMatch = it->match;
        }
        std::reverse(parts.begin(), parts.end());
        break;
    }
    case Behavior::Contiguous: {
        bool previousMatch = false;
        for (const Span &s : spans) {
            if (s.match == previousMatch && !parts.empty())
                parts.back().end = s.end;
            else
                parts.push_back(s);
            previousMatch = s.match;
        }
        break;
    }
    }
    for (const Span &p : parts)
        if (p.end > p.begin)
            out.emplace_back(text, p.begin, p.end - p.begin);
}

/// Each character for which `predicate` holds, as its own match.
std::vector<std::pair<std::size_t, std::size_t>> characterMatches(const std::string &text,
                                                                  const std::function<bool(char32_t)> &predicate)
{
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t begin = i;
        if (predicate(nextCodePoint(text, i)))
            matches.emplace_back(begin, i);
    }
    return matches;
}

Behavior behaviorFromJson(const Json &json)
{
    const std::string name = stringMember(json, "behavior", "the Split pre-tokenizer");
    if (name == "Removed")
        return Behavior::Removed;
    if (name == "Isolated")
        return Behavior::Isolated;
    if (name == "MergedWithPrevious")
        return Behavior::MergedWithPrevious;
    if (name == "MergedWithNext")
        return Behavior::MergedWithNext;
    if (name == "Contiguous")
        return Behavior::Contiguous;
    fail("the Split behavior \"" + name + "\" is unknown");
}

class Split : public PreTokenizer
{
public:
    Split(Pattern pattern, Behavior behavior, bool invert)
        : m_pattern(std::move(pattern))
        , m_behavior(behavior)
        , m_invert(invert)
    {
    }
    void split(std::vector<std::string> &words, bool) const override
    {
        std::vector<std::string> out;
        out.reserve(words.size() * 2);
        for (const std::string &word : words)
            applyBehavior(word, m_pattern.findAll(word), m_invert, m_behavior, out);
        words = std::move(out);
    }

private:
    Pattern m_pattern;
    Behavior m_behavior;
    bool m_invert;
};

constexpr const char *kGpt2Regex = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

class ByteLevel : public PreTokenizer
{
public:
    ByteLevel(bool addPrefixSpace, bool useRegex)
        : m_addPrefixSpace(addPrefixSpace)
        , m_regex(useRegex ? std::make_unique<Regex>(kGpt2Regex) : nullptr)
    {
    }
    void split(std::vector<std::string> &words, bool) const override
    {
        std::vector<std::string> out;
        out.reserve(words.size() * 2);
        for (std::string &word : words) {
            if (m_addPrefixSpace && !word.starts_with(' '))
                word.insert(word.begin(), ' ');
            if (m_regex)
                applyBehavior(word, m_regex->findAll(word), false, Behavior::Isolated, out);
            else
                out.push_back(std::move(word));
        }
        for (std::string &word : out)
            word = toByteLevel(word);
        words = std::move(out);
    }

private:
    bool m_addPrefixSpace;
    std::unique_ptr<Regex> m_regex;
};

class Metaspace : public PreTokenizer
{
public:
    enum class Prepend { Always, First, Never };
    Metaspace(std::string replacement, Prepend prepend, bool split)
        : m_replacement(std::move(replacement))
        , m_prepend(prepend)
        , m_split(split)
    {
    }
    void split(std::vector<std::string> &words, bool atStart) const override
    {
        const Pattern space = Pattern::literal(" ");
        const Pattern replacement = Pattern::literal(m_replacement);
        std::vector<std::string> out;
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::string word = space.replaceAll(words[i], m_replacement);
            const bool prepend = m_prepend == Prepend::Always || (m_prepend == Prepend::First && atStart && i == 0);
            if (prepend && !word.starts_with(m_replacement))
                word.insert(0, m_replacement);
            if (m_split)
                applyBehavior(word, replacement.findAll(word), false, Behavior::MergedWithNext, out);
            else if (!word.empty())
                out.push_back(std::move(word));
        }
        words = std::move(out);
    }

private:
    std::string m_replacement;
    Prepend m_prepend;
    bool m_split;
};

class Digits : public PreTokenizer
{
public:
    explicit Digits(bool individual)
        : m_individual(individual)
    {
    }
    void split(std::vector<std::string> &words, bool) const override
    {
        std::vector<std::string> out;
        for (const std::string &word : words)
            applyBehavior(word, characterMatches(word, isNumeric), false,
                          m_individual ? Behavior::Isolated : Behavior::Contiguous, out);
        words = std::move(out);
    }

private:
    bool m_individual;
};

/// Whitespace: the runs of `\w+|[^\w\s]+`; WhitespaceSplit: the text between whitespace characters.
class Whitespace : public PreTokenizer
{
public:
    explicit Whitespace(bool splitOnly)
        : m_regex(splitOnly ? nullptr : std::make_unique<Regex>(R"(\w+|[^\w\s]+)"))
    {
    }
    void split(std::vector<std::string> &words, bool) const override
    {
        std::vector<std::string> out;
        for (const std::string &word : words) {
            if (m_regex)
                applyBehavior(word, m_regex->findAll(word), true, Behavior::Removed, out);
            else
                applyBehavior(word, characterMatches(word, isWhitespace), false, Behavior::Removed, out);
        }
        words = std::move(out);
    }

private:
    std::unique_ptr<Regex> m_regex;
};

class Sequence : public PreTokenizer
{
public:
    explicit Sequence(std::vector<std::unique_ptr<PreTokenizer>> stages)
        : m_stages(std::move(stages))
    {
    }
    void split(std::vector<std::string> &words, bool atStart) const override
    {
        for (const auto &stage : m_stages)
            stage->split(words, atStart);
    }

private:
    std::vector<std::unique_ptr<PreTokenizer>> m_stages;
};

} // namespace

std::unique_ptr<PreTokenizer> PreTokenizer::fromJson(const Json &json)
{
    if (json.is_null())
        return nullptr;
    const std::string type = stringMember(json, "type", "the pre-tokenizer");
    if (type == "Split")
        return std::make_unique<Split>(Pattern::fromJson(member(json, "pattern", "the Split pre-tokenizer")),
                                       behaviorFromJson(json), optionalBool(json, "invert", false));
    if (type == "ByteLevel")
        return std::make_unique<ByteLevel>(optionalBool(json, "add_prefix_space", true),
                                           optionalBool(json, "use_regex", true));
    if (type == "Metaspace") {
        std::string replacement = optionalString(json, "replacement", "\xE2\x96\x81");
        if (replacement.empty())
            fail("the Metaspace pre-tokenizer's replacement is empty");
        std::string scheme = optionalString(json, "prepend_scheme");
        if (scheme.empty())
            scheme = optionalBool(json, "add_prefix_space", true) ? "always" : "never";
        Metaspace::Prepend prepend = Metaspace::Prepend::Always;
        if (scheme == "first")
            prepend = Metaspace::Prepend::First;
        else if (scheme == "never")
            prepend = Metaspace::Prepend::Never;
        else if (scheme != "always")
            fail("the Metaspace prepend_scheme \"" + scheme + "\" is unknown");
        return std::make_unique<Metaspace>(std::move(replacement), prepend, optionalBool(json, "split", true));
    }
    if (type == "Digits")
        return std::make_unique<Digits>(optionalBool(json, "individual_digits", false));
    if (type == "Whitespace")
        return std::make_unique<Whitespace>(false);
    if (type == "WhitespaceSplit")
        return std::make_unique<Whitespace>(true);
    if (type == "Sequence") {
        const Json &list = member(json, "pretokenizers", "the Sequence pre-tokenizer");
        if (!list.is_array())
            fail("the Sequence pre-tokenizer's \"pretokenizers\" is not an array");
        std::vector<std::unique_ptr<PreTokenizer>> stages;
        for (const Json &item : list)
            if (auto stage = fromJson(item))
                stages.push_back(std::move(stage));
        return std::make_unique<Sequence>(std::move(stages));
    }
    fail("the pre-tokenizer \"" + type
         + "\" is not supported (Split, ByteLevel, Metaspace, Digits, Whitespace, "
           "WhitespaceSplit, Sequence are)");
}

} // namespace specdec::tok
