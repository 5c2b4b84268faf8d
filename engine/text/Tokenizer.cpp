// SPDX-License-Identifier: GPL-3.0-or-later
#include "Tokenizer.h"

#include "Error.h"
#include "Utf8.h"
#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/HfTokenizer.h"
#include "tokenizer/TextUnits.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace specdec {

struct Tokenizer::Impl
{
    Kind kind = Kind::Chars;
    Vocabulary vocabulary;                // chars
    std::string source;                   // chars: the corpus or model file; tokenizer.json: its folder's name
    std::unique_ptr<tok::HfTokenizer> hf; // tokenizer.json
    std::vector<TokenPiece> pieces;       // tokenizer.json: every id's piece, made once at load
};

namespace {

std::string hexByte(unsigned char b)
{
    char code[8];
    std::snprintf(code, sizeof code, "<%02X>", static_cast<unsigned>(b));
    return code;
}

/// "<0xE5>" -> 0xE5, else -1.
int byteFallbackValue(std::string_view text)
{
    if (text.size() != 6 || text.substr(0, 3) != "<0x" || text[5] != '>')
        return -1;
    int value = 0;
    for (const char c : text.substr(3, 2)) {
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= c - '0';
        else if (c >= 'A' && c <= 'F')
            value |= c - 'A' + 10;
        else if (c >= 'a' && c <= 'f')
            value |= c - 'a' + 10;
        else
            return -1;
    }
    return value;
}

/// Whole UTF-8 characters as they are (a space as "␣"), every other byte as <E5>.
std::string showBytes(std::string_view bytes)
{
    std::string out;
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto lead = static_cast<unsigned char>(bytes[i]);
        const std::size_t n = tok::sequenceLength(lead);
        if (n > 0 && i + n <= bytes.size() && tok::firstInvalidUtf8(bytes.substr(i, n)) == std::string_view::npos) {
            if (bytes[i] == ' ')
                out += "\u2423";
            else
                out.append(bytes.substr(i, n));
            i += n;
        } else {
            out += hexByte(lead);
            ++i;
        }
    }
    return out;
}

TokenPiece hfPiece(const tok::HfTokenizer &hf, TokenId id)
{
    TokenPiece piece;
    const auto raw = hf.piece(static_cast<tok::PieceId>(id));
    if (!raw) {
        piece.text = "<id " + std::to_string(id) + ">";
        piece.kind = TokenPiece::Kind::Special;
        return piece;
    }
    piece.text = *raw;
    if (hf.isSpecial(static_cast<tok::PieceId>(id))) {
        piece.kind = TokenPiece::Kind::Special;
        piece.bytes = piece.text;
        return piece;
    }
    if (const int byte = byteFallbackValue(piece.text); byte >= 0) {
        piece.kind = TokenPiece::Kind::Byte;
        piece.bytes.assign(1, static_cast<char>(byte));
        return piece;
    }
    piece.bytes = piece.text;
    if (hf.byteLevel()) {
        std::string bytes;
        bool all = true;
        for (const char32_t c : decodeUtf8(piece.text, "piece")) {
            const int b = tok::byteLevelByte(c);
            if (b < 0) {
                all = false;
                break;
            }
            bytes.push_back(static_cast<char>(b));
        }
        if (all)
            piece.bytes = std::move(bytes);
    }
    if (tok::firstInvalidUtf8(piece.bytes) != std::string_view::npos)
        piece.kind = TokenPiece::Kind::Byte;
    return piece;
}

/// A piece in a message: quoted, control characters written as \n or U+0001.
std::string quotedPiece(const Tokenizer &tokenizer, TokenId id)
{
    if (const Vocabulary *characters = tokenizer.characters())
        return displayCodePoint(characters->token(id));
    std::string out = "'";
    for (const char c : tokenizer.display(id)) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\r')
            out += "\\r";
        else if (static_cast<unsigned char>(c) < 0x20)
            out += hexByte(static_cast<unsigned char>(c));
        else
            out += c;
    }
    return out + "'";
}

std::span<const tok::PieceId> pieceIds(std::span<const TokenId> ids, std::vector<tok::PieceId> &scratch)
{
    scratch.clear();
    for (const TokenId id : ids) {
        if (id >= 0)
            scratch.push_back(static_cast<tok::PieceId>(id));
    }
    return scratch;
}

} // namespace

std::string displayPiece(const TokenPiece &piece)
{
    switch (piece.kind) {
    case TokenPiece::Kind::Special: return piece.text;
    case TokenPiece::Kind::Byte:
    case TokenPiece::Kind::Text: return showBytes(piece.bytes);
    }
    return piece.text;
}

