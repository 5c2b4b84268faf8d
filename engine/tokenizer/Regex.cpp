// SPDX-License-Identifier: GPL-3.0-or-later
#include "Regex.h"

#include "Error.h"
#include "TextUnits.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <mutex>

namespace specdec::tok {

namespace {

// Unicode White_Space, the set Oniguruma's \s matches (PCRE2's UCP \s adds U+180E).
constexpr std::string_view kSpaceSet = "\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}"
                                       "\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";
// Oniguruma's Unicode \w: Letter, Mark, Decimal_Number, Connector_Punctuation.
constexpr std::string_view kWordSet = "\\p{L}\\p{M}\\p{Nd}\\p{Pc}";
constexpr std::string_view kHexSet = "0-9a-fA-F";

// Bounds of one match: steps of the backtracking matcher, its recursion depth (KiB of heap in PCRE2 10.3x+).
constexpr uint32_t kMatchLimit = 20'000'000;
constexpr uint32_t kDepthLimit = 100'000;
constexpr uint32_t kHeapLimitKiB = 256 * 1024;

std::string pcre2Message(int code)
{
    PCRE2_UCHAR buffer[256];
    const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
    return n > 0 ? std::string(reinterpret_cast<const char *>(buffer), static_cast<std::size_t>(n))
                 : "error " + std::to_string(code);
}

} // namespace

std::string onigurumaToPcre2(std::string_view p)
{
    std::string out;
    out.reserve(p.size() + 64);
    bool inClass = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            std::string_view set;
            bool negated = false;
            switch (e) {
            case 's': set = kSpaceSet; break;
            case 'S':
                set = kSpaceSet;
                negated = true;
                break;
            case 'w': set = kWordSet; break;
            case 'W':
                set = kWordSet;
                negated = true;
                break;
            case 'h': set = kHexSet; break;
            case 'H':
                set = kHexSet;
                negated = true;
                break;
            default: break;
            }
            if (set.empty() || (negated && inClass)) {
                // Other escapes, and a negated class inside a class (kept: they differ by U+180E at most).
                out += c;
                out += e;
            } else if (inClass) {
                out += set;
            } else {
                out += negated ? "[^" : "[";
                out += set;
                out += ']';
            }
            ++i;
            continue;
        }
        if (!inClass && c == '[') {
            inClass = true;
            out += c;
            // A ']' (after an optional '^') right at the start is a literal in both engines.
            if (i + 1 < p.size() && p[i + 1] == '^') {
                out += '^';
                ++i;
            }
            if (i + 1 < p.size() && p[i + 1] == ']') {
                out += ']';
                ++i;
            }
            continue;
        }
        if (inClass && c == '[' && i + 1 < p.size() && p[i + 1] == ':') {
            const std::size_t close = p.find(":]", i + 2);
            if (close != std::string_view::npos) {
                out.append(p.substr(i, close + 2 - i));
                i = close + 1;
                continue;
            }
        }
        if (inClass && c == ']')
            inClass = false;
        out += c;
    }
    return out;
}

struct Regex::Compiled
{
    pcre2_code *code = nullptr;
    pcre2_match_context *context = nullptr;
    pcre2_jit_stack *jitStack = nullptr;
    bool jit = false;
    mutable std::mutex mutex; // the JIT stack is shared by the matches of this pattern

    ~Compiled()
    {
        if (jitStack)
            pcre2_jit_stack_free(jitStack);
        if (context)
            pcre2_match_context_free(context);
        if (code)
            pcre2_code_free(code);
    }
};

Regex::Regex(std::string_view pattern)
    : m_compiled(std::make_unique<Compiled>())
    , m_pattern(pattern)
{
    if (firstInvalidUtf8(pattern) != std::string_view::npos)
        throw Error("the regex is not valid UTF-8");
    const std::string translated = onigurumaToPcre2(pattern);
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    pcre2_compile_context *compileContext = pcre2_compile_context_create(nullptr);
    pcre2_set_newline(compileContext, PCRE2_NEWLINE_LF);
    pcre2_set_parens_nest_limit(compileContext, 250);
    m_compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                                     PCRE2_UTF | PCRE2_UCP, &errorCode, &errorOffset, compileContext);
    pcre2_compile_context_free(compileContext);
    if (!m_compiled->code)
        throw Error("the regex does not compile: " + pcre2Message(errorCode) + " at offset "
                    + std::to_string(errorOffset));
    m_compiled->jit = pcre2_jit_compile(m_compiled->code, PCRE2_JIT_COMPLETE) == 0;
    m_compiled->context = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(m_compiled->context, kMatchLimit);
    pcre2_set_depth_limit(m_compiled->context, kDepthLimit);
    pcre2_set_heap_limit(m_compiled->context, kHeapLimitKiB);
    if (m_compiled->jit) {
        m_compiled->jitStack = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr);
        if (m_compiled->jitStack)
            pcre2_jit_stack_assign(m_compiled->context, nullptr, m_compiled->jitStack);
    }
}

Regex::~Regex() = default;

std::vector<std::pair<std::size_t, std::size_t>> Regex::findAll(std::string_view text) const
{
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
        pcre2_match_data_create_from_pattern(m_compiled->code, nullptr), &pcre2_match_data_free);
    const std::lock_guard lock(m_compiled->mutex);
    const auto *subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::size_t start = 0;
    while (start <= text.size()) {
        const int rc = pcre2_match(m_compiled->code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, data.get(),
                                   m_compiled->context);
        if (rc == PCRE2_ERROR_NOMATCH)
            break;
        if (rc < 0) {
            const bool bounded = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT
                || rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT;
            const std::string shown = m_pattern.size() > 60 ? m_pattern.substr(0, 60) + "..." : m_pattern;
            throw Error("the regex /" + shown + "/ "
                        + (bounded ? "backtracks too much (a catastrophic pattern?): " : "failed: ") + pcre2Message(rc)
                        + " at byte " + std::to_string(start) + " of a " + std::to_string(text.size()) + "-byte text");
        }
        const PCRE2_SIZE *ovector = pcre2_get_ovector_pointer(data.get());
        const std::size_t begin = ovector[0];
        const std::size_t end = ovector[1];
        if (end > begin) {
            matches.emplace_back(begin, end);
            start = end;
        } else {
            // An empty match: step over one character, as Oniguruma's search does.
            if (begin >= text.size())
                break;
            std::size_t next = begin;
            nextCodePoint(text, next);
            start = next;
        }
    }
    return matches;
}

} // namespace specdec::tok
