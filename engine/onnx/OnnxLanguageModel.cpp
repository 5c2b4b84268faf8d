// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/OnnxLanguageModel.h"

#include "Error.h"
#include "Utf8.h"
#include "onnx/HfFolder.h"
#include "onnx/OnnxKvState.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace specdec {

namespace {

constexpr const char *kVocabKey = "specdec.vocab";
constexpr const char *kContextKey = "specdec.context_length";

/// Every one of the V logits starting at `offset` is finite, else an Error naming the model, the position,
/// the token and the problem (NaN or an infinity). Every value is read: Eigen's maxCoeff skips NaN.
void requireFiniteLogits(const nn::Tensor &logits, std::int64_t offset, std::int64_t V, const std::string &path,
                         std::int64_t position)
{
    for (std::int64_t v = 0; v < V; ++v) {
        const double x = logits.doubleAt(offset + v);
        if (!std::isfinite(x))
            throw Error(path + ": the logits at position " + std::to_string(position) + " are not finite: token "
                        + std::to_string(v) + " has "
                        + (std::isnan(x) ? "NaN"
                               : x > 0   ? "+inf"
                                         : "-inf"));
    }
}

/// Row `out` = softmax of the V logits starting at `offset`, in double.
void softmaxRow(const nn::Tensor &logits, std::int64_t offset, std::int64_t V, Eigen::Ref<Eigen::RowVectorXd> out,
                const std::string &path, std::int64_t position)
{
    requireFiniteLogits(logits, offset, V, path, position);
    for (std::int64_t v = 0; v < V; ++v)
        out(v) = logits.doubleAt(offset + v);
    const double max = out.maxCoeff();
    out = (out.array() - max).exp();
    out /= out.sum();
}

std::string metadataValue(const nn::OnnxGraph &graph, const std::string &key, bool required)
{
    const auto &meta = graph.metadata();
    const auto it = meta.find(key);
    if (it == meta.end()) {
        if (required)
            throw Error(graph.name() + ": the model has no '" + key + "' metadata entry (see docs/model-format.md)");
        return {};
    }
    return it->second;
}

Vocabulary vocabularyFrom(const nn::OnnxGraph &graph)
{
    const std::string what = graph.name() + ": metadata '" + kVocabKey + "'";
    const std::vector<std::u32string> items = parseJsonStringArray(metadataValue(graph, kVocabKey, true), what);
    if (items.empty())
        throw Error(what + " is an empty list");
    std::vector<char32_t> tokens;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].size() != 1)
            throw Error(what + ": token " + std::to_string(i) + " is \"" + encodeUtf8(items[i])
                        + "\"; specdec-lab models use single-character tokens");
        tokens.push_back(items[i][0]);
    }
    try {
        return Vocabulary::fromTokens(std::move(tokens));
    } catch (const Error &e) {
        throw Error(what + ": " + e.what());
    }
}

int contextFrom(const nn::OnnxGraph &graph)
{
    const std::string text = metadataValue(graph, kContextKey, true);
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    constexpr int kMaxContext = 1 << 16; // a window is probed at this length on load
    if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxContext)
        throw Error(graph.name() + ": metadata '" + kContextKey + "' is \"" + text
                    + "\", expected a positive integer up to " + std::to_string(kMaxContext));
    return value;
}

} // namespace

OnnxLanguageModel::OnnxLanguageModel(Tokenizer tokenizer, nn::OnnxGraph graph, std::string path)
    : LanguageModel(std::move(tokenizer))
    , m_graph(std::move(graph))
    , m_path(std::move(path))
{
}

std::unique_ptr<OnnxLanguageModel> OnnxLanguageModel::load(const std::string &path, int threads,
                                                           const LoadProgress &progress)
{
    nn::OnnxGraph graph = nn::OnnxGraph::load(path, progress.part(0.0, kGraphShare));
    Vocabulary vocabulary = vocabularyFrom(graph);
    const int context = contextFrom(graph);
    std::unique_ptr<OnnxLanguageModel> model(
        new OnnxLanguageModel(Tokenizer::chars(std::move(vocabulary), std::filesystem::path(path).filename().string()),
                              std::move(graph), path));
    model->m_context = context;
    model->m_stride = std::max(1, context / 4);
    model->m_logitsWidth = model->tokenizer().size();
    model->m_vocabularySource = std::string("'") + kVocabKey + "' lists " + std::to_string(model->m_logitsWidth)
        + " tokens";
    model->m_spec = "onnx:" + path;
    model->m_corpus = metadataValue(model->m_graph, "specdec.corpus", false);
    model->m_description = metadataValue(model->m_graph, "specdec.description", false);
    model->setThreads(threads);
    model->detectLayout();
    model->checkContract(progress.part(kGraphShare, 1.0));
    progress.finish();
    return model;
}