std::string groupedNumber(long long value)
{
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

Tokenizer::Tokenizer()
    : m_impl(std::make_shared<Impl>())
{
}

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl)
    : m_impl(std::move(impl))
{
}

Tokenizer Tokenizer::chars(Vocabulary vocabulary, std::string source)
{
    auto impl = std::make_shared<Impl>();
    impl->vocabulary = std::move(vocabulary);
    impl->source = std::move(source);
    return Tokenizer(std::move(impl));
}

Tokenizer Tokenizer::load(const std::string &path)
{
    auto impl = std::make_shared<Impl>();
    impl->kind = Kind::HuggingFace;
    impl->hf = std::make_unique<tok::HfTokenizer>(tok::HfTokenizer::load(path));
    std::filesystem::path file(impl->hf->name());
    impl->source = file.parent_path().filename().string();
    const std::size_t bound = impl->hf->idBound();
    if (bound == 0 || bound > (std::size_t{1} << 21))
        throw Error(impl->hf->name() + ": " + std::to_string(bound)
                    + " token ids; the engine takes tokenizers of 1 to 2,097,152 ids");
    impl->pieces.reserve(bound);
    for (std::size_t id = 0; id < bound; ++id)
        impl->pieces.push_back(hfPiece(*impl->hf, static_cast<TokenId>(id)));
    return Tokenizer(std::move(impl));
}

Tokenizer::Kind Tokenizer::kind() const
{
    return m_impl->kind;
}

int Tokenizer::size() const
{
    return m_impl->kind == Kind::Chars ? m_impl->vocabulary.size() : static_cast<int>(m_impl->pieces.size());
}

const Vocabulary *Tokenizer::characters() const
{
    return m_impl->kind == Kind::Chars ? &m_impl->vocabulary : nullptr;
}

const tok::HfTokenizer *Tokenizer::huggingFace() const
{
    return m_impl->hf.get();
}

std::vector<TokenId> Tokenizer::encode(std::string_view text, std::string_view what) const
{
    if (m_impl->kind == Kind::Chars)
        return m_impl->vocabulary.encode(decodeUtf8(text, what), what);
    try {
        const std::vector<tok::PieceId> ids = m_impl->hf->encode(text, /*addSpecialTokens=*/false);
        return {ids.begin(), ids.end()};
    } catch (const Error &e) {
        throw Error(std::string(what) + ": " + e.what());
    }
}

std::vector<TokenId> Tokenizer::encode(std::u32string_view text, std::string_view what) const
{
    if (m_impl->kind == Kind::Chars)
        return m_impl->vocabulary.encode(text, what);
    return encode(std::string_view(encodeUtf8(text)), what);
}

std::string Tokenizer::decode(std::span<const TokenId> ids) const
{
    if (m_impl->kind == Kind::Chars) {
        std::string out;
        for (const TokenId id : ids) {
            if (id >= 0 && id < size())
                out += encodeUtf8(m_impl->vocabulary.token(id));
        }
        return out;
    }
    std::vector<tok::PieceId> scratch;
    return m_impl->hf->decode(pieceIds(ids, scratch));
}

std::string Tokenizer::decodeAfter(std::span<const TokenId> context, std::span<const TokenId> ids) const
{
    if (m_impl->kind == Kind::Chars || context.empty())
        return decode(ids);
    std::vector<TokenId> all(context.begin(), context.end());
    all.insert(all.end(), ids.begin(), ids.end());
    const std::string whole = decode(all);
    const std::string before = decode(context);
    if (whole.compare(0, before.size(), before) == 0)
        return whole.substr(before.size());
    return decode(ids);
}

TokenPiece Tokenizer::piece(TokenId id) const
{
    if (id < 0 || id >= size())
        return {TokenPiece::Kind::Special, "?", "?"};
    if (m_impl->kind == Kind::HuggingFace)
        return m_impl->pieces[static_cast<std::size_t>(id)];
    const std::string text = encodeUtf8(m_impl->vocabulary.token(id));
    return {TokenPiece::Kind::Text, text, text};
}

std::string Tokenizer::display(TokenId id) const
{
    if (id < 0 || id >= size())
        return "?";
    if (m_impl->kind == Kind::Chars)
        return encodeUtf8(m_impl->vocabulary.token(id));
    return displayPiece(m_impl->pieces[static_cast<std::size_t>(id)]);
}

