// SPDX-License-Identifier: GPL-3.0-or-later
#include "NGramModel.h"

#include "Error.h"
#include "onnx/Tensor.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace specdec {

namespace {

/// The (context, next token) -> count pairs of the contexts of one depth, grouped by context node.
struct PairTable
{
    std::uint32_t firstNode = 0;
    std::vector<std::uint32_t> begin; ///< per node of the depth, plus one
    std::vector<TokenId> token;
    std::vector<std::uint32_t> count;
};

/// Bytes per distinct (context, next token) pair while building and in the model: its raw count and token (8),
/// the model's token and value (12), its entry in the continuation-count table (~24 at the load factor).
constexpr std::size_t kBytesPerPair = 48;

std::string mebibytes(std::size_t bytes)
{
    return nn::formatBytes(static_cast<double>(bytes));
}

constexpr std::uint64_t kTokenMask = (std::uint64_t{1} << 21) - 1;

PairTable groupByNode(const FlatHashMap &pairs, std::uint32_t firstNode, std::uint32_t nodeCount)
{
    PairTable table;
    table.firstNode = firstNode;
    table.begin.assign(nodeCount + 1, 0);
    pairs.forEach([&](std::uint64_t key, std::uint32_t) { ++table.begin[(key >> 21) - firstNode + 1]; });
    for (std::uint32_t i = 0; i < nodeCount; ++i)
        table.begin[i + 1] += table.begin[i];
    table.token.resize(pairs.size());
    table.count.resize(pairs.size());
    std::vector<std::uint32_t> next(table.begin.begin(), table.begin.end() - 1);
    pairs.forEach([&](std::uint64_t key, std::uint32_t value) {
        const std::uint32_t slot = next[(key >> 21) - firstNode]++;
        table.token[slot] = static_cast<TokenId>(key & kTokenMask);
        table.count[slot] = value;
    });
    return table;
}

/// Modified Kneser–Ney discounts from the count-of-counts n_1..n_4 (Chen & Goodman 1998, eq. 26):
/// Y = n1 / (n1 + 2 n2), D1 = 1 - 2Y n2/n1, D2 = 2 - 3Y n3/n2, D3+ = 3 - 4Y n4/n3, each kept within [0, i].
std::array<double, 3> modifiedDiscounts(const std::vector<std::uint32_t> &counts)
{
    double n[5] = {0, 0, 0, 0, 0};
    for (std::uint32_t c : counts) {
        if (c >= 1 && c <= 4)
            n[c] += 1.0;
    }
    std::array<double, 3> d{0.5, 1.0, 1.5};
    if (n[1] > 0 && n[2] > 0) {
        const double y = n[1] / (n[1] + 2.0 * n[2]);
        d[0] = 1.0 - 2.0 * y * n[2] / n[1];
        d[1] = n[3] > 0 ? 2.0 - 3.0 * y * n[3] / n[2] : d[0];
        d[2] = (n[3] > 0 && n[4] > 0) ? 3.0 - 4.0 * y * n[4] / n[3] : d[1];
    }
    for (int i = 0; i < 3; ++i)
        d[static_cast<std::size_t>(i)] = std::clamp(d[static_cast<std::size_t>(i)], 0.0, static_cast<double>(i + 1));
    return d;
}

} // namespace