std::unique_ptr<OnnxLanguageModel> OnnxLanguageModel::loadFolder(const std::string &dir, int threads, int contextCap,
                                                                 const LoadProgress &progress)
{
    const HfFolder folder = HfFolder::open(dir);
    const HfConfig &c = folder.config;
    Tokenizer tokenizer = Tokenizer::load(folder.tokenizerPath);
    if (tokenizer.size() > c.vocabSize)
        throw Error(folder.tokenizerPath + ": " + std::to_string(tokenizer.size()) + " tokens, more than the "
                    + std::to_string(c.vocabSize) + " logits of " + folder.configPath + " (field 'vocab_size')");
    nn::OnnxGraph graph = nn::OnnxGraph::load(folder.graphPath, progress.part(0.0, kGraphShare));
    std::vector<TokenId> endOfText;
    for (std::int64_t id : folder.endOfText) {
        if (id >= tokenizer.size())
            throw Error(folder.endOfTextFile + ": field 'eos_token_id' names id " + std::to_string(id)
                        + ", not one of the " + std::to_string(tokenizer.size()) + " tokens of " + folder.tokenizerPath);
        endOfText.push_back(static_cast<TokenId>(id));
    }
    std::unique_ptr<OnnxLanguageModel> model(new OnnxLanguageModel(std::move(tokenizer), std::move(graph), dir));
    model->m_endOfText = std::move(endOfText);
    if (const std::optional<HfSampling> &h = folder.sampling)
        model->m_samplingAdvice = SamplingAdvice{h->temperature, h->topK, h->topP, folder.generationConfigPath};
    model->m_context = std::max(1, std::min(c.maxPositions > 0 ? c.maxPositions : contextCap, contextCap));
    model->m_stride = std::max(1, model->m_context / 4);
    model->m_logitsWidth = c.vocabSize;
    model->m_vocabularySource = folder.configPath + ": field 'vocab_size' is " + std::to_string(c.vocabSize);
    model->m_spec = "hf:" + dir;
    model->m_description = (c.modelType.empty() ? std::string("model") : c.modelType) + ", " + std::to_string(c.layers)
        + " layers, " + std::to_string(c.heads) + " heads (" + std::to_string(c.kvHeads) + " key/value), hidden "
        + std::to_string(c.hidden);
    model->setThreads(threads);
    model->detectLayout();
    const KvLayout &kv = model->m_kv;
    if (!kv.present)
        throw Error(folder.graphPath
                    + ": the graph has no past_key_values inputs; export the folder with "
                      "optimum-cli export onnx --task text-generation-with-past");
    if (model->cacheLayers() != c.layers)
        throw Error(folder.configPath + ": field '" + c.layersField + "' is " + std::to_string(c.layers) + " but "
                    + folder.graphPath + " has " + std::to_string(model->cacheLayers()) + " layers of past_key_values");
    for (std::size_t t = 0; t < kv.pastNames.size(); ++t) {
        if (kv.heads[t] != c.kvHeads)
            throw Error(folder.configPath + ": field '" + c.kvHeadsField + "' gives " + std::to_string(c.kvHeads)
                        + " key/value heads but input '" + kv.pastNames[t] + "' of " + folder.graphPath + " has "
                        + std::to_string(kv.heads[t]));
        if (kv.headDims[t] != c.headDim)
            throw Error(folder.configPath + ": field '" + c.headDimField + "' gives heads of "
                        + std::to_string(c.headDim) + " dimensions but input '" + kv.pastNames[t] + "' of "
                        + folder.graphPath + " has " + std::to_string(kv.headDims[t]));
    }
    model->checkContract(progress.part(kGraphShare, 1.0));
    progress.finish();
    return model;
}

