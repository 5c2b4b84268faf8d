// SPDX-License-Identifier: GPL-3.0-or-later
#include "Normalizer.h"

#include "Pattern.h"
#include "TextUnits.h"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <vector>

namespace specdec::tok {

namespace {

class UnicodeForm : public Normalizer
{
public:
    enum class Form { NFC, NFKC, NFD, NFKD };
    explicit UnicodeForm(Form form)
    {
        UErrorCode status = U_ZERO_ERROR;
        switch (form) {
        case Form::NFC: m_normalizer = icu::Normalizer2::getNFCInstance(status); break;
        case Form::NFKC: m_normalizer = icu::Normalizer2::getNFKCInstance(status); break;
        case Form::NFD: m_normalizer = icu::Normalizer2::getNFDInstance(status); break;
        case Form::NFKD: m_normalizer = icu::Normalizer2::getNFKDInstance(status); break;
        }
        if (U_FAILURE(status) || !m_normalizer)
            fail(std::string("ICU cannot give its normalizer: ") + u_errorName(status));
    }
    void normalize(std::string &text) const override
    {
        UErrorCode status = U_ZERO_ERROR;
        const icu::UnicodeString source = icu::UnicodeString::fromUTF8(text);
        if (m_normalizer->isNormalized(source, status) && U_SUCCESS(status))
            return;
        status = U_ZERO_ERROR;
        const icu::UnicodeString normalized = m_normalizer->normalize(source, status);
        if (U_FAILURE(status))
            fail(std::string("ICU normalization failed: ") + u_errorName(status));
        text.clear();
        normalized.toUTF8String(text);
    }

private:
    const icu::Normalizer2 *m_normalizer = nullptr;
};

/// Each character's full lowercase mapping on its own (Rust's char::to_lowercase, as HF does: no final-sigma
/// context).
class Lowercase : public Normalizer
{
public:
    void normalize(std::string &text) const override
    {
        std::string out;
        out.reserve(text.size());
        for (std::size_t i = 0; i < text.size();) {
            const auto b = static_cast<unsigned char>(text[i]);
            if (b < 0x80) {
                out += static_cast<char>(b >= 'A' && b <= 'Z' ? b + 32 : b);
                ++i;
                continue;
            }
            icu::UnicodeString one(static_cast<UChar32>(nextCodePoint(text, i)));
            one.toLower(icu::Locale::getRoot());
            one.toUTF8String(out);
        }
        text = std::move(out);
    }
};

class Replace : public Normalizer
{
public:
    Replace(Pattern pattern, std::string content)
        : m_pattern(std::move(pattern))
        , m_content(std::move(content))
    {
    }
    void normalize(std::string &text) const override { text = m_pattern.replaceAll(text, m_content); }

private:
    Pattern m_pattern;
    std::string m_content;
};

class Prepend : public Normalizer
{
public:
    explicit Prepend(std::string prefix)
        : m_prefix(std::move(prefix))
    {
    }
    void normalize(std::string &text) const override
    {
        if (!text.empty())
            text.insert(0, m_prefix);
    }

private:
    std::string m_prefix;
};

class Strip : public Normalizer
{
public:
    Strip(bool left, bool right)
        : m_left(left)
        , m_right(right)
    {
    }
    void normalize(std::string &text) const override
    {
        std::size_t begin = 0;
        std::size_t end = text.size();
        if (m_left) {
            while (begin < end) {
                std::size_t next = begin;
                if (!isWhitespace(nextCodePoint(text, next)))
                    break;
                begin = next;
            }
        }
        if (m_right) {
            while (end > begin) {
                std::size_t start = end - 1;
                while (start > begin && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
                    --start;
                std::size_t next = start;
                if (!isWhitespace(nextCodePoint(text, next)))
                    break;
                end = start;
            }
        }
        text = text.substr(begin, end - begin);
    }

private:
    bool m_left;
    bool m_right;
};

class Sequence : public Normalizer
{
public:
    explicit Sequence(std::vector<std::unique_ptr<Normalizer>> stages)
        : m_stages(std::move(stages))
    {
    }
    void normalize(std::string &text) const override
    {
        for (const auto &stage : m_stages)
            stage->normalize(text);
    }

private:
    std::vector<std::unique_ptr<Normalizer>> m_stages;
};

} // namespace

std::unique_ptr<Normalizer> Normalizer::fromJson(const Json &json)
{
    if (json.is_null())
        return nullptr;
    const std::string type = stringMember(json, "type", "the normalizer");
    if (type == "NFC")
        return std::make_unique<UnicodeForm>(UnicodeForm::Form::NFC);
    if (type == "NFKC")
        return std::make_unique<UnicodeForm>(UnicodeForm::Form::NFKC);
    if (type == "NFD")
        return std::make_unique<UnicodeForm>(UnicodeForm::Form::NFD);
    if (type == "NFKD")
        return std::make_unique<UnicodeForm>(UnicodeForm::Form::NFKD);
    if (type == "Lowercase")
        return std::make_unique<Lowercase>();
    if (type == "Replace")
        return std::make_unique<Replace>(Pattern::fromJson(member(json, "pattern", "the Replace normalizer")),
                                         stringMember(json, "content", "the Replace normalizer"));
    if (type == "Prepend")
        return std::make_unique<Prepend>(stringMember(json, "prepend", "the Prepend normalizer"));
    if (type == "Strip")
        return std::make_unique<Strip>(optionalBool(json, "strip_left", true), optionalBool(json, "strip_right", true));
    if (type == "Sequence") {
        const Json &list = member(json, "normalizers", "the Sequence normalizer");
        if (!list.is_array())
            fail("the Sequence normalizer's \"normalizers\" is not an array");
        std::vector<std::unique_ptr<Normalizer>> stages;
        for (const Json &item : list)
            if (auto stage = fromJson(item))
                stages.push_back(std::move(stage));
        return std::make_unique<Sequence>(std::move(stages));
    }
    fail("the normalizer \"" + type
         + "\" is not supported (NFC, NFKC, NFD, NFKD, Lowercase, Replace, Prepend, "
           "Strip, Sequence are)");
}

} // namespace specdec::tok