class NGramBuilder
{
public:
    static void build(NGramModel &model, std::span<const TokenId> text, std::size_t memoryLimit,
                      const LoadProgress &progress)
    {
        const int order = model.m_settings.order;
        const std::size_t length = text.size();
        // Progress: the 2 N - 1 passes over the text that count (kCounting of the whole), then the N tables
        // smoothed, told every 2^18 positions.
        constexpr double kCounting = 0.85;
        const double passes = 2.0 * order - 1.0;
        auto countingAt = [&](int pass, std::size_t i) {
            progress.report(kCounting * (pass + static_cast<double>(i) / static_cast<double>(length)) / passes);
        };
        std::vector<std::uint32_t> current(length, NGramModel::kNoNode);
        for (std::size_t i = 0; i < length; ++i) {
            if (text[i] >= 0)
                current[i] = 0;
        }
        std::vector<std::uint32_t> parent{NGramModel::kNoNode};
        std::vector<std::uint32_t> depthStart{0};
        std::vector<PairTable> raw;
        model.m_children = FlatHashMap(1024);

        // A running bound on memory (random text holds about one n-gram per position at every order: ngram:6
        // on 16 MiB of it took 2.7 GB): the bytes held and those the finished model will need, checked as the
        // tables grow, against the model-memory limit.
        std::size_t storedPairs = 0;
        auto checkMemory = [&](const FlatHashMap &growing, int depth) {
            const std::size_t pairsSoFar = storedPairs + growing.size();
            const std::size_t bytes = length * (sizeof(std::uint32_t) + sizeof(TokenId)) + parent.size() * 4
                + model.m_children.memoryBytes() + growing.memoryBytes() + pairsSoFar * kBytesPerPair;
            if (bytes > memoryLimit)
                throw Error(model.describe() + ": the model would need more than " + mebibytes(bytes) + " of memory ("
                            + std::to_string(pairsSoFar) + " distinct n-grams up to order " + std::to_string(depth + 1)
                            + "), over the limit of " + mebibytes(memoryLimit)
                            + " (the setting SPECDEC_MAX_MODEL_MEMORY, in MiB); use a lower order (ngram:"
                            + std::to_string(std::max(1, depth)) + ") or a smaller corpus");
        };

        for (int depth = 0; depth < order; ++depth) {
            FlatHashMap pairs(1024); // grows as needed: most depths hold far fewer pairs than positions
            NGramModel::ContextCoverage coverage;
            coverage.contexts = parent.size() - depthStart.back(); // the nodes of this depth: each is some context
            for (std::size_t i = 0; i < length; ++i) {
                if (current[i] != NGramModel::kNoNode) {
                    ++pairs.findOrInsert(NGramModel::childKey(current[i], text[i]), 0);
                    ++coverage.positions;
                }
                if ((i & 0xfffff) == 0xfffff)
                    checkMemory(pairs, depth);
                if ((i & 0x3ffff) == 0x3ffff)
                    countingAt(2 * depth, i);
            }
            checkMemory(pairs, depth);
            model.m_coverage.push_back(coverage);
            storedPairs += pairs.size();
            const auto first = depthStart.back();
            raw.push_back(groupByNode(pairs, first, static_cast<std::uint32_t>(parent.size()) - first));
            if (depth == order - 1)
                break;
            depthStart.push_back(static_cast<std::uint32_t>(parent.size()));
            for (std::size_t i = 0; i < length; ++i) {
                if (current[i] == NGramModel::kNoNode)
                    continue;
                const std::ptrdiff_t older = static_cast<std::ptrdiff_t>(i) - depth - 1;
                if (older < 0 || text[static_cast<std::size_t>(older)] < 0) {
                    current[i] = NGramModel::kNoNode;
                    continue;
                }
                const auto fresh = static_cast<std::uint32_t>(parent.size());
                const std::uint32_t node = model.m_children.findOrInsert(
                    NGramModel::childKey(current[i], text[static_cast<std::size_t>(older)]), fresh);
                if (node == fresh)
                    parent.push_back(current[i]);
                current[i] = node;
                if ((i & 0xfffff) == 0xfffff)
                    checkMemory(FlatHashMap(0), depth + 1);
                if ((i & 0x3ffff) == 0x3ffff)
                    countingAt(2 * depth + 1, i);
            }
        }
        progress.report(kCounting);

        const bool kneserNey = model.m_settings.smoothing == Smoothing::KneserNey;
        const double vocabularySize = model.tokenizer().size();
        model.m_followerBegin.assign(1, 0);
        for (int depth = 0; depth < order; ++depth) {
            const std::size_t d = static_cast<std::size_t>(depth);
            // Kneser–Ney counts below the top order are continuation counts N1+(. h w): the number of distinct
            // tokens seen before "h w", i.e. of children c of h that have w among their raw followers.
            PairTable table;
            if (kneserNey && depth < order - 1) {
                FlatHashMap continuation(raw[d + 1].token.size());
                const PairTable &above = raw[d + 1];
                for (std::uint32_t i = 0; i + 1 < above.begin.size(); ++i) {
                    const std::uint32_t h = parent[above.firstNode + i];
                    for (std::uint32_t s = above.begin[i]; s < above.begin[i + 1]; ++s)
                        ++continuation.findOrInsert(NGramModel::childKey(h, above.token[s]), 0);
                }
                table = groupByNode(continuation, raw[d].firstNode, static_cast<std::uint32_t>(raw[d].begin.size() - 1));
            } else {
                table = std::move(raw[d]);
            }
            const auto discount = modifiedDiscounts(table.count);
            model.m_discounts.push_back(discount);
            for (std::uint32_t i = 0; i + 1 < table.begin.size(); ++i) {
                double total = 0.0;
                double backoffMass = 0.0;
                for (std::uint32_t s = table.begin[i]; s < table.begin[i + 1]; ++s) {
                    const std::uint32_t c = table.count[s];
                    total += c;
                    backoffMass += discount[std::min<std::uint32_t>(c, 3) - 1];
                }
                for (std::uint32_t s = table.begin[i]; s < table.begin[i + 1]; ++s) {
                    const double c = table.count[s];
                    model.m_followerToken.push_back(table.token[s]);
                    if (kneserNey) {
                        const double dc = discount[std::min<std::uint32_t>(table.count[s], 3) - 1];
                        model.m_followerValue.push_back(std::max(c - dc, 0.0) / total);
                    } else {
                        model.m_followerValue.push_back(c / (total + model.m_settings.k * vocabularySize));
                    }
                }
                if (kneserNey)
                    model.m_nodeWeight.push_back(total > 0.0 ? backoffMass / total : 1.0);
                else
                    model.m_nodeWeight.push_back(model.m_settings.k / (total + model.m_settings.k * vocabularySize));
                model.m_followerBegin.push_back(static_cast<std::uint32_t>(model.m_followerToken.size()));
            }
            if (depth == 0) {
                // The root's full distribution: its weight spread uniformly (KN: the floor 1/V; add-k: k/(N + kV))
                // plus its followers.
                const double floor = kneserNey ? model.m_nodeWeight[0] / vocabularySize : model.m_nodeWeight[0];
                model.m_rootDistribution = Eigen::VectorXd::Constant(model.tokenizer().size(), floor);
                for (std::uint32_t s = model.m_followerBegin[0]; s < model.m_followerBegin[1]; ++s)
                    model.m_rootDistribution[model.m_followerToken[s]] += model.m_followerValue[s];
            }
            raw[d] = PairTable{}; // release memory as soon as a depth is done
            progress.report(kCounting + (1.0 - kCounting) * (depth + 1) / order);
        }
    }
};