void OnnxLanguageModel::detectLayout()
{
    const std::string &file = m_graph.name();
    const auto &inputs = m_graph.inputs();
    const auto &outputs = m_graph.outputs();
    const std::string pastPrefix = "past_key_values.";
    int pastCount = 0;
    bool ids = false;
    for (const nn::ValueInfo &in : inputs) {
        pastCount += in.name.rfind(pastPrefix, 0) == 0;
        ids = ids || in.name == "input_ids";
    }
    if (pastCount == 0 && inputs.size() == 1)
        return; // the single-input contract
    if (pastCount == 0)
        throw Error(file + ": the model takes " + std::to_string(inputs.size())
                    + " inputs but no past_key_values.{i}.key/value; the contract needs one input (token ids) or "
                      "the decoder-with-past layout (see docs/model-format.md)");
    if (!ids)
        throw Error(file
                    + ": the model has past_key_values inputs but no 'input_ids' input (decoder-with-past "
                      "layout, see docs/model-format.md)");
    if (pastCount % 2 != 0)
        throw Error(file + ": the model has " + std::to_string(pastCount)
                    + " past_key_values inputs; the layout needs a key and a value per layer");
    auto findInput = [&](const std::string &name) -> const nn::ValueInfo * {
        for (const nn::ValueInfo &in : inputs)
            if (in.name == name)
                return &in;
        return nullptr;
    };
    auto findOutput = [&](const std::string &name) -> std::size_t {
        for (std::size_t k = 0; k < outputs.size(); ++k)
            if (outputs[k].name == name)
                return k;
        throw Error(file + ": the model has no output '" + name
                    + "' (decoder-with-past layout: logits and present.{i}.key/value, see docs/model-format.md)");
    };
    m_kv.present = true;
    m_kv.logitsOutput = findOutput("logits");
    for (int layer = 0; layer < pastCount / 2; ++layer)
        for (const char *kind : {"key", "value"}) {
            const std::string suffix = std::to_string(layer) + "." + kind;
            const nn::ValueInfo *past = findInput(pastPrefix + suffix);
            if (!past)
                throw Error(file + ": the model has no input '" + pastPrefix + suffix + "' (layers are numbered 0.."
                            + std::to_string(pastCount / 2 - 1) + ")");
            if (past->type != nn::DataType::Float32 || !past->hasShape || past->shape.size() != 4
                || !past->shape[1].fixed() || !past->shape[3].fixed() || past->shape[2].fixed())
                throw Error(file + ": input '" + past->name + "' is " + past->describe()
                            + "; the layout needs float32 [batch, heads, past, head_dim] with fixed heads and "
                              "head_dim and a dynamic past");
            m_kv.pastNames.push_back(past->name);
            m_kv.heads.push_back(past->shape[1].value);
            m_kv.headDims.push_back(past->shape[3].value);
            m_kv.presentOutputs.push_back(findOutput("present." + suffix));
        }
    for (const nn::ValueInfo &in : inputs) {
        if (in.name == "input_ids" || in.name.rfind(pastPrefix, 0) == 0)
            continue;
        if (in.name != "attention_mask" && in.name != "position_ids")
            throw Error(file + ": input '" + in.name
                        + "' is not part of the decoder-with-past layout (input_ids, "
                          "past_key_values.{i}.key/value, attention_mask, position_ids)");
        if (in.type != nn::DataType::Int64 || (in.hasShape && in.shape.size() != 2))
            throw Error(file + ": input '" + in.name + "' is " + in.describe() + "; the layout needs int64 [batch, n]");
        (in.name == "attention_mask" ? m_kv.attentionMask : m_kv.positionIds) = true;
    }
}

