// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: a Hugging Face tokenizer.json (engine/tokenizer) -> load -> encode a fixed text and the input
// itself -> decode, whole and incrementally. Checks beyond "no crash": every id the model or the added tokens
// give has a piece (post-processor ids may not: a file can name any id), and the decode is valid UTF-8 plus a
// held tail of fewer than 4 bytes. (Incremental = whole is checked on the real files in test_tokenizer: a file's
// decoder may strip trailing text, which a stream cannot take back.)
#include "Error.h"
#include "tokenizer/HfTokenizer.h"
#include "tokenizer/TextUnits.h"

#include <cstdint>
#include <cstdlib>

using namespace specdec;
using namespace specdec::tok;

namespace {

void check(const HfTokenizer &tokenizer, std::string_view text)
{
    if (!text.empty()) // without the post-processor, every id comes from the vocabulary or the added tokens
        for (const PieceId id : tokenizer.encode(text.substr(0, 64), false))
            if (!tokenizer.piece(id))
                std::abort();
    const std::vector<PieceId> ids = tokenizer.encode(text);
    std::vector<PieceId> known;
    for (const PieceId id : ids)
        if (tokenizer.piece(id))
            known.push_back(id);
    const std::string whole = tokenizer.decodeBytes(known);
    IncrementalDecoder decoder(tokenizer);
    std::string streamed;
    for (const PieceId id : known)
        streamed += decoder.push(id);
    std::string tail;
    const std::string decoded = utf8Lossy(whole, &tail);
    if (firstInvalidUtf8(decoded) != std::string_view::npos || tail.size() > 3
        || firstInvalidUtf8(streamed) != std::string_view::npos)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char *>(data), size);
    try {
        const HfTokenizer tokenizer = HfTokenizer::fromJsonText(json, "fuzz tokenizer.json");
        check(tokenizer, "Hello world, it's 12345 \xE4\xBD\xA0\xE5\xA5\xBD <s>\n\t\v\xC2\x85 x  y\r\n\xF0\x9F\x98\x80");
        const std::string_view own = json.substr(0, 2048);
        if (firstInvalidUtf8(own) == std::string_view::npos)
            check(tokenizer, own);
    } catch (const Error &) {
    }
    return 0;
}
