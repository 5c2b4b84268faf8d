// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A Hugging Face model folder as specdec-lab opens it (`hf:PATH`, docs/model-format.md §7): config.json (the
// architecture: layers, heads, key/value heads, hidden size, vocabulary, positions), tokenizer.json, and the
// ONNX graph of an Optimum `text-generation-with-past` export at onnx/model.onnx, model.onnx or
// decoder_model_merged.onnx, and generation_config.json where present (the end-of-text ids, the sampling). Every name
// is looked up inside the folder; a file is untrusted input and each problem is one line naming the file and the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace specdec {

/// What config.json says about the graph, under the names of the families' configs (GPT-2: n_layer, n_head,
/// n_embd, n_positions; Llama, Qwen2, ...: num_hidden_layers, num_attention_heads, num_key_value_heads,
/// hidden_size, head_dim, max_position_embeddings).
struct HfConfig
{
    std::string modelType; ///< "gpt2", "llama", "qwen2", ...
    int layers = 0;
    int heads = 0;
    int kvHeads = 0; ///< num_key_value_heads, else heads (no grouped-query attention)
    int hidden = 0;
    int headDim = 0; ///< head_dim, else hidden / heads
    std::int64_t vocabSize = 0;
    int maxPositions = 0; ///< 0 when the config gives none
    std::vector<std::int64_t> endOfText;
    std::string endOfTextFile; ///< the file that gave endOfText ///< eos_token_id: one id or a list (empty when absent or null)
    /// The names the file uses for layers, key/value heads and head size (for messages: "n_layer", "head_dim", ...).
    std::string layersField, kvHeadsField, headDimField;

    /// Parses the text of config.json (`file` names it in errors); throws Error "file: field 'x' ...".
    static HfConfig parse(std::string_view json, const std::string &file);
    /// eos_token_id of a config.json or generation_config.json text; throws Error "file: field 'eos_token_id' ...".
    static std::vector<std::int64_t> parseEndOfText(std::string_view json, const std::string &file);
};

/// The sampling a generation_config.json asks for, as transformers' generate reads it: do_sample (default false)
/// false is greedy (temperature 0, no top-k, no top-p); true samples at `temperature` (default 1), keeping the
/// `top_k` (default 50) most probable tokens and the smallest set of mass `top_p` (default 1).
struct HfSampling
{
    double temperature = 1.0; ///< 0 = greedy
    int topK = 50;            ///< 0 = off
    double topP = 1.0;        ///< 1 = off

    /// None when the text names none of do_sample, temperature, top_k, top_p; throws Error "file: field 'x' ..."
    /// for a value of the wrong type or out of range.
    static std::optional<HfSampling> parse(std::string_view json, const std::string &file);
    /// The sampling of the folder's generation_config.json, read before the model loads (the window sets its
    /// controls when a folder becomes the target); none when the folder has none or it is not readable (the
    /// load then says what is wrong). Never throws.
    static std::optional<HfSampling> readFolder(const std::string &dir);
};

/// The files of a folder, found and checked to be regular files inside it.
struct HfFolder
{
    std::string dir;
    std::string configPath;
    std::string tokenizerPath;
    std::string graphPath;
    std::string generationConfigPath; ///< empty when the folder has none
    HfConfig config;
    /// The ids that end a text: generation_config.json's eos_token_id where it gives one, else config.json's.
    std::vector<std::int64_t> endOfText;
    std::string endOfTextFile;          ///< the file that gave endOfText
    std::optional<HfSampling> sampling; ///< generation_config.json's, where it names any

    /// Throws Error naming the folder and the missing or unreadable file.
    static HfFolder open(const std::string &dir);
};

} // namespace specdec