void OnnxLanguageModel::checkContract(const LoadProgress &progress)
{
    const std::string &file = m_graph.name();
    const auto &inputs = m_graph.inputs();
    const auto &outputs = m_graph.outputs();
    if (inputs.size() != 1 && !m_kv.present)
        throw Error(file + ": the model must take exactly one input (token ids), it takes "
                    + std::to_string(inputs.size()));
    const nn::ValueInfo &in = m_kv.present
        ? *std::find_if(inputs.begin(), inputs.end(), [](const nn::ValueInfo &v) { return v.name == "input_ids"; })
        : inputs[0];
    if (in.type != nn::DataType::Int64 || (in.hasShape && in.shape.size() != 2))
        throw Error(file + ": input '" + in.name + "' is " + in.describe()
                    + "; the contract needs int64 token ids [batch, sequence]");
    if (in.hasShape && in.shape[1].fixed())
        throw Error(file + ": input '" + in.name + "' is " + in.describe()
                    + "; its sequence dimension must be dynamic (export with dynamic axes)");
    if (in.hasShape && in.shape[0].fixed() && in.shape[0].value != 1)
        throw Error(file + ": input '" + in.name + "' is " + in.describe() + "; batch must be dynamic or 1");
    if (outputs.empty())
        throw Error(file + ": the model has no output");
    const nn::ValueInfo &out = outputs[m_kv.logitsOutput];
    const std::int64_t V = tokenizer().size(); // token ids probed
    const std::int64_t W = m_logitsWidth;      // logits per position (>= V: the rest is padding)
    if ((out.type != nn::DataType::Float32 && out.type != nn::DataType::Float64)
        || (out.hasShape && out.shape.size() != 3))
        throw Error(file + ": output '" + out.name + "' is " + out.describe()
                    + "; the contract needs float logits [batch, sequence, vocabulary]");
    if (out.hasShape && out.shape[2].fixed() && out.shape[2].value != W)
        throw Error(file + ": output '" + out.name + "' has " + std::to_string(out.shape[2].value)
                    + " logits per position but " + m_vocabularySource);

    // A probe: the output must have one row of V logits per input position, and changing the last
    // token must leave the earlier positions unchanged (causal).
    const int T = std::min(m_context, 4);
    std::vector<TokenId> probe(static_cast<std::size_t>(T));
    for (int i = 0; i < T; ++i)
        probe[static_cast<std::size_t>(i)] = static_cast<TokenId>(i % V);
    const nn::Tensor first = windowLogits(probe);
    progress.report(0.1);
    // Finite first: NaN compares unequal to itself and would read as "not causal".
    for (int t = 0; t < T; ++t)
        requireFiniteLogits(first, t * W, V, file, t);
    if (T > 1 && V > 1) {
        probe.back() = static_cast<TokenId>((probe.back() + 1) % V);
        const nn::Tensor second = windowLogits(probe);
        progress.report(0.2);
        for (int t = 0; t < T; ++t)
            requireFiniteLogits(second, t * W, V, file, t);
        for (std::int64_t i = 0; i < (T - 1) * W; ++i) {
            const double a = first.doubleAt(i), b = second.doubleAt(i);
            if (!(std::abs(a - b) <= 1e-4 * (1.0 + std::abs(a))))
                throw Error(file + ": the output is not causal: changing token " + std::to_string(T - 1)
                            + " changes the logits at position " + std::to_string(i / W) + " (see docs/model-format.md)");
        }
        // A batch of the two probes in one run must give each probe's logits: then a token tree's paths can
        // be verified in one graph run. A graph that cannot batch is still a valid model (one run per path).
        if (!(in.hasShape && in.shape[0].fixed())) {
            try {
                std::vector<std::int64_t> ids;
                for (int i = 0; i < T; ++i)
                    ids.push_back(static_cast<std::int64_t>(i % V));
                ids.insert(ids.end(), probe.begin(), probe.end());
                const nn::Tensor both = batchLogits(std::move(ids), 2, T);
                bool same = true;
                for (std::int64_t i = 0; i < T * W && same; ++i)
                    same = std::abs(both.doubleAt(i) - first.doubleAt(i)) <= 1e-4 * (1.0 + std::abs(first.doubleAt(i)))
                        && std::abs(both.doubleAt(T * W + i) - second.doubleAt(i))
                            <= 1e-4 * (1.0 + std::abs(second.doubleAt(i)));
                m_batchable = same;
            } catch (const std::exception &) {
                m_batchable = false;
            }
            progress.report(0.35);
        }
    }
    // The declared context must really fit (e.g. the position table): probe one window of that length. With
    // a key/value cache, its last position after a past of context - 1 (zero) positions: the same positions and
    // mask rows, one row of compute instead of a whole window (a 512-token window of a 90 MB model is seconds).
    if (m_context > T) {
        std::vector<TokenId> full(static_cast<std::size_t>(m_context));
        for (int i = 0; i < m_context; ++i)
            full[static_cast<std::size_t>(i)] = static_cast<TokenId>(i % V);
        try {
            if (m_kv.present) {
                std::vector<nn::Tensor> past;
                for (std::size_t t = 0; t < m_kv.pastNames.size(); ++t)
                    past.push_back(
                        nn::Tensor::zeros(nn::DataType::Float32, {1, m_kv.heads[t], m_context - 1, m_kv.headDims[t]}));
                runWithPast(std::span<const TokenId>(full).last(1), m_context - 1, past);
            } else {
                windowLogits(full);
            }
        } catch (const Error &e) {
            throw Error(file + ": metadata '" + kContextKey + "' is " + std::to_string(m_context)
                        + " but a window of that many tokens fails: " + e.what());
        }
        progress.report(0.5);
    }
    if (m_kv.present)
        checkCache(progress.part(0.5, 1.0));
    progress.finish();
}

