// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// OnnxLanguageModel: a causal next-token model stored as an ONNX file (the contract is in
// docs/model-format.md), evaluated by the engine's own executor (OnnxGraph).
//
// Row j of a call is softmax(logits) at the last position of the row's window, in double:
// \f[ P(x \mid x_1..x_L) = \frac{e^{z_x - \max z}}{\sum_y e^{z_y - \max z}}, \f]
// where z are the logits the graph gives after the window ending at x_L. Up to the context length C the
// window is the whole prefix. Beyond it the window starts at a multiple of the stride S = max(1, C/4):
// \f[ \mathrm{start}(L) = \lceil (L - C) / S \rceil \cdot S, \f]
// so it holds between C - S + 1 and C tokens and depends on the prefix alone: a row is the same whether it
// is asked for alone (autoregressive decoding) or among K + 1 rows (speculative verification), which
// keeps speculative decoding lossless past the context. Rows sharing a window start share one graph run.
//
// Two layouts (docs/model-format.md): one input of token ids (every call recomputes its window), or the
// HF/Optimum "decoder with past" layout (input_ids, past_key_values.{i}.key/value [batch, heads, past,
// head_dim], optional attention_mask and position_ids -> logits, present.{i}.key/value), detected from the
// input names. The second gives a DecodingState with a real key/value cache (OnnxKvState); its windowed path
// feeds empty past tensors.

#include "LanguageModel.h"
#include "onnx/OnnxGraph.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace specdec {

class OnnxLanguageModel : public LanguageModel
{
public:
    /// Loads a model file and checks the contract (inputs, outputs, metadata, a causal probe run).
    /// `threads` <= 0 means all cores. Throws Error naming the file and the problem. `progress` hears the graph's
    /// load (OnnxGraph::load) as the first kGraphShare, each probe of the contract in the rest, 1 once ready.
    static std::unique_ptr<OnnxLanguageModel> load(const std::string &path, int threads = 0,
                                                   const LoadProgress &progress = {});
    /// Loads a Hugging Face model folder (`hf:PATH`, HfFolder.h): an Optimum decoder-with-past graph, tokenizer.json
    /// as the tokenizer (logits beyond its size are padding), the context from config.json's positions (at most
    /// `contextCap`), and config.json's layers, key/value heads, head size and vocab_size checked against the graph.
    /// `progress` as for load().
    static std::unique_ptr<OnnxLanguageModel> loadFolder(const std::string &dir, int threads = 0,
                                                         int contextCap = kDefaultFolderContext,
                                                         const LoadProgress &progress = {});
    /// The part of a model's load that is its graph's; the rest is the probes' (target-large.onnx on one thread:
    /// 0.23 s of 0.34 s).
    static constexpr double kGraphShare = 0.7;
    static constexpr int kDefaultFolderContext = 4096;

    std::string describe() const override;
    std::int64_t parameterCount() const override { return m_graph.parameterCount(); }
    std::span<const TokenId> endOfText() const override { return m_endOfText; }
    std::optional<SamplingAdvice> samplingAdvice() const override { return m_samplingAdvice; }

    const std::string &path() const { return m_path; }
    int contextLength() const { return m_context; }
    /// The window stride S past the context (see the class comment).
    int windowStride() const { return m_stride; }
    /// First token of the window that scores the prefix x_1..x_L.
    std::int64_t windowStart(std::int64_t prefixLength) const;
    const std::string &corpus() const { return m_corpus; }
    const std::string &description() const { return m_description; }
    const nn::OnnxGraph &graph() const { return m_graph; }

    void setThreads(int threads) { m_graph.setThreads(threads); }
    int threads() const { return m_graph.threads(); }

    /// The raw logits of one window of 1..C tokens: a [tokens, V] float32 or float64 tensor.
    nn::Tensor windowLogits(std::span<const TokenId> window);
    /// Whether the graph runs a batch of windows in one run (dynamic batch, checked by a probe at load).
    bool canBatchWindows() const { return m_batchable; }
    /// Lay a batched call's same-length requests out as one [B, T] graph run (when canBatchWindows()).
    /// Off by default: the executor's batch > 1 runs are currently slower per row than batch 1 runs
    /// (a 4-path tree on the kjv target: 75 ms per batched call against 4 x 3.5 ms path by path).
    void setBatchWindows(bool on) { m_batchWindows = on; }
    bool batchWindows() const { return m_batchWindows && m_batchable; }

