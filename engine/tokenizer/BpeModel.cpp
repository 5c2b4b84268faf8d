// SPDX-License-Identifier: GPL-3.0-or-later
#include "BpeModel.h"

#include "TextUnits.h"

#include <algorithm>
#include <cstdio>
#include <queue>

namespace specdec::tok {

namespace {

constexpr std::size_t kCacheWordBytes = 256;
constexpr std::size_t kCacheEntries = 200'000;
constexpr std::uint32_t kMaxId = 1u << 22; // 4M ids (Gemma-3 has 262k): pieces are stored by id

/// The two pieces of a merge, "a b" or ["a", "b"].
std::pair<std::string, std::string> mergePair(const Json &merge, std::size_t index)
{
    if (merge.is_string()) {
        const std::string text = merge.get<std::string>();
        const std::size_t space = text.find(' ');
        if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos)
            fail("merge " + std::to_string(index) + " \"" + text + "\" is not two pieces separated by one space");
        return {text.substr(0, space), text.substr(space + 1)};
    }
    if (merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string())
        return {merge[0].get<std::string>(), merge[1].get<std::string>()};
    fail("merge " + std::to_string(index) + " is neither \"a b\" nor [\"a\", \"b\"]");
}

} // namespace

BpeModel BpeModel::fromJson(const Json &model)
{
    const std::string type = optionalString(model, "type", "BPE");
    if (type != "BPE")
        fail("the model \"" + type + "\" is not supported (BPE is)");
    if (model.contains("dropout") && !model["dropout"].is_null() && model["dropout"].is_number()
        && model["dropout"].get<double>() > 0)
        fail("BPE dropout is not supported (encoding would be random)");
    BpeModel bpe;
    const Json &vocab = member(model, "vocab", "the model");
    if (!vocab.is_object())
        fail("the model's vocab is not a JSON object of piece: id");
    bpe.m_vocab.reserve(vocab.size());
    std::size_t bound = 0;
    for (const auto &[piece, idJson] : vocab.items()) {
        const PieceId id = idValue(idJson, "a vocabulary id");
        if (id >= kMaxId)
            fail("the vocabulary id " + std::to_string(id) + " of \"" + piece + "\" is above " + std::to_string(kMaxId));
        bound = std::max<std::size_t>(bound, std::size_t(id) + 1);
        bpe.m_vocab.emplace(piece, id);
    }
    bpe.m_pieces.assign(bound, {});
    bpe.m_hasPiece.assign(bound, false);
    for (const auto &[piece, id] : bpe.m_vocab) {
        if (bpe.m_hasPiece[id])
            fail("the vocabulary gives id " + std::to_string(id) + " to both \"" + bpe.m_pieces[id] + "\" and \""
                 + piece + "\"");
        bpe.m_pieces[id] = piece;
        bpe.m_hasPiece[id] = true;
    }

    bpe.m_prefix = optionalString(model, "continuing_subword_prefix");
    bpe.m_suffix = optionalString(model, "end_of_word_suffix");
    bpe.m_fuseUnk = optionalBool(model, "fuse_unk", false);
    bpe.m_byteFallback = optionalBool(model, "byte_fallback", false);
    bpe.m_ignoreMerges = optionalBool(model, "ignore_merges", false);
    if (const std::string unk = optionalString(model, "unk_token"); !unk.empty()) {
        const auto it = bpe.m_vocab.find(unk);
        if (it == bpe.m_vocab.end())
            fail("the unk_token \"" + unk + "\" is not in the vocabulary");
        bpe.m_unk = it->second;
    }
    for (int b = 0; b < 256; ++b) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        if (const auto it = bpe.m_vocab.find(name); it != bpe.m_vocab.end())
            bpe.m_byteTokens[static_cast<std::size_t>(b)] = it->second;
    }

    const Json &merges = member(model, "merges", "the model");
    if (!merges.is_array())
        fail("the model's merges is not an array");
    bpe.m_merges.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto [a, b] = mergePair(merges[rank], rank);
        const auto ia = bpe.m_vocab.find(a);
        const auto ib = bpe.m_vocab.find(b);
        if (ia == bpe.m_vocab.end() || ib == bpe.m_vocab.end())
            fail("merge " + std::to_string(rank) + " (\"" + a + "\", \"" + b + "\") names the piece \""
                 + (ia == bpe.m_vocab.end() ? a : b) + "\", which is not in the vocabulary");
        const std::size_t cut = b.starts_with(bpe.m_prefix) ? bpe.m_prefix.size() : 0;
        const std::string joined = a + b.substr(cut);
        const auto ij = bpe.m_vocab.find(joined);
        if (ij == bpe.m_vocab.end())
            fail("merge " + std::to_string(rank) + " (\"" + a + "\", \"" + b + "\") makes \"" + joined
                 + "\", which is not in the vocabulary");
        bpe.m_merges[pairKey(ia->second, ib->second)] = Merge{static_cast<std::uint32_t>(rank), ij->second};
    }
    bpe.findMetaspaceCuts();
    return bpe;
}