NGramModel::NGramModel(Tokenizer tokenizer, const NGramSettings &settings)
    : LanguageModel(std::move(tokenizer))
    , m_settings(settings)
{
}

std::unique_ptr<NGramModel> NGramModel::train(std::span<const TokenId> text, Tokenizer tokenizer,
                                              const NGramSettings &settings, const LoadProgress &progress)
{
    if (settings.order < 1 || settings.order > 10)
        throw Error("n-gram order must be between 1 and 10, got " + std::to_string(settings.order));
    if (settings.smoothing == Smoothing::AddK && !(settings.k >= 0.0))
        throw Error("add-k needs k >= 0, got " + std::to_string(settings.k));
    if (tokenizer.empty())
        throw Error("cannot train an n-gram model on an empty vocabulary");
    if (std::none_of(text.begin(), text.end(), [](TokenId t) { return t >= 0; }))
        throw Error("cannot train an n-gram model on an empty text");
    std::unique_ptr<NGramModel> model(new NGramModel(std::move(tokenizer), settings));
    NGramBuilder::build(*model, text, nn::tensorMemoryLimit(), progress);
    model->checkDistributions();
    return model;
}

void NGramModel::checkDistributions() const
{
    // Every row the model can produce is a mixture of the root distribution and per-context rows, so it is a
    // proper distribution when each of those is finite, non-negative and sums to 1 (add-k: k V may overflow).
    auto fail = [&](const std::string &what, double sum) {
        throw Error(describe() + ": " + what + " is not a finite, normalised distribution (it sums to "
                    + std::to_string(sum) + "); choose a smaller add-k");
    };
    auto bad = [](double v) { return !std::isfinite(v) || v < 0.0; };
    const double rootSum = m_rootDistribution.sum();
    if (!std::isfinite(rootSum) || std::abs(rootSum - 1.0) > 1e-6 || (m_rootDistribution.array() < 0.0).any())
        fail("the distribution without context", rootSum);
    const double V = tokenizer().size();
    for (std::size_t node = 0; node + 1 < m_followerBegin.size(); ++node) {
        const double weight = m_nodeWeight[node];
        double followers = 0.0;
        bool negative = bad(weight);
        for (std::uint32_t s = m_followerBegin[node]; s < m_followerBegin[node + 1]; ++s) {
            followers += m_followerValue[s];
            negative = negative || bad(m_followerValue[s]);
        }
        // Add-k: the row is weight everywhere plus the followers; Kneser-Ney: the followers plus weight
        // times the lower order, which sums to 1.
        const double sum = m_settings.smoothing == Smoothing::AddK ? weight * V + followers : weight + followers;
        if (negative || !std::isfinite(sum) || std::abs(sum - 1.0) > 1e-6)
            fail("the distribution after context " + std::to_string(node), sum);
    }
}