    /// True for a model in the decoder-with-past layout.
    bool hasKvCache() const override { return m_kv.present; }
    /// Layers of the cache (0 without one).
    int cacheLayers() const { return static_cast<int>(m_kv.pastNames.size() / 2); }
    /// One run of the decoder-with-past graph: `tokens` (window positions pastLength..pastLength+S-1) after
    /// the cache `cache` (2 tensors per layer, key then value, [1, heads, pastLength, head_dim]; empty: no
    /// past). Returns the logits [S, V] and replaces `cache` by the presents [1, heads, pastLength + S, hd].
    nn::Tensor runWithPast(std::span<const TokenId> tokens, std::int64_t pastLength, std::vector<nn::Tensor> &cache);
    /// Whether the graph appends every layer's keys and values in place (OnnxGraph::cachePairs covers all of
    /// them): the KV state then keeps an nn::KvCache of the context length and a step copies no past.
    bool cachesInPlace() const { return m_inPlace && m_inPlaceAllowed; }
    /// Off: the KV state keeps the presents as its cache (the plain path, for comparison). On by default.
    void setCacheInPlace(bool on) { m_inPlaceAllowed = on; }
    /// A cache of the context length for runCached (needs cachesInPlace()).
    nn::KvCache newCache() const { return m_graph.newCache(m_context); }
    /// One run of the decoder-with-past graph on `cache` in place: `tokens` (window positions
    /// cache.length() .. + S - 1). Returns the logits [S, V]; the cache grows by S.
    nn::Tensor runCached(std::span<const TokenId> tokens, nn::KvCache &cache);
    /// Several rows that continue caches, in one call (a token tree's paths after the committed prefix): row b
    /// feeds `tokens[b]` (S tokens, the same S for every row; window positions pastLength..pastLength+S-1)
    /// after its past `*pasts[b]` (2 tensors per layer [1, heads, pastLength, hd]; empty: none, pastLength 0).
    /// Returns row b's logits [S, V] in logits[b] and its presents [1, heads, pastLength + S, hd] in
    /// presents[b]. With batchWindows() the rows run as one [B, S] graph run (the pasts stacked into the
    /// batch), otherwise one after the other, each after its own past (shared, not copied).
    void runRowsWithPast(std::span<const std::vector<TokenId>> tokens, std::int64_t pastLength,
                         std::span<const std::vector<nn::Tensor> *const> pasts, std::vector<nn::Tensor> &logits,
                         std::vector<std::vector<nn::Tensor>> &presents);
    /// Softmax of logits row `position` into `row` (double); throws Error for non-finite logits.
    void softmaxAt(const nn::Tensor &logits, std::int64_t position, Eigen::Ref<Eigen::RowVectorXd> row) const;

protected:
    void compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out) override;
    /// With batchWindows(), requests of one length whose rows share one window (the paths of a token tree)
    /// run as one [B, T] batch of the graph; otherwise one request after the other.
    void computeBatch(std::span<const SequenceRequest> requests, std::vector<DistributionMatrix> &out) override;
    std::unique_ptr<DecodingState> makeState(LanguageModel &counter, bool kvCache) override;

private:
    /// Where the decoder-with-past layout keeps its tensors (input and output names, per-layer shapes).
    struct KvLayout
    {
        bool present = false;
        bool attentionMask = false;
        bool positionIds = false;
        std::vector<std::string> pastNames;      ///< past_key_values.{i}.key, past_key_values.{i}.value, ...
        std::vector<std::int64_t> heads;         ///< per past tensor
        std::vector<std::int64_t> headDims;      ///< per past tensor
        std::vector<std::size_t> presentOutputs; ///< output index of present.{i}.key/value, per past tensor
        std::size_t logitsOutput = 0;
    };

    OnnxLanguageModel(Tokenizer tokenizer, nn::OnnxGraph graph, std::string path);
    void detectLayout();
    /// The probes; `progress` hears each of them done.
    void checkContract(const LoadProgress &progress = {});
    void checkTokens(std::span<const TokenId> sequence) const;
    /// Logits [B, T, V] of B windows of T tokens each (ids row-major).
    nn::Tensor batchLogits(std::vector<std::int64_t> ids, std::int64_t batch, std::int64_t tokens);
    void checkCache(const LoadProgress &progress = {});
    nn::Tensor checkedLogits(const nn::Tensor &logits, std::int64_t T) const;
    /// input_ids, attention_mask and position_ids of a cached run of `tokens` after `pastLength` positions.
    void feedTokens(std::map<std::string, nn::Tensor> &feed, std::span<const TokenId> tokens,
                    std::int64_t pastLength) const;

    KvLayout m_kv;
    bool m_inPlace = false;
    bool m_inPlaceAllowed = true;

    nn::OnnxGraph m_graph;
    std::string m_path;
    int m_context = 0;
    int m_stride = 1;
    bool m_batchable = false;
    bool m_batchWindows = false;
    std::string m_corpus;
    std::string m_description;
    /// Logits per position: the tokenizer's size, or more in a Hugging Face folder (the rest is padding: never
    /// read into a distribution, so never drafted, sampled or shown).
    std::int64_t m_logitsWidth = 0;
    /// Where the expected width comes from, for messages ("'specdec.vocab' lists 63 tokens", "DIR/config.json:
    /// field 'vocab_size' is 151936").
    std::string m_vocabularySource;
    std::string m_spec;                             ///< "onnx:PATH" or "hf:PATH"
    std::vector<TokenId> m_endOfText;               ///< a folder's eos_token_id (HfFolder::endOfText)
    std::optional<SamplingAdvice> m_samplingAdvice; ///< a folder's generation_config.json sampling
};

/// Parses a JSON array of strings (the `specdec.vocab` metadata): escapes including \uXXXX and surrogate
/// pairs, raw UTF-8 checked strictly. Throws Error naming `what` and the byte offset of a problem.
std::vector<std::u32string> parseJsonStringArray(std::string_view json, std::string_view what);

} // namespace specdec