namespace {
constexpr std::string_view kMetaspace = "\xE2\x96\x81";
}

void BpeModel::findMetaspaceCuts()
{
    m_cutBeforeMetaspace = false;
    if (m_ignoreMerges || !m_prefix.empty() || !m_suffix.empty() || !m_vocab.contains(std::string(kMetaspace)))
        return;
    for (const auto &[piece, id] : m_vocab) {
        for (std::size_t at = piece.find(kMetaspace, 1); at != std::string::npos;
             at = piece.find(kMetaspace, at + kMetaspace.size())) {
            std::size_t start = at - 1;
            while (start > 0 && (static_cast<unsigned char>(piece[start]) & 0xC0) == 0x80)
                --start;
            std::size_t i = start;
            const char32_t before = nextCodePoint(piece, i);
            if (before != U'\u2581')
                m_beforeMetaspace.push_back(before);
        }
    }
    std::sort(m_beforeMetaspace.begin(), m_beforeMetaspace.end());
    m_beforeMetaspace.erase(std::unique(m_beforeMetaspace.begin(), m_beforeMetaspace.end()), m_beforeMetaspace.end());
    // Byte-fallback and unknown symbols end in '>' whatever the text: with a piece holding ">▁", a character
    // the vocabulary lacks allows no cut.
    m_unknownBeforeMetaspace = std::binary_search(m_beforeMetaspace.begin(), m_beforeMetaspace.end(), U'>');
    m_cutBeforeMetaspace = true;
}

std::optional<PieceId> BpeModel::find(std::string_view piece) const
{
    const auto it = m_vocab.find(std::string(piece));
    if (it == m_vocab.end())
        return std::nullopt;
    return it->second;
}

const std::string *BpeModel::piece(PieceId id) const
{
    return id < m_pieces.size() && m_hasPiece[id] ? &m_pieces[id] : nullptr;
}

void BpeModel::encodeWord(std::string_view word, std::vector<PieceId> &ids) const
{
    if (word.empty())
        return;
    if (!m_cutBeforeMetaspace) {
        encodeWhole(word, ids);
        return;
    }
    // Cut before each "▁" that follows a character no piece has before a "▁".
    std::size_t partStart = 0;
    std::size_t previousStart = std::string_view::npos;
    for (std::size_t i = 0; i < word.size();) {
        const std::size_t start = i;
        const char32_t c = nextCodePoint(word, i);
        if (c == U'\u2581' && previousStart != std::string_view::npos && start > partStart) {
            std::size_t p = previousStart;
            const char32_t before = nextCodePoint(word, p);
            const bool known = !m_unknownBeforeMetaspace
                || m_vocab.contains(std::string(word.substr(previousStart, start - previousStart)));
            if (before != U'\u2581' && known
                && !std::binary_search(m_beforeMetaspace.begin(), m_beforeMetaspace.end(), before)) {
                encodeWhole(word.substr(partStart, start - partStart), ids);
                partStart = start;
            }
        }
        previousStart = start;
    }
    encodeWhole(word.substr(partStart), ids);
}

