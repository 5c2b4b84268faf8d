// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the UTF-8 / corpus reader. Bytes -> decodeUtf8 -> vocabulary -> token ids -> a small
// n-gram trained on them, whose distributions must be proper; valid text must survive a round trip.
#include "Error.h"
#include "NGramModel.h"
#include "Utf8.h"
#include "Vocabulary.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace specdec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > 4096)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    std::u32string text;
    try {
        text = decodeUtf8(bytes, "fuzz corpus");
    } catch (const Error &) {
        return 0;
    }
    // Decoding drops a leading byte-order mark and nothing else.
    const std::string again = encodeUtf8(text);
    const std::string_view expected = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? bytes.substr(3) : bytes;
    if (again != expected)
        std::abort();
    if (text.empty())
        return 0;
    const Vocabulary vocabulary = Vocabulary::fromText(text);
    std::vector<TokenId> ids;
    try {
        ids = vocabulary.encode(text, "fuzz corpus");
    } catch (const Error &) {
        std::abort(); // every character of the text is in its own vocabulary
    }
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= vocabulary.size() || vocabulary.token(ids[i]) != text[i])
            std::abort();
    for (const Smoothing smoothing : {Smoothing::KneserNey, Smoothing::AddK}) {
        const auto model = NGramModel::train(ids, Tokenizer::chars(vocabulary), {3, smoothing, 0.5});
        DistributionMatrix rows;
        const int m = static_cast<int>(std::min<std::size_t>(ids.size(), 4)) + 1;
        model->distributions(std::span<const TokenId>(ids.data(), static_cast<std::size_t>(m - 1)), m, rows);
        for (int r = 0; r < m; ++r)
            if (!(std::abs(rows.row(r).sum() - 1.0) < 1e-9) || (rows.row(r).array() < 0.0).any())
                std::abort();
    }
    return 0;
}