std::string NGramModel::describe() const
{
    std::ostringstream out;
    out << "ngram:" << m_settings.order;
    if (m_settings.smoothing == Smoothing::AddK)
        out << ":addk=" << m_settings.k;
    return out.str();
}

void NGramModel::fill(const std::uint32_t *path, int depth, int longest, double *row) const
{
    const int vocabularySize = tokenizer().size();
    Eigen::Map<Eigen::VectorXd> out(row, vocabularySize);
    auto addFollowers = [&](std::uint32_t node, double coefficient) {
        for (std::uint32_t s = m_followerBegin[node]; s < m_followerBegin[node + 1]; ++s)
            row[m_followerToken[s]] += coefficient * m_followerValue[s];
    };

    if (m_settings.smoothing == Smoothing::AddK) {
        if (depth < longest) {
            out.setConstant(1.0 / vocabularySize);
        } else if (depth == 0) {
            out = m_rootDistribution;
        } else {
            out.setConstant(m_nodeWeight[path[depth]]);
            addFollowers(path[depth], 1.0);
        }
        return;
    }

    // Unroll the interpolation: the coefficient of a depth is the product of the backoff weights of the
    // deeper contexts; the root's share (its followers and the uniform floor) is one precomputed vector.
    double coefficient[11];
    coefficient[depth] = 1.0;
    for (int d = depth; d > 0; --d)
        coefficient[d - 1] = coefficient[d] * m_nodeWeight[path[d]];
    out = coefficient[0] * m_rootDistribution;
    for (int d = 1; d <= depth; ++d)
        addFollowers(path[d], coefficient[d]);
}

void NGramModel::compute(std::span<const TokenId> sequence, int m, DistributionMatrix &out)
{
    // Walk the trie for all rows in lockstep, one depth at a time: the rows' hash lookups are independent,
    // so their cache misses overlap instead of queueing one behind another.
    const std::size_t n = sequence.size();
    m_paths.resize(static_cast<std::size_t>(m));
    m_depths.assign(static_cast<std::size_t>(m), 0);
    m_longest.resize(static_cast<std::size_t>(m));
    int deepest = 0;
    for (int r = 0; r < m; ++r) {
        const std::size_t length = n + 1 - static_cast<std::size_t>(m) + static_cast<std::size_t>(r);
        m_longest[static_cast<std::size_t>(r)] = std::min<int>(m_settings.order - 1, static_cast<int>(length));
        m_paths[static_cast<std::size_t>(r)][0] = 0;
        deepest = std::max(deepest, m_longest[static_cast<std::size_t>(r)]);
    }
    for (int depth = 0; depth < deepest; ++depth) {
        for (int r = 0; r < m; ++r) {
            const auto i = static_cast<std::size_t>(r);
            if (m_depths[i] != depth || depth >= m_longest[i])
                continue; // this row stopped earlier
            const std::size_t length = n + 1 - static_cast<std::size_t>(m) + i;
            const std::uint32_t next = child(m_paths[i][static_cast<std::size_t>(depth)],
                                             sequence[length - 1 - static_cast<std::size_t>(depth)]);
            if (next != kNoNode) {
                m_paths[i][static_cast<std::size_t>(depth) + 1] = next;
                m_depths[i] = depth + 1;
            }
        }
    }
    for (int r = 0; r < m; ++r) {
        const auto i = static_cast<std::size_t>(r);
        fill(m_paths[i].data(), m_depths[i], m_longest[i], out.row(r).data());
    }
}

} // namespace specdec
