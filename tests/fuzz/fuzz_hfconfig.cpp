// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: what a Hugging Face model folder declares before any tensor is read (HfFolder.h,
// ExternalData.h). Input: config.json text, then a line "--", then an external-data table as key=value lines,
// then a last line "FILE_SIZE NEEDED". config.json either parses into positive counts whose key/value heads
// divide the heads, or is an Error; the same text as a generation_config.json gives a sampling in range, none, or an
// Error; the table either parses into a relative location without "..", whose checked
// range [offset, offset + needed) lies inside the file and inside its length, or is an Error. Nothing else.
#include "Error.h"
#include "onnx/ExternalData.h"
#include "onnx/HfFolder.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

using namespace specdec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const std::size_t cut = input.find("\n--\n");
    const std::string config = input.substr(0, cut);
    try {
        const HfConfig c = HfConfig::parse(config, "config.json");
        if (c.layers < 1 || c.heads < 1 || c.kvHeads < 1 || c.hidden < 1 || c.headDim < 1 || c.vocabSize < 1
            || c.heads % c.kvHeads != 0 || c.maxPositions < 0 || c.layersField.empty() || c.kvHeadsField.empty()
            || c.headDimField.empty())
            std::abort();
    } catch (const Error &) {
    }
    try {
        // The same text read as a generation_config.json: its sampling is in range, or none, or an Error.
        const std::optional<HfSampling> s = HfSampling::parse(config, "generation_config.json");
        if (s
            && !(s->temperature >= 0 && s->temperature <= 100 && s->topK >= 0 && s->topP > 0 && s->topP <= 1
                 && (s->temperature > 0 || (s->topK == 0 && s->topP == 1))))
            std::abort();
    } catch (const Error &) {
    }
    if (cut == std::string::npos)
        return 0;
    std::vector<std::pair<std::string, std::string>> table;
    std::istringstream lines(input.substr(cut + 4));
    std::string line;
    std::uint64_t fileSize = 0, needed = 0;
    while (std::getline(lines, line)) {
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos) {
            table.emplace_back(line.substr(0, eq), line.substr(eq + 1));
        } else {
            std::istringstream numbers(line);
            numbers >> fileSize >> needed;
        }
    }
    try {
        const nn::ExternalDataEntry e = nn::ExternalDataEntry::parse(table, "initializer 'w'");
        const std::filesystem::path p(e.location);
        if (e.location.empty() || p.is_absolute())
            std::abort();
        for (const auto &part : p)
            if (part == "..")
                std::abort();
        e.checkRange(fileSize, needed, "initializer 'w'");
        if (e.offset > fileSize || fileSize - e.offset < needed || (e.length >= 0 && std::uint64_t(e.length) < needed))
            std::abort();
    } catch (const Error &) {
    }
    return 0;
}
