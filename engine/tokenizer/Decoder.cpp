// SPDX-License-Identifier: GPL-3.0-or-later
#include "Decoder.h"

#include "ByteLevelAlphabet.h"
#include "Pattern.h"
#include "TextUnits.h"

#include <cctype>

namespace specdec::tok {

namespace {

class ByteLevel : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        std::string bytes;
        for (const std::string &piece : pieces) {
            const std::size_t mark = bytes.size();
            bool all = true;
            for (std::size_t i = 0; i < piece.size() && all;) {
                const int b = byteLevelByte(nextCodePoint(piece, i));
                if (b < 0)
                    all = false;
                else
                    bytes += static_cast<char>(b);
            }
            if (!all) { // as HF: a piece outside the alphabet (an added token) is kept as it is
                bytes.resize(mark);
                bytes += piece;
            }
        }
        return {bytes};
    }
};

class ByteFallback : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        std::vector<std::string> out;
        std::string group;
        auto flush = [&](bool last) {
            if (group.empty())
                return;
            std::string tail;
            const std::string text = utf8Lossy(group, &tail);
            const bool valid = text.size() + tail.size() == group.size()
                && text.find("\xEF\xBF\xBD") == std::string::npos;
            if (valid && (tail.empty() || last)) {
                out.push_back(group); // complete, or a character still arriving at the very end
            } else {
                for (std::size_t k = 0; k < group.size(); ++k)
                    out.emplace_back("\xEF\xBF\xBD");
            }
            group.clear();
        };
        for (std::string &piece : pieces) {
            if (piece.size() == 6 && piece.starts_with("<0x") && piece.back() == '>'
                && std::isxdigit(static_cast<unsigned char>(piece[3]))
                && std::isxdigit(static_cast<unsigned char>(piece[4]))) {
                group += static_cast<char>(std::stoi(piece.substr(3, 2), nullptr, 16));
                continue;
            }
            flush(false);
            out.push_back(std::move(piece));
        }
        flush(true);
        return out;
    }
};

class Fuse : public Decoder
{
public:
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        std::string joined;
        for (const std::string &piece : pieces)
            joined += piece;
        return {joined};
    }
};

class Strip : public Decoder
{
public:
    Strip(std::string content, std::size_t start, std::size_t stop)
        : m_content(std::move(content))
        , m_start(start)
        , m_stop(stop)
    {
    }
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        for (std::string &piece : pieces) {
            std::size_t begin = 0;
            for (std::size_t k = 0; k < m_start && piece.compare(begin, m_content.size(), m_content) == 0; ++k)
                begin += m_content.size();
            std::size_t end = piece.size();
            for (std::size_t k = 0; k < m_stop && end >= begin + m_content.size()
                 && piece.compare(end - m_content.size(), m_content.size(), m_content) == 0;
                 ++k)
                end -= m_content.size();
            piece = piece.substr(begin, end - begin);
        }
        return pieces;
    }

private:
    std::string m_content;
    std::size_t m_start;
    std::size_t m_stop;
};

class Replace : public Decoder
{
public:
    Replace(Pattern pattern, std::string content)
        : m_pattern(std::move(pattern))
        , m_content(std::move(content))
    {
    }
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        for (std::string &piece : pieces)
            piece = m_pattern.replaceAll(piece, m_content);
        return pieces;
    }

private:
    Pattern m_pattern;
    std::string m_content;
};

class Metaspace : public Decoder
{
public:
    Metaspace(std::string replacement, bool dropFirst)
        : m_replacement(std::move(replacement))
        , m_dropFirst(dropFirst)
    {
    }
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            std::string out;
            const std::string &piece = pieces[i];
            for (std::size_t at = 0; at < piece.size();) {
                if (piece.compare(at, m_replacement.size(), m_replacement) == 0) {
                    if (!(i == 0 && m_dropFirst))
                        out += ' ';
                    at += m_replacement.size();
                } else {
                    out += piece[at++];
                }
            }
            pieces[i] = std::move(out);
        }
        return pieces;
    }

private:
    std::string m_replacement;
    bool m_dropFirst;
};

class Sequence : public Decoder
{
public:
    explicit Sequence(std::vector<std::unique_ptr<Decoder>> stages)
        : m_stages(std::move(stages))
    {
    }
    std::vector<std::string> decodeChain(std::vector<std::string> pieces) const override
    {
        for (const auto &stage : m_stages)
            pieces = stage->decodeChain(std::move(pieces));
        return pieces;
    }

private:
    std::vector<std::unique_ptr<Decoder>> m_stages;
};

std::size_t countMember(const Json &json, const char *key)
{
    if (!json.contains(key))
        return 0;
    const Json &value = json[key];
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 1'000'000)
        fail(std::string("the Strip decoder's \"") + key + "\" is not a small count");
    return static_cast<std::size_t>(value.get<std::int64_t>());
}

} // namespace

std::unique_ptr<Decoder> Decoder::fromJson(const Json &json)
{
    if (json.is_null())
        return nullptr;
    const std::string type = stringMember(json, "type", "the decoder");
    if (type == "ByteLevel")
        return std::make_unique<ByteLevel>();
    if (type == "ByteFallback")
        return std::make_unique<ByteFallback>();
    if (type == "Fuse")
        return std::make_unique<Fuse>();
    if (type == "Strip") {
        const std::string content = stringMember(json, "content", "the Strip decoder");
        if (content.empty())
            fail("the Strip decoder's content is empty");
        return std::make_unique<Strip>(content, countMember(json, "start"), countMember(json, "stop"));
    }
    if (type == "Replace")
        return std::make_unique<Replace>(Pattern::fromJson(member(json, "pattern", "the Replace decoder")),
                                         stringMember(json, "content", "the Replace decoder"));
    if (type == "Metaspace") {
        std::string replacement = optionalString(json, "replacement", "\xE2\x96\x81");
        if (replacement.empty())
            fail("the Metaspace decoder's replacement is empty");
        std::string scheme = optionalString(json, "prepend_scheme");
        if (scheme.empty())
            scheme = optionalBool(json, "add_prefix_space", true) ? "always" : "never";
        return std::make_unique<Metaspace>(std::move(replacement), scheme != "never");
    }
    if (type == "Sequence") {
        const Json &list = member(json, "decoders", "the Sequence decoder");
        if (!list.is_array())
            fail("the Sequence decoder's \"decoders\" is not an array");
        std::vector<std::unique_ptr<Decoder>> stages;
        for (const Json &item : list)
            if (auto stage = fromJson(item))
                stages.push_back(std::move(stage));
        return std::make_unique<Sequence>(std::move(stages));
    }
    fail("the decoder \"" + type
         + "\" is not supported (ByteLevel, ByteFallback, Fuse, Strip, Replace, Metaspace, "
           "Sequence are)");
}

} // namespace specdec::tok