std::string Tokenizer::describe() const
{
    const std::string ids = " (" + groupedNumber(size()) + " ids)";
    if (m_impl->kind == Kind::Chars)
        return "the chars tokenizer" + (m_impl->source.empty() ? std::string() : " of " + m_impl->source) + ids;
    return (m_impl->source.empty() ? std::string("a") : m_impl->source + "'s") + " tokenizer.json" + ids;
}

bool operator==(const Tokenizer &a, const Tokenizer &b)
{
    if (a.m_impl == b.m_impl)
        return true;
    if (a.kind() != b.kind() || a.size() != b.size())
        return false;
    if (a.kind() == Tokenizer::Kind::Chars)
        return a.m_impl->vocabulary == b.m_impl->vocabulary;
    return a.m_impl->hf->fingerprint() == b.m_impl->hf->fingerprint();
}

void Tokenizer::requireSame(const Tokenizer &target, const Tokenizer &draft)
{
    if (target == draft)
        return;
    std::string message = "draft and target tokenizers differ: the draft uses " + draft.describe() + ", the target "
        + target.describe();
    if (target.kind() == Kind::Chars && draft.kind() == Kind::Chars) {
        const auto onlyTarget = target.characters()->missingFrom(*draft.characters());
        const auto onlyDraft = draft.characters()->missingFrom(*target.characters());
        if (!onlyTarget.empty())
            message += "; only in the target: " + describeCodePoints(onlyTarget);
        if (!onlyDraft.empty())
            message += "; only in the draft: " + describeCodePoints(onlyDraft);
        if (onlyTarget.empty() && onlyDraft.empty())
            message += "; same characters in a different order";
        throw Error(message);
    }
    if (target.kind() == Kind::HuggingFace && draft.kind() == Kind::HuggingFace) {
        const auto &t = target.huggingFace()->fingerprint();
        const auto &d = draft.huggingFace()->fingerprint();
        std::vector<std::string> parts;
        if (t.vocabulary != d.vocabulary)
            parts.push_back("vocabularies");
        if (t.merges != d.merges)
            parts.push_back("merges (target " + groupedNumber(static_cast<long long>(t.mergeCount)) + ", draft "
                            + groupedNumber(static_cast<long long>(d.mergeCount)) + ")");
        if (t.added != d.added)
            parts.push_back("added tokens");
        if (t.pipeline != d.pipeline)
            parts.push_back("normalizer, pre-tokenizer or decoder");
        if (!parts.empty()) {
            message += "; their ";
            for (std::size_t i = 0; i < parts.size(); ++i)
                message += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
            message += " differ";
        }
    }
    // The first ids whose pieces differ.
    const int common = std::min(target.size(), draft.size());
    int shown = 0;
    std::string ids;
    for (TokenId id = 0; id < common && shown < 3; ++id) {
        const TokenPiece a = target.piece(id);
        const TokenPiece b = draft.piece(id);
        if (a.text == b.text)
            continue;
        ids += (shown == 0 ? "" : ", ") + std::string("id ") + std::to_string(id) + " is " + quotedPiece(draft, id)
            + " in the draft, " + quotedPiece(target, id) + " in the target";
        ++shown;
    }
    if (!ids.empty())
        message += "; " + ids;
    else if (target.size() != draft.size())
        message += "; the first " + groupedNumber(common) + " ids agree";
    throw Error(message);
}

struct TextStream::State
{
    std::unique_ptr<tok::IncrementalDecoder> decoder;
};

TextStream::TextStream(const Tokenizer &tokenizer, std::span<const TokenId> context)
    : m_tokenizer(tokenizer)
    , m_state(std::make_unique<State>())
{
    if (const tok::HfTokenizer *hf = tokenizer.huggingFace()) {
        m_state->decoder = std::make_unique<tok::IncrementalDecoder>(*hf);
        for (const TokenId id : context) {
            if (id >= 0)
                m_state->decoder->push(static_cast<tok::PieceId>(id));
        }
    }
}

TextStream::~TextStream() = default;

std::string TextStream::push(std::span<const TokenId> ids)
{
    if (!m_state->decoder)
        return m_tokenizer.decode(ids);
    std::string out;
    for (const TokenId id : ids) {
        if (id >= 0)
            out += m_state->decoder->push(static_cast<tok::PieceId>(id));
    }
    return out;
}

std::string TextStream::pending() const
{
    return m_state->decoder ? m_state->decoder->pending() : std::string();
}

} // namespace specdec