void OnnxLanguageModel::checkCache(const LoadProgress &progress)
{
    // The probe again, now in two steps: T - 1 tokens with an empty past, then the last token after their
    // presents. Each present must grow by the tokens fed, and the last logits must equal the uncached ones.
    const std::string &file = m_graph.name();
    const std::int64_t V = tokenizer().size();
    const std::int64_t W = m_logitsWidth;
    const int T = std::min(m_context, 4);
    if (T < 2)
        return;
    std::vector<TokenId> probe(static_cast<std::size_t>(T));
    for (int i = 0; i < T; ++i)
        probe[static_cast<std::size_t>(i)] = static_cast<TokenId>((3 * i + 1) % V);
    const nn::Tensor full = windowLogits(probe);
    progress.report(0.2);
    std::vector<nn::Tensor> cache;
    runWithPast(std::span<const TokenId>(probe).first(static_cast<std::size_t>(T - 1)), 0, cache);
    const nn::Tensor last = runWithPast(std::span<const TokenId>(probe).last(1), T - 1, cache);
    progress.report(0.6);
    for (std::int64_t v = 0; v < V; ++v) {
        const double a = full.doubleAt((T - 1) * W + v), b = last.doubleAt(v);
        if (!(std::abs(a - b) <= 1e-4 * (1.0 + std::abs(a))))
            throw Error(file + ": cached and uncached logits differ on the probe (token " + std::to_string(v) + ": "
                        + std::to_string(b) + " after a past of " + std::to_string(T - 1) + " positions, "
                        + std::to_string(a)
                        + " without); present.{i} must be the past with the new keys/values "
                          "appended (see docs/model-format.md)");
    }
    // The in-place cache, where the graph has one for every layer, must give the same bits on the probe; a
    // graph where it does not keeps the presents as its cache.
    std::size_t covered = 0;
    for (const nn::OnnxGraph::CachePair &p : m_graph.cachePairs())
        for (const std::string &name : {p.pastKey, p.pastValue})
            covered += std::find(m_kv.pastNames.begin(), m_kv.pastNames.end(), name) != m_kv.pastNames.end();
    m_inPlace = covered == m_kv.pastNames.size() && covered == 2 * m_graph.cachePairs().size();
    if (m_inPlace) {
        nn::KvCache kv = newCache();
        runCached(std::span<const TokenId>(probe).first(static_cast<std::size_t>(T - 1)), kv);
        const nn::Tensor inPlace = runCached(std::span<const TokenId>(probe).last(1), kv);
        m_inPlace = inPlace.shape() == last.shape() && inPlace.type() == last.type()
            && std::memcmp(inPlace.bytes(), last.bytes(), last.byteSize()) == 0;
    }
}

nn::Tensor OnnxLanguageModel::runWithPast(std::span<const TokenId> tokens, std::int64_t pastLength,
                                          std::vector<nn::Tensor> &cache)
{
    const auto S = static_cast<std::int64_t>(tokens.size());
    const std::size_t tensors = m_kv.pastNames.size();
    if (!m_kv.present || S < 1 || pastLength < 0 || pastLength + S > m_context
        || (!cache.empty() && cache.size() != tensors) || (cache.empty() && pastLength != 0))
        throw Error(m_path + ": a cached run of " + std::to_string(S) + " tokens after " + std::to_string(pastLength)
                    + " (context " + std::to_string(m_context) + ")");
    std::map<std::string, nn::Tensor> feed;
    feedTokens(feed, tokens, pastLength);
    for (std::size_t t = 0; t < tensors; ++t)
        feed[m_kv.pastNames[t]] = cache.empty()
            ? nn::Tensor::zeros(nn::DataType::Float32, {1, m_kv.heads[t], 0, m_kv.headDims[t]})
            : cache[t];
    std::vector<nn::Tensor> outputs = m_graph.run(feed);
    nn::Tensor logits = checkedLogits(outputs.at(m_kv.logitsOutput), S);
    cache.resize(tensors);
    for (std::size_t t = 0; t < tensors; ++t) {
        nn::Tensor &present = outputs.at(m_kv.presentOutputs[t]);
        const nn::Shape expected{1, m_kv.heads[t], pastLength + S, m_kv.headDims[t]};
        if (present.shape() != expected || present.type() != nn::DataType::Float32)
            throw Error(m_path + ": output '" + m_graph.outputs()[m_kv.presentOutputs[t]].name + "' is "
                        + present.describe() + " after a past of " + std::to_string(pastLength) + " and "
                        + std::to_string(S) + " new tokens; the layout needs float32" + nn::shapeToString(expected)
                        + " (past + seq positions)");
        cache[t] = std::move(present);
    }
    return logits;
}

void OnnxLanguageModel::feedTokens(std::map<std::string, nn::Tensor> &feed, std::span<const TokenId> tokens,
                                   std::int64_t pastLength) const
{
    const auto S = static_cast<std::int64_t>(tokens.size());
    feed["input_ids"] = nn::Tensor::fromVector<std::int64_t>({1, S},
                                                             std::vector<std::int64_t>(tokens.begin(), tokens.end()));
    if (m_kv.attentionMask)
        feed["attention_mask"] = nn::Tensor::fromVector<std::int64_t>(
            {1, pastLength + S}, std::vector<std::int64_t>(static_cast<std::size_t>(pastLength + S), 1));
    if (m_kv.positionIds) {
        std::vector<std::int64_t> positions(static_cast<std::size_t>(S));
        for (std::int64_t i = 0; i < S; ++i)
            positions[static_cast<std::size_t>(i)] = pastLength + i;
        feed["position_ids"] = nn::Tensor::fromVector<std::int64_t>({1, S}, positions);
    }
}

