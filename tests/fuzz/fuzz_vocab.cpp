// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the vocabulary JSON of an ONNX model ("specdec.vocab", a JSON array of strings) and the
// vocabulary built from it.
#include "Error.h"
#include "Utf8.h"
#include "Vocabulary.h"
#include "onnx/OnnxLanguageModel.h"

#include <cstdint>
#include <cstdlib>

using namespace specdec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view json(reinterpret_cast<const char *>(data), size);
    std::vector<std::u32string> items;
    try {
        items = parseJsonStringArray(json, "fuzz vocab");
    } catch (const Error &) {
        return 0;
    }
    std::vector<char32_t> tokens;
    for (const std::u32string &item : items) {
        encodeUtf8(item); // every decoded string is valid Unicode
        if (item.size() == 1)
            tokens.push_back(item[0]);
    }
    try {
        const Vocabulary vocabulary = Vocabulary::fromTokens(tokens);
        for (TokenId id = 0; id < vocabulary.size(); ++id)
            if (vocabulary.find(vocabulary.token(id)) != id)
                std::abort();
    } catch (const Error &) {
    }
    return 0;
}
