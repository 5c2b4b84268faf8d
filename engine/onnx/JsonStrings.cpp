// SPDX-License-Identifier: GPL-3.0-or-later
// A small strict JSON reader for one value shape: an array of strings (the vocabulary metadata).
#include "onnx/OnnxLanguageModel.h"

#include "Error.h"
#include "Utf8.h"

namespace specdec {

namespace {

class JsonReader
{
public:
    JsonReader(std::string_view text, std::string_view what)
        : m_text(text)
        , m_what(what)
    {
    }

    std::vector<std::u32string> stringArray()
    {
        std::vector<std::u32string> items;
        skipSpace();
        expect('[');
        skipSpace();
        if (peek() == ']') {
            ++m_pos;
        } else {
            while (true) {
                skipSpace();
                items.push_back(string());
                skipSpace();
                const char c = next();
                if (c == ']')
                    break;
                if (c != ',')
                    fail(m_pos - 1, "expected ',' or ']'");
            }
        }
        skipSpace();
        if (m_pos != m_text.size())
            fail(m_pos, "unexpected text after the array");
        return items;
    }

private:
    std::string_view m_text;
    std::string_view m_what;
    std::size_t m_pos = 0;

    [[noreturn]] void fail(std::size_t at, const std::string &problem) const
    {
        throw Error(std::string(m_what) + ": invalid JSON at byte " + std::to_string(at) + ": " + problem);
    }
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    char next()
    {
        if (m_pos >= m_text.size())
            fail(m_pos, "unexpected end");
        return m_text[m_pos++];
    }
    void expect(char c)
    {
        if (next() != c)
            fail(m_pos - 1, std::string("expected '") + c + "'");
    }
    void skipSpace()
    {
        while (m_pos < m_text.size()
               && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }
    char32_t hex4()
    {
        char32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = next();
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<char32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<char32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<char32_t>(c - 'A' + 10);
            else
                fail(m_pos - 1, "expected a hex digit in \\u escape");
        }
        return v;
    }
    std::u32string string()
    {
        const std::size_t start = m_pos;
        expect('"');
        std::u32string out;
        std::size_t runStart = m_pos; // raw UTF-8 bytes since the last escape
        auto flush = [&](std::size_t end) {
            if (end <= runStart)
                return;
            std::string_view run = m_text.substr(runStart, end - runStart);
            if (run.substr(0, 3) == "\xEF\xBB\xBF") { // decodeUtf8 drops a leading BOM; here it is a character
                out += char32_t(0xFEFF);
                run.remove_prefix(3);
            }
            out += decodeUtf8(run, std::string(m_what) + " (string at byte " + std::to_string(start) + ")");
        };
        while (true) {
            const char c = next();
            if (c == '"') {
                flush(m_pos - 1);
                return out;
            }
            if (static_cast<unsigned char>(c) < 0x20)
                fail(m_pos - 1, "control character inside a string");
            if (c != '\\')
                continue;
            flush(m_pos - 1);
            const std::size_t escape = m_pos - 1;
            switch (next()) {
            case '"': out += U'"'; break;
            case '\\': out += U'\\'; break;
            case '/': out += U'/'; break;
            case 'b': out += U'\b'; break;
            case 'f': out += U'\f'; break;
            case 'n': out += U'\n'; break;
            case 'r': out += U'\r'; break;
            case 't': out += U'\t'; break;
            case 'u': {
                char32_t cp = hex4();
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (next() != '\\' || next() != 'u')
                        fail(escape, "a high surrogate must be followed by a \\u low surrogate");
                    const char32_t low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail(escape, "a high surrogate must be followed by a low surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    fail(escape, "lone low surrogate");
                }
                out += cp;
                break;
            }
            default: fail(escape, "unknown escape");
            }
            runStart = m_pos;
        }
    }
};

} // namespace

std::vector<std::u32string> parseJsonStringArray(std::string_view json, std::string_view what)
{
    return JsonReader(json, what).stringArray();
}

} // namespace specdec
