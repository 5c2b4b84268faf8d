// SPDX-License-Identifier: GPL-3.0-or-later
#include "AddedVocabulary.h"

#include "Normalizer.h"
#include "TextUnits.h"

#include <algorithm>

namespace specdec::tok {

namespace {

bool isWordChar(char32_t c)
{
    return isAlphanumeric(c) || c == '_';
}

char32_t lastCodePoint(std::string_view text, std::size_t end, std::size_t *begin)
{
    std::size_t start = end - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
        --start;
    std::size_t i = start;
    *begin = start;
    return nextCodePoint(text, i);
}

} // namespace

void AddedVocabulary::Trie::insert(std::string_view text, int token)
{
    int node = 0;
    for (const char ch : text) {
        const auto byte = static_cast<unsigned char>(ch);
        auto &children = nodes[static_cast<std::size_t>(node)].children;
        const auto it = std::lower_bound(children.begin(), children.end(), byte,
                                         [](const auto &child, unsigned char b) { return child.first < b; });
        if (it != children.end() && it->first == byte) {
            node = it->second;
        } else {
            const int created = static_cast<int>(nodes.size());
            children.insert(it, {byte, created});
            nodes.emplace_back();
            node = created;
        }
    }
    nodes[static_cast<std::size_t>(node)].token = token;
}

std::pair<int, std::size_t> AddedVocabulary::Trie::longestAt(std::string_view text, std::size_t at) const
{
    std::pair<int, std::size_t> best{-1, at};
    int node = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        const auto &children = nodes[static_cast<std::size_t>(node)].children;
        const auto it = std::lower_bound(children.begin(), children.end(), byte,
                                         [](const auto &child, unsigned char b) { return child.first < b; });
        if (it == children.end() || it->first != byte)
            break;
        node = it->second;
        if (nodes[static_cast<std::size_t>(node)].token >= 0)
            best = {nodes[static_cast<std::size_t>(node)].token, i + 1};
    }
    return best;
}

AddedVocabulary::AddedVocabulary(const Json &addedTokens, const Normalizer *normalizer)
{
    if (addedTokens.is_null())
        return;
    if (!addedTokens.is_array())
        fail("\"added_tokens\" is not an array");
    for (const Json &item : addedTokens) {
        AddedToken token;
        token.id = idValue(member(item, "id", "an added token"), "an added token's id");
        token.content = stringMember(item, "content", "an added token");
        if (token.content.empty())
            fail("the added token " + std::to_string(token.id) + " is empty");
        token.singleWord = optionalBool(item, "single_word", false);
        token.lstrip = optionalBool(item, "lstrip", false);
        token.rstrip = optionalBool(item, "rstrip", false);
        token.normalized = optionalBool(item, "normalized", true);
        token.special = optionalBool(item, "special", false);
        m_tokens.push_back(std::move(token));
    }
    for (std::size_t t = 0; t < m_tokens.size(); ++t) {
        const AddedToken &token = m_tokens[t];
        m_byId[token.id] = t;
        if (!token.normalized || !normalizer) {
            (token.normalized ? m_normalized : m_raw).insert(token.content, static_cast<int>(t));
        } else {
            std::string form = token.content;
            normalizer->normalize(form);
            if (!form.empty())
                m_normalized.insert(form, static_cast<int>(t));
        }
    }
}

const AddedToken *AddedVocabulary::byId(PieceId id) const
{
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? nullptr : &m_tokens[it->second];
}

const AddedToken *AddedVocabulary::byContent(std::string_view content) const
{
    for (const AddedToken &token : m_tokens)
        if (token.content == content)
            return &token;
    return nullptr;
}

void AddedVocabulary::cut(const std::string &text, const Trie &trie, bool atStart, std::vector<TextPiece> &out) const
{
    if (trie.empty()) {
        if (!text.empty())
            out.push_back({text, std::nullopt, atStart});
        return;
    }
    std::size_t pieceStart = 0; // start of the text not yet emitted
    std::size_t i = 0;
    while (i < text.size()) {
        const auto [token, matchEnd] = trie.longestAt(text, i);
        if (token < 0) {
            ++i;
            continue;
        }
        const AddedToken &added = m_tokens[static_cast<std::size_t>(token)];
        std::size_t start = i;
        std::size_t stop = matchEnd;
        if (added.singleWord) {
            std::size_t before = 0;
            const bool startOk = start == 0 || !isWordChar(lastCodePoint(text, start, &before));
            std::size_t after = stop;
            const bool stopOk = stop == text.size() || !isWordChar(nextCodePoint(text, after));
            if (!startOk || !stopOk) {
                i = matchEnd; // as HF: the rejected match is skipped, shorter ones are not tried
                continue;
            }
        }
        if (added.lstrip) {
            while (start > pieceStart) {
                std::size_t before = 0;
                if (!isWhitespace(lastCodePoint(text, start, &before)))
                    break;
                start = before;
            }
        }
        if (added.rstrip) {
            while (stop < text.size()) {
                std::size_t after = stop;
                if (!isWhitespace(nextCodePoint(text, after)))
                    break;
                stop = after;
            }
        }
        if (start > pieceStart)
            out.push_back({text.substr(pieceStart, start - pieceStart), std::nullopt, atStart && pieceStart == 0});
        out.push_back({text.substr(start, stop - start), added.id, atStart && start == 0});
        pieceStart = stop;
        i = stop;
    }
    if (pieceStart < text.size())
        out.push_back({text.substr(pieceStart), std::nullopt, atStart && pieceStart == 0});
}

std::vector<TextPiece> AddedVocabulary::split(std::string_view text, const Normalizer *normalizer) const
{
    std::vector<TextPiece> raw;
    cut(std::string(text), m_raw, true, raw);
    std::vector<TextPiece> out;
    out.reserve(raw.size());
    for (TextPiece &piece : raw) {
        if (piece.added) {
            out.push_back(std::move(piece));
            continue;
        }
        if (normalizer)
            normalizer->normalize(piece.text);
        cut(piece.text, m_normalized, piece.atStart, out);
    }
    return out;
}

} // namespace specdec::tok
