// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the model-spec, draft-policy and variant parsers. Input lines: a model spec, a policy,
// a variant name. A model spec that parses is built on a small fixed corpus (not onnx: or hf:, which read files)
// and its distributions must be proper.
#include "Acceptance.h"
#include "Corpus.h"
#include "DraftPolicy.h"
#include "Error.h"
#include "ModelFactory.h"
#include "Utf8.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace specdec;

namespace {

const Corpus &smallCorpus()
{
    static const Corpus corpus = [] {
        Corpus c;
        c.name = "fuzz";
        c.text = decodeUtf8("in the beginning god created the heaven and the earth. 天地玄黄，宇宙洪荒。\n");
        c.vocabulary = Vocabulary::fromText(c.text);
        return c;
    }();
    return corpus;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    std::string lines[3];
    std::size_t start = 0;
    for (std::string &line : lines) {
        const std::size_t end = std::min(input.find('\n', start), input.size());
        line = start < input.size() ? input.substr(start, end - start) : std::string();
        start = end + 1;
    }
    std::string described;
    try {
        described = DraftPolicy::parse(lines[1]).describe();
    } catch (const Error &) {
    }
    if (!described.empty()) {
        try {
            DraftPolicy::parse(described); // what a session file saves must load again
        } catch (const Error &) {
            std::abort();
        }
    }
    if (const auto variant = variantFromName(lines[2]))
        if (variantFromName(variantName(*variant)) != variant)
            std::abort();
    try {
        const ModelSpec spec = ModelSpec::parse(lines[0]);
        if (spec.kind == ModelSpec::Kind::Onnx || spec.kind == ModelSpec::Kind::HfFolder
            || spec.kind == ModelSpec::Kind::Same)
            return 0;
        BuiltModel built = buildModel(spec, smallCorpus());
        const std::vector<TokenId> context = smallCorpus().tokens(smallCorpus().vocabulary);
        DistributionMatrix rows;
        built.model->distributions(std::span<const TokenId>(context.data(), 12), 4, rows);
        for (int r = 0; r < rows.rows(); ++r)
            if (!(std::abs(rows.row(r).sum() - 1.0) < 1e-9) || !rows.row(r).allFinite()
                || (rows.row(r).array() < 0.0).any())
                std::abort();
    } catch (const Error &) {
    }
    return 0;
}
