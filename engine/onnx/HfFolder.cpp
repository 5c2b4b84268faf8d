// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/HfFolder.h"

#include "Error.h"
#include "FileIo.h"
#include "JsonFile.h"

#include <filesystem>
#include <limits>

namespace specdec {

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxConfigBytes = 1 << 20; // a config.json is a few KB

/// A positive integer member (the first of `keys` present, whose name goes to `used`), or 0 when none is;
/// `limit` bounds it.
std::int64_t positive(const tok::Json &config, std::initializer_list<const char *> keys, const std::string &file,
                      std::int64_t limit, std::string *used = nullptr)
{
    for (const char *key : keys) {
        const auto it = config.find(key);
        if (it == config.end() || it->is_null())
            continue;
        if (used)
            *used = key;
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1 || it->get<std::int64_t>() > limit)
            throw Error(file + ": field '" + key + "' is " + it->dump().substr(0, 40)
                        + ", expected an integer from 1 to " + std::to_string(limit));
        return it->get<std::int64_t>();
    }
    return 0;
}

std::int64_t required(const tok::Json &config, std::initializer_list<const char *> keys, const std::string &file,
                      std::int64_t limit, std::string *used = nullptr)
{
    const std::int64_t v = positive(config, keys, file, limit, used);
    if (v == 0) {
        std::string names;
        for (const char *key : keys)
            names += (names.empty() ? "'" : " or '") + std::string(key) + "'";
        throw Error(file + ": field " + names + " is missing");
    }
    return v;
}

/// `name` inside `dir` when it is a regular file there (a symlink is followed only if it stays inside).
std::string fileInside(const fs::path &dir, const std::string &name)
{
    const fs::path path = dir / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return {};
    const fs::path real = fs::weakly_canonical(path, ec);
    const fs::path root = fs::weakly_canonical(dir, ec);
    if (ec)
        return {};
    const auto rel = real.lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..")
        throw Error(path.string() + ": the file leads outside the model folder (to " + real.string() + ")");
    return path.string();
}

/// The text of a config.json or generation_config.json, which must be a JSON object.
tok::Json parseObject(std::string_view json, const std::string &file)
{
    tok::Json config = tok::parseJson(json, file);
    if (!config.is_object())
        throw Error(file + ": not a JSON object");
    return config;
}

/// eos_token_id: an id, a list of ids (Qwen2.5-Instruct, Llama 3), or null / absent (none).
std::vector<std::int64_t> endTokens(const tok::Json &config, const std::string &file)
{
    const auto it = config.find("eos_token_id");
    if (it == config.end() || it->is_null())
        return {};
    const bool list = it->is_array();
    if (list && it->size() > 64)
        throw Error(file + ": field 'eos_token_id' lists " + std::to_string(it->size()) + " ids, more than 64");
    std::vector<std::int64_t> ids;
    for (const tok::Json &id : list ? *it : tok::Json::array({*it})) {
        if (!id.is_number_integer() || id.get<std::int64_t>() < 0 || id.get<std::int64_t>() >= (std::int64_t(1) << 24))
            throw Error(file + ": field 'eos_token_id' is " + it->dump().substr(0, 40)
                        + ", expected a token id or a list of token ids");
        ids.push_back(id.get<std::int64_t>());
    }
    return ids;
}

/// do_sample, temperature, top_k, top_p of a generation_config.json (HfSampling::parse).
std::optional<HfSampling> samplingOf(const tok::Json &config, const std::string &file)
{
    if (!config.contains("do_sample") && !config.contains("temperature") && !config.contains("top_k")
        && !config.contains("top_p"))
        return std::nullopt;
    HfSampling s;
    auto number = [&](const char *field, double fallback, double low, double high, const char *expected) {
        const auto it = config.find(field);
        if (it == config.end() || it->is_null())
            return fallback;
        if (!it->is_number() || !(it->get<double>() > low && it->get<double>() <= high))
            throw Error(file + ": field '" + field + "' is " + it->dump().substr(0, 40) + ", expected " + expected);
        return it->get<double>();
    };
    bool sample = false;
    if (const auto it = config.find("do_sample"); it != config.end() && !it->is_null()) {
        if (!it->is_boolean())
            throw Error(file + ": field 'do_sample' is " + it->dump().substr(0, 40) + ", expected true or false");
        sample = it->get<bool>();
    }
    s.temperature = number("temperature", 1.0, 0.0, 100.0, "a number in (0, 100]");
    s.topP = number("top_p", 1.0, 0.0, 1.0, "a number in (0, 1]");
    if (const auto it = config.find("top_k"); it != config.end() && !it->is_null()) {
        if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > (1 << 24))
            throw Error(file + ": field 'top_k' is " + it->dump().substr(0, 40)
                        + ", expected a whole number from 0 (off) to 16777216");
        s.topK = static_cast<int>(it->get<std::int64_t>());
    }
    if (!sample)
        s = HfSampling{0.0, 0, 1.0}; // greedy: generate ignores the rest (which must still be well formed)
    return s;
}

} // namespace