void BpeModel::encodeWhole(std::string_view word, std::vector<PieceId> &ids) const
{
    const bool cacheable = word.size() <= kCacheWordBytes;
    const std::string key(cacheable ? word : std::string_view());
    if (cacheable) {
        const std::lock_guard lock(m_cache->mutex);
        if (const auto it = m_cache->words.find(key); it != m_cache->words.end()) {
            ids.insert(ids.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    if (m_ignoreMerges) {
        if (const auto it = m_vocab.find(std::string(word)); it != m_vocab.end()) {
            ids.push_back(it->second);
            return;
        }
    }
    const std::size_t first = ids.size();
    merge(word, ids);
    if (cacheable) {
        const std::lock_guard lock(m_cache->mutex);
        if (m_cache->words.size() < kCacheEntries)
            m_cache->words.emplace(key,
                                   std::vector<PieceId>(ids.begin() + static_cast<std::ptrdiff_t>(first), ids.end()));
    }
}

void BpeModel::merge(std::string_view word, std::vector<PieceId> &ids) const
{
    // The word's symbols, a doubly linked list as in HF's Word (len 0: merged away).
    struct Symbol
    {
        PieceId id;
        int prev;
        int next;
        bool alive;
    };
    std::vector<Symbol> symbols;
    symbols.reserve(word.size());
    auto add = [&](PieceId id) {
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({id, index - 1, -1, true});
        if (index > 0)
            symbols[static_cast<std::size_t>(index - 1)].next = index;
    };

    bool hasPendingUnk = false; // an unknown character (or fused run) not added yet
    std::string lookup;
    for (std::size_t i = 0; i < word.size();) {
        const std::size_t begin = i;
        i += std::min(sequenceLength(static_cast<unsigned char>(word[i])), word.size() - i);
        lookup.clear();
        if (begin > 0)
            lookup += m_prefix;
        lookup.append(word.substr(begin, i - begin));
        if (i == word.size())
            lookup += m_suffix;
        if (const auto it = m_vocab.find(lookup); it != m_vocab.end()) {
            if (hasPendingUnk) {
                add(*m_unk);
                hasPendingUnk = false;
            }
            add(it->second);
            continue;
        }
        if (m_byteFallback) {
            bool all = true;
            for (const char b : lookup)
                all = all && m_byteTokens[static_cast<unsigned char>(b)].has_value();
            if (all) {
                // As HF: a pending unknown is not flushed before the byte tokens.
                for (const char b : lookup)
                    add(*m_byteTokens[static_cast<unsigned char>(b)]);
                continue;
            }
        }
        if (m_unk) {
            if (hasPendingUnk && !m_fuseUnk)
                add(*m_unk);
            hasPendingUnk = true;
        }
    }
    if (hasPendingUnk)
        add(*m_unk);

    // Merge: a min-heap of (rank, position), lowest rank first, leftmost first among equal ranks.
    struct Candidate
    {
        std::uint32_t rank;
        int position;
        PieceId result;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : position > o.position; }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
    auto consider = [&](int left) {
        const int right = symbols[static_cast<std::size_t>(left)].next;
        if (right < 0)
            return;
        const auto it = m_merges.find(
            pairKey(symbols[static_cast<std::size_t>(left)].id, symbols[static_cast<std::size_t>(right)].id));
        if (it != m_merges.end())
            queue.push({it->second.rank, left, it->second.result});
    };
    for (int s = 0; s + 1 < static_cast<int>(symbols.size()); ++s)
        consider(s);
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol &left = symbols[static_cast<std::size_t>(top.position)];
        if (!left.alive || left.next < 0)
            continue;
        Symbol &right = symbols[static_cast<std::size_t>(left.next)];
        const auto it = m_merges.find(pairKey(left.id, right.id));
        if (it == m_merges.end() || it->second.result != top.result)
            continue;
        left.id = top.result;
        right.alive = false;
        left.next = right.next;
        if (right.next >= 0)
            symbols[static_cast<std::size_t>(right.next)].prev = top.position;
        if (left.prev >= 0)
            consider(left.prev);
        consider(top.position);
    }
    for (const Symbol &s : symbols)
        if (s.alive)
            ids.push_back(s.id);
}

} // namespace specdec::tok