nn::Tensor OnnxLanguageModel::runCached(std::span<const TokenId> tokens, nn::KvCache &cache)
{
    const auto S = static_cast<std::int64_t>(tokens.size());
    const std::int64_t pastLength = cache.length();
    if (!cachesInPlace() || S < 1 || pastLength + S > m_context)
        throw Error(m_path + ": a cached run of " + std::to_string(S) + " tokens after " + std::to_string(pastLength)
                    + " (context " + std::to_string(m_context) + ")");
    std::map<std::string, nn::Tensor> feed;
    feedTokens(feed, tokens, pastLength);
    const std::vector<nn::Tensor> outputs = m_graph.runCached(feed, cache);
    return checkedLogits(outputs.at(m_kv.logitsOutput), S);
}

void OnnxLanguageModel::runRowsWithPast(std::span<const std::vector<TokenId>> tokens, std::int64_t pastLength,
                                        std::span<const std::vector<nn::Tensor> *const> pasts,
                                        std::vector<nn::Tensor> &logits, std::vector<std::vector<nn::Tensor>> &presents)
{
    const auto B = static_cast<std::int64_t>(tokens.size());
    const auto S = B > 0 ? static_cast<std::int64_t>(tokens[0].size()) : 0;
    const std::size_t tensors = m_kv.pastNames.size();
    bool fits = m_kv.present && B > 0 && pasts.size() == tokens.size() && S >= 1 && pastLength >= 0
        && pastLength + S <= m_context;
    for (std::int64_t b = 0; fits && b < B; ++b) {
        const std::vector<nn::Tensor> &past = *pasts[static_cast<std::size_t>(b)];
        fits = static_cast<std::int64_t>(tokens[static_cast<std::size_t>(b)].size()) == S
            && (past.empty() ? pastLength == 0 : past.size() == tensors);
        for (std::size_t t = 0; fits && t < past.size(); ++t)
            fits = past[t].shape() == nn::Shape{1, m_kv.heads[t], pastLength, m_kv.headDims[t]};
    }
    if (!fits)
        throw Error(m_path + ": a cached run of " + std::to_string(B) + " rows of " + std::to_string(S)
                    + " tokens after " + std::to_string(pastLength) + " (context " + std::to_string(m_context) + ")");
    for (const std::vector<TokenId> &row : tokens)
        checkTokens(row);
    logits.resize(static_cast<std::size_t>(B));
    presents.resize(static_cast<std::size_t>(B));
    if (!batchWindows() || B == 1) {
        for (std::int64_t b = 0; b < B; ++b) {
            std::vector<nn::Tensor> cache = *pasts[static_cast<std::size_t>(b)]; // shares the buffers
            logits[static_cast<std::size_t>(b)] = runWithPast(tokens[static_cast<std::size_t>(b)], pastLength, cache);
            presents[static_cast<std::size_t>(b)] = std::move(cache);
        }
        return;
    }
    std::map<std::string, nn::Tensor> feed;
    std::vector<std::int64_t> ids;
    ids.reserve(static_cast<std::size_t>(B * S));
    for (const std::vector<TokenId> &row : tokens)
        ids.insert(ids.end(), row.begin(), row.end());
    feed["input_ids"] = nn::Tensor::fromVector<std::int64_t>({B, S}, ids);
    for (std::size_t t = 0; t < tensors; ++t) {
        nn::Tensor stacked(nn::DataType::Float32, {B, m_kv.heads[t], pastLength, m_kv.headDims[t]});
        const std::size_t rowFloats = static_cast<std::size_t>(m_kv.heads[t] * pastLength * m_kv.headDims[t]);
        if (rowFloats > 0) {
            float *dst = stacked.mutableData<float>();
            for (std::int64_t b = 0; b < B; ++b)
                std::memcpy(dst + static_cast<std::size_t>(b) * rowFloats,
                            (*pasts[static_cast<std::size_t>(b)])[t].data<float>(), rowFloats * sizeof(float));
        }
        feed[m_kv.pastNames[t]] = std::move(stacked);
    }
    if (m_kv.attentionMask)
        feed["attention_mask"] = nn::Tensor::fromVector<std::int64_t>(
            {B, pastLength + S}, std::vector<std::int64_t>(static_cast<std::size_t>(B * (pastLength + S)), 1));
    if (m_kv.positionIds) {
        std::vector<std::int64_t> positions(static_cast<std::size_t>(B * S));
        for (std::size_t i = 0; i < positions.size(); ++i)
            positions[i] = pastLength + static_cast<std::int64_t>(i) % S;
        feed["position_ids"] = nn::Tensor::fromVector<std::int64_t>({B, S}, positions);
    }
    std::vector<nn::Tensor> outputs = m_graph.run(feed);
    const nn::Tensor &all = outputs.at(m_kv.logitsOutput);
    const std::int64_t V = m_logitsWidth;
    if (all.shape() != nn::Shape{B, S, V} || (all.type() != nn::DataType::Float32 && all.type() != nn::DataType::Float64))
        throw Error(m_path + ": for a batch of " + std::to_string(B) + " x " + std::to_string(S)
                    + " tokens after a past the model gives logits " + all.describe());
    const std::size_t element = nn::elementSize(all.type());
    for (std::int64_t b = 0; b < B; ++b) {
        nn::Tensor row(all.type(), {S, V});
        std::memcpy(row.mutableBytes(), all.bytes() + static_cast<std::size_t>(b * S * V) * element,
                    static_cast<std::size_t>(S * V) * element);
        logits[static_cast<std::size_t>(b)] = std::move(row);
        presents[static_cast<std::size_t>(b)].resize(tensors);
    }
    for (std::size_t t = 0; t < tensors; ++t) {
        const nn::Tensor &present = outputs.at(m_kv.presentOutputs[t]);
        const nn::Shape expected{B, m_kv.heads[t], pastLength + S, m_kv.headDims[t]};
        if (present.shape() != expected || present.type() != nn::DataType::Float32)
            throw Error(m_path + ": output '" + m_graph.outputs()[m_kv.presentOutputs[t]].name + "' is "
                        + present.describe() + " for a batch after a past of " + std::to_string(pastLength)
                        + "; the layout needs float32" + nn::shapeToString(expected));
        const std::size_t rowFloats = static_cast<std::size_t>(m_kv.heads[t] * (pastLength + S) * m_kv.headDims[t]);
        for (std::int64_t b = 0; b < B; ++b) {
            nn::Tensor row(nn::DataType::Float32, {1, m_kv.heads[t], pastLength + S, m_kv.headDims[t]});
            std::memcpy(row.mutableData<float>(), present.data<float>() + static_cast<std::size_t>(b) * rowFloats,
                        rowFloats * sizeof(float));
            presents[static_cast<std::size_t>(b)][t] = std::move(row);
        }
    }
}