HfConfig HfConfig::parse(std::string_view json, const std::string &file)
{
    const tok::Json config = parseObject(json, file);
    constexpr std::int64_t kMaxCount = 1 << 20;
    HfConfig c;
    if (const auto it = config.find("model_type"); it != config.end() && it->is_string())
        c.modelType = it->get<std::string>();
    c.layers = static_cast<int>(required(config, {"num_hidden_layers", "n_layer"}, file, 4096, &c.layersField));
    c.heads = static_cast<int>(required(config, {"num_attention_heads", "n_head"}, file, 4096));
    c.hidden = static_cast<int>(required(config, {"hidden_size", "n_embd"}, file, kMaxCount));
    c.kvHeads = static_cast<int>(positive(config, {"num_key_value_heads"}, file, 4096, &c.kvHeadsField));
    if (c.kvHeads == 0) {
        c.kvHeads = c.heads;
        c.kvHeadsField = config.contains("num_attention_heads") ? "num_attention_heads" : "n_head";
    }
    if (c.heads % c.kvHeads != 0)
        throw Error(file + ": field 'num_key_value_heads' is " + std::to_string(c.kvHeads)
                    + ", which does not divide num_attention_heads " + std::to_string(c.heads));
    c.headDim = static_cast<int>(positive(config, {"head_dim"}, file, kMaxCount, &c.headDimField));
    if (c.headDim == 0) {
        c.headDimField = config.contains("hidden_size") ? "hidden_size" : "n_embd";
        if (c.hidden % c.heads != 0)
            throw Error(file + ": field 'hidden_size' is " + std::to_string(c.hidden) + ", not a multiple of the "
                        + std::to_string(c.heads) + " heads (and there is no 'head_dim')");
        c.headDim = c.hidden / c.heads;
    }
    c.vocabSize = required(config, {"vocab_size"}, file, std::int64_t(1) << 24);
    c.maxPositions = static_cast<int>(
        positive(config, {"max_position_embeddings", "n_positions", "n_ctx"}, file, std::numeric_limits<int>::max()));
    c.endOfText = endTokens(config, file);
    return c;
}

std::vector<std::int64_t> HfConfig::parseEndOfText(std::string_view json, const std::string &file)
{
    return endTokens(parseObject(json, file), file);
}

std::optional<HfSampling> HfSampling::parse(std::string_view json, const std::string &file)
{
    return samplingOf(parseObject(json, file), file);
}

std::optional<HfSampling> HfSampling::readFolder(const std::string &dir)
{
    try {
        const std::string path = fileInside(fs::path(dir), "generation_config.json");
        if (path.empty())
            return std::nullopt;
        return parse(readFileBounded(path, kMaxConfigBytes, "a model's generation_config.json"), path);
    } catch (const Error &) {
        return std::nullopt;
    }
}

HfFolder HfFolder::open(const std::string &dirName)
{
    const fs::path dir(dirName);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw Error(dirName
                    + ": not a folder (hf:PATH names a Hugging Face model folder: config.json, tokenizer.json "
                      "and onnx/model.onnx)");
    HfFolder f;
    f.dir = dirName;
    f.configPath = fileInside(dir, "config.json");
    if (f.configPath.empty())
        throw Error(dirName + ": the folder has no config.json");
    f.tokenizerPath = fileInside(dir, "tokenizer.json");
    if (f.tokenizerPath.empty())
        throw Error(dirName + ": the folder has no tokenizer.json");
    for (const char *name : {"onnx/model.onnx", "model.onnx", "decoder_model_merged.onnx"})
        if (f.graphPath = fileInside(dir, name); !f.graphPath.empty())
            break;
    if (f.graphPath.empty())
        throw Error(dirName
                    + ": the folder has no ONNX graph (onnx/model.onnx, model.onnx or "
                      "decoder_model_merged.onnx; export with optimum-cli export onnx --task "
                      "text-generation-with-past)");
    f.config = HfConfig::parse(readFileBounded(f.configPath, kMaxConfigBytes, "a model's config.json"), f.configPath);
    f.endOfText = f.config.endOfText;
    f.endOfTextFile = f.configPath;
    f.generationConfigPath = fileInside(dir, "generation_config.json");
    if (!f.generationConfigPath.empty()) {
        const tok::Json generation = parseObject(
            readFileBounded(f.generationConfigPath, kMaxConfigBytes, "a model's generation_config.json"),
            f.generationConfigPath);
        if (generation.contains("eos_token_id")) {
            f.endOfText = endTokens(generation, f.generationConfigPath);
            f.endOfTextFile = f.generationConfigPath;
        }
        f.sampling = samplingOf(generation, f.generationConfigPath);
    }
    return f;
}

} // namespace specdec