nn::Tensor OnnxLanguageModel::windowLogits(std::span<const TokenId> window)
{
    const auto T = static_cast<std::int64_t>(window.size());
    if (T < 1 || T > m_context)
        throw Error(m_path + ": a window of " + std::to_string(T) + " tokens (context " + std::to_string(m_context) + ")");
    if (m_kv.present) {
        std::vector<nn::Tensor> noCache;
        return runWithPast(window, 0, noCache);
    }
    std::vector<std::int64_t> ids(window.begin(), window.end());
    std::vector<nn::Tensor> outputs = m_graph.run({nn::Tensor::fromVector<std::int64_t>({1, T}, ids)});
    return checkedLogits(outputs.at(0), T);
}

nn::Tensor OnnxLanguageModel::checkedLogits(const nn::Tensor &logits, std::int64_t T) const
{
    const std::int64_t V = m_logitsWidth;
    if (logits.shape() != nn::Shape{1, T, V})
        throw Error(m_path + ": for " + std::to_string(T) + " input tokens the model gives logits " + logits.describe()
                    + ", the contract needs [1, " + std::to_string(T) + ", " + std::to_string(V)
                    + "] (one row per position: causal; " + m_vocabularySource + ")");
    if (logits.type() != nn::DataType::Float32 && logits.type() != nn::DataType::Float64)
        throw Error(m_path + ": the logits are " + logits.describe() + ", expected float");
    return logits.reshaped({T, V});
}

std::int64_t OnnxLanguageModel::windowStart(std::int64_t prefixLength) const
{
    if (prefixLength <= m_context)
        return 0;
    return (prefixLength - m_context + m_stride - 1) / m_stride * m_stride;
}

void OnnxLanguageModel::compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    const auto n = static_cast<std::int64_t>(sequence.size());
    if (m > n)
        throw Error("the ONNX model needs at least one prompt token");
    const std::int64_t V = tokenizer().size(), W = m_logitsWidth;
    checkTokens(sequence);
    // Rows j = 0..m-1 score the prefixes of length L = n - m + 1 + j. Consecutive rows with the same
    // window start share one run over [start, longest prefix of the group).
    int j = 0;
    while (j < m) {
        const std::int64_t start = windowStart(n - m + 1 + j);
        int last = j;
        while (last + 1 < m && windowStart(n - m + 1 + last + 1) == start)
            ++last;
        const std::int64_t end = n - m + 1 + last;
        const nn::Tensor logits = windowLogits(
            sequence.subspan(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start)));
        for (int row = j; row <= last; ++row) {
            const std::int64_t position = n - m + row - start; // index of x_L inside the window
            softmaxRow(logits, position * W, V, out.row(row), m_path, position);
        }
        j = last + 1;
    }
}

void OnnxLanguageModel::checkTokens(std::span<const TokenId> sequence) const
{
    const std::int64_t V = tokenizer().size();
    for (TokenId t : sequence)
        if (t < 0 || t >= V)
            throw Error(m_path + ": token id " + std::to_string(t) + " is outside the vocabulary of " + std::to_string(V));
}

nn::Tensor OnnxLanguageModel::batchLogits(std::vector<std::int64_t> ids, std::int64_t batch, std::int64_t tokens)
{
    std::vector<nn::Tensor> outputs;
    if (m_kv.present) { // the decoder-with-past layout: empty past tensors, the whole window
        std::map<std::string, nn::Tensor> feed;
        feed["input_ids"] = nn::Tensor::fromVector<std::int64_t>({batch, tokens}, ids);
        for (std::size_t t = 0; t < m_kv.pastNames.size(); ++t)
            feed[m_kv.pastNames[t]] = nn::Tensor::zeros(nn::DataType::Float32,
                                                        {batch, m_kv.heads[t], 0, m_kv.headDims[t]});
        if (m_kv.attentionMask)
            feed["attention_mask"] = nn::Tensor::fromVector<std::int64_t>(
                {batch, tokens}, std::vector<std::int64_t>(static_cast<std::size_t>(batch * tokens), 1));
        if (m_kv.positionIds) {
            std::vector<std::int64_t> positions(static_cast<std::size_t>(batch * tokens));
            for (std::size_t i = 0; i < positions.size(); ++i)
                positions[i] = static_cast<std::int64_t>(i) % tokens;
            feed["position_ids"] = nn::Tensor::fromVector<std::int64_t>({batch, tokens}, positions);
        }
        outputs = m_graph.run(feed);
    } else {
        outputs = m_graph.run({nn::Tensor::fromVector<std::int64_t>({batch, tokens}, ids)});
    }
    const nn::Tensor &logits = outputs.at(m_kv.logitsOutput);
    const std::int64_t V = m_logitsWidth;
    if (logits.shape() != nn::Shape{batch, tokens, V})
        throw Error(m_path + ": for a batch of " + std::to_string(batch) + " x " + std::to_string(tokens)
                    + " tokens the model gives logits " + logits.describe());
    if (logits.type() != nn::DataType::Float32 && logits.type() != nn::DataType::Float64)
        throw Error(m_path + ": the logits are " + logits.describe() + ", expected float");
    return logits;
}

void OnnxLanguageModel::computeBatch(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out)
{
    const std::size_t n = requests[0].sequence.size();
    const int m = requests[0].m;
    bool oneWindow = batchWindows() && requests.size() > 1 && static_cast<std::size_t>(m) <= n
        && windowStart(static_cast<std::int64_t>(n - m + 1)) == windowStart(static_cast<std::int64_t>(n));
    for (const SequenceRequest &r : requests)
        oneWindow = oneWindow && r.sequence.size() == n && r.m == m;
    if (!oneWindow) {
        LanguageModel::computeBatch(requests, out);
        return;
    }
    const auto start = static_cast<std::size_t>(windowStart(static_cast<std::int64_t>(n)));
    const auto T = static_cast<std::int64_t>(n - start);
    const auto B = static_cast<std::int64_t>(requests.size());
    std::vector<std::int64_t> ids;
    ids.reserve(static_cast<std::size_t>(B * T));
    for (const SequenceRequest &r : requests) {
        checkTokens(r.sequence);
        ids.insert(ids.end(), r.sequence.begin() + static_cast<std::ptrdiff_t>(start), r.sequence.end());
    }
    const nn::Tensor logits = batchLogits(std::move(ids), B, T);
    const std::int64_t V = tokenizer().size(), W = m_logitsWidth;
    for (std::int64_t b = 0; b < B; ++b)
        for (int row = 0; row < m; ++row) {
            const std::int64_t position = T - m + row;
            softmaxRow(logits, (b * T + position) * W, V, out[static_cast<std::size_t>(b)].row(row), m_path, position);
        }
}

void OnnxLanguageModel::softmaxAt(const nn::Tensor &logits, std::int64_t position, Eigen::Ref<Eigen::RowVectorXd> dst) const
{
    const std::int64_t V = tokenizer().size(), W = m_logitsWidth;
    requireFiniteLogits(logits, position * W, V, m_path, position);
    for (std::int64_t v = 0; v < V; ++v)
        dst(v) = logits.doubleAt(position * W + v);
    const double max = dst.maxCoeff();
    dst = (dst.array() - max).exp();
    dst /= dst.sum();
}

std::unique_ptr<DecodingState> OnnxLanguageModel::makeState(LanguageModel &counter, bool kvCache)
{
    if (kvCache && m_kv.present)
        return std::make_unique<OnnxKvState>(*this, counter);
    return LanguageModel::makeState(counter, kvCache);
}

std::string OnnxLanguageModel::describe() const
{
    return m_spec;
}

} // namespace specdec
