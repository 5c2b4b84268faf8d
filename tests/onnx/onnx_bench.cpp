// SPDX-License-Identifier: GPL-3.0-or-later
// onnx_bench: times forward passes of an ONNX model on the executor (used by bench_vs_ort.sh and
// bench_vs_torch.py).
//   onnx_bench MODEL.onnx [--length SPEC | --lengths SPEC1,SPEC2,...] [--threads N] [--repeat R] [--presents]
// A SPEC is T (a window of T tokens; a model in the decoder-with-past layout gets empty past tensors), P+T
// (a cached step: past tensors of P positions, zeros, and T new tokens), or either after Bx (a batch of B
// such rows, e.g. 4x16). Feeds token ids 0..T-1 (mod 7) as int64 [B, T] (a Hugging Face export's attention_mask
// as ones [B, P + T] and its position_ids as P..P+T-1, as the app feeds them) and prints, per spec, the median and
// best wall time and the median process CPU time of a run. A cached step of batch 1 on a graph that appends its
// cache in place (OnnxGraph::cachePairs covering every past input) runs as the app runs it, unless --presents:
// OnnxGraph::runCached on an nn::KvCache of the context length holding P positions (cut back to P before each run);
// the line then ends in "(in place)". The
// specs' runs take turns (one run of each spec, then the next round), so that on a busy machine a burst of other work
// slows every spec alike and their ratios hold.
//   onnx_bench --roofline [--threads N]
// prints this machine's roofline: the memory's read bandwidth (one pass over 256 MiB, median of 9, per thread
// count) and the executor's product in GFLOP/s (2 flops per multiply-add) on weights that stay in the cache
// (arithmetic-bound) and on 100 MB of weights (memory-bound) at 1, 5 and 8 rows.
// SPECDEC_ISA=baseline|avx2|avx512 forces the kernels' instruction set.
#include "Error.h"
#include "onnx/Gemm.h"
#include "onnx/OnnxGraph.h"
#include "onnx/ThreadPool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

/// CPU time of the whole process (all threads), in milliseconds: on a busy machine it leaves out the time
/// the process waited for a core.
double cpuMilliseconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// Median of the values.
double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// The roofline of this machine (see the header): read bandwidth, then the product's GFLOP/s.
int roofline(int threads)
{
    using namespace specdec::nn;
    ThreadPool pool(threads);
    {
        const std::size_t floats = std::size_t{256} << 18; // 256 MiB
        std::vector<float> big(floats, 1.0f);
        constexpr std::int64_t kParts = 64;                // tasks of 4 MiB
        using F4 = float __attribute__((vector_size(16))); // 4 floats: SSE2 adds, 4 independent sums
        std::vector<double> wall, cpu;
        float sink = 0;
        for (int r = 0; r < 9; ++r) {
            std::vector<float> sums(kParts);
            const double c0 = cpuMilliseconds();
            const auto t0 = std::chrono::steady_clock::now();
            pool.run(kParts, [&](std::int64_t t) {
                const float *p = big.data() + static_cast<std::size_t>(t) * (floats / kParts);
                F4 acc[4] = {};
                for (std::size_t i = 0; i < floats / kParts; i += 16)
                    for (int l = 0; l < 4; ++l) {
                        F4 x;
                        std::memcpy(&x, p + i + 4 * static_cast<std::size_t>(l), sizeof x);
                        acc[l] += x;
                    }
                for (const F4 &x : acc)
                    sums[static_cast<std::size_t>(t)] += x[0] + x[1] + x[2] + x[3];
            });
            wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            cpu.push_back((cpuMilliseconds() - c0) / 1e3 / pool.threads());
            for (float x : sums)
                sink += x;
        }
        const double bytes = static_cast<double>(floats * sizeof(float));
        std::printf(
            "memory read, %d thread(s): %.1f GB/s (CPU time: %.1f GB/s; one pass over 256 MiB, median of 9)%s\n",
            pool.threads(), bytes / median(wall) / 1e9, bytes / median(cpu) / 1e9, sink < 0 ? " " : "");
    }
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    auto product = [&](std::int64_t k, std::int64_t n, int matrices, const char *what) {
        std::vector<PackedMatrix> weights;
        std::vector<float> w(static_cast<std::size_t>(k * n));
        for (int i = 0; i < matrices; ++i) {
            for (float &x : w)
                x = normal(rng) * 0.02f;
            weights.emplace_back(w.data(), k, n, n, 1);
        }
        std::vector<float> a(static_cast<std::size_t>(8 * k), 0.5f), c(static_cast<std::size_t>(8 * n));
        const double bytes = static_cast<double>(k * n) * matrices * sizeof(float);
        for (int m : {1, 5, 8}) {
            std::vector<double> wall, cpu;
            const int reps = bytes < 1e7 ? 50 : 1;
            for (int r = 0; r < 15; ++r) {
                const double c0 = cpuMilliseconds();
                const auto t0 = std::chrono::steady_clock::now();
                for (int rep = 0; rep < reps; ++rep)
                    for (const PackedMatrix &b : weights)
                        gemmPacked(a.data(), k, b, nullptr, c.data(), n, m, pool);
                wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
                cpu.push_back((cpuMilliseconds() - c0) / 1e3 / reps / pool.threads());
            }
            const double t = median(wall), tc = median(cpu);
            std::printf("product, %s, %d row(s): %.1f GFLOP/s, weights at %.1f GB/s, %.3f ms (CPU time / threads: "
                        "%.1f GFLOP/s, %.1f GB/s, %.3f ms)\n",
                        what, m, 2.0 * m * bytes / sizeof(float) / t / 1e9, bytes / t / 1e9, t * 1e3,
                        2.0 * m * bytes / sizeof(float) / tc / 1e9, bytes / tc / 1e9, tc * 1e3);
        }
    };
    product(128, 512, 1, "0.25 MB of weights (in L2)");
    product(512, 2048, 24, "100 MB of weights (from memory)");
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    using namespace specdec::nn;
    if (argc >= 2 && !std::strcmp(argv[1], "--roofline")) {
        const int threads = argc >= 4 && !std::strcmp(argv[2], "--threads") ? std::atoi(argv[3]) : 1;
        try {
            return roofline(threads);
        } catch (const specdec::Error &e) {
            std::fprintf(stderr, "onnx_bench: %s\n", e.what());
            return 1;
        }
    }
    if (argc < 2) {
        std::fprintf(
            stderr,
            "usage: onnx_bench MODEL.onnx [--length SPEC | --lengths SPEC1,SPEC2,...] [--threads N] [--repeat R]\n");
        return 2;
    }
    struct Spec
    {
        std::string text;
        std::int64_t batch = 1, past = 0, length = 0;
    };
    std::vector<Spec> specs;
    auto parseSpec = [](const std::string &text) {
        Spec spec{text};
        std::string rest = text;
        if (const std::size_t x = rest.find('x'); x != std::string::npos) {
            spec.batch = std::stoll(rest.substr(0, x));
            rest = rest.substr(x + 1);
        }
        if (const std::size_t plus = rest.find('+'); plus != std::string::npos) {
            spec.past = std::stoll(rest.substr(0, plus));
            rest = rest.substr(plus + 1);
        }
        spec.length = std::stoll(rest);
        if (spec.batch < 1 || spec.past < 0 || spec.length < 1)
            throw std::invalid_argument(text);
        return spec;
    };
    int threads = 1, repeat = 20;
    bool presents = false;
    try {
        for (int i = 2; i < argc; i += 2) {
            if (!std::strcmp(argv[i], "--presents")) {
                presents = true;
                --i;
            } else if (i + 1 >= argc) {
                break;
            } else if (!std::strcmp(argv[i], "--length")) {
                specs = {parseSpec(argv[i + 1])};
            } else if (!std::strcmp(argv[i], "--lengths")) {
                specs.clear();
                std::string list = argv[i + 1];
                for (std::size_t at = 0; at <= list.size();) {
                    const std::size_t comma = std::min(list.find(',', at), list.size());
                    specs.push_back(parseSpec(list.substr(at, comma - at)));
                    at = comma + 1;
                }
            } else if (!std::strcmp(argv[i], "--threads")) {
                threads = std::stoi(argv[i + 1]);
            } else if (!std::strcmp(argv[i], "--repeat")) {
                repeat = std::max(1, std::stoi(argv[i + 1]));
            }
        }
        if (specs.empty())
            specs.push_back(parseSpec("128"));
    } catch (const std::exception &) {
        std::fprintf(stderr, "onnx_bench: bad number in the arguments\n");
        return 2;
    }
    try {
        OnnxGraph graph = OnnxGraph::load(argv[1]);
        graph.setThreads(threads);
        // Every spec's inputs (and cache) first; then the timed runs go round the specs, one run of each in
        // turn, so that a burst of other work on a shared machine slows every spec alike and the ratios between
        // specs (the cost of verification, V) hold.
        struct Prepared
        {
            std::map<std::string, Tensor> feed;    // all inputs
            std::map<std::string, Tensor> newFeed; // the inputs besides the cache
            bool inPlace = false;
            KvCache cache;
            std::vector<double> ms, cpu;
        };
        // The inputs of `batch` rows of `length` tokens after `past` positions: a model in the decoder-with-past
        // layout gets past tensors of `past` positions (zeros).
        auto feedFor = [&](std::int64_t batch, std::int64_t past, std::int64_t length) {
            std::map<std::string, Tensor> feed;
            std::vector<std::int64_t> ids(static_cast<std::size_t>(batch * length)), positions(ids.size());
            for (std::int64_t i = 0; i < batch * length; ++i) {
                ids[static_cast<std::size_t>(i)] = i % length % 7;
                positions[static_cast<std::size_t>(i)] = past + i % length;
            }
            for (const ValueInfo &in : graph.inputs()) {
                if (in.name.rfind("past_key_values.", 0) == 0)
                    feed[in.name] = Tensor::zeros(DataType::Float32, {batch, in.shape[1].value, past, in.shape[3].value});
                else if (in.name == "attention_mask")
                    feed[in.name] = Tensor::fromVector<std::int64_t>(
                        {batch, past + length},
                        std::vector<std::int64_t>(static_cast<std::size_t>(batch * (past + length)), 1));
                else if (in.name == "position_ids")
                    feed[in.name] = Tensor::fromVector<std::int64_t>({batch, length}, positions);
                else
                    feed[in.name] = Tensor::fromVector<std::int64_t>({batch, length}, ids);
            }
            return feed;
        };
        auto withoutPasts = [](std::map<std::string, Tensor> feed) {
            std::erase_if(feed, [](const auto &entry) { return entry.first.rfind("past_key_values.", 0) == 0; });
            return feed;
        };
        std::vector<Prepared> prepared(specs.size());
        for (std::size_t s = 0; s < specs.size(); ++s) {
            const Spec &spec = specs[s];
            Prepared &p = prepared[s];
            const std::int64_t length = spec.length, batch = spec.batch;
            p.feed = feedFor(batch, spec.past, length);
            std::size_t pastInputs = 0;
            for (const ValueInfo &in : graph.inputs())
                pastInputs += in.name.rfind("past_key_values.", 0) == 0;
            p.inPlace = !presents && spec.text.find('+') != std::string::npos && batch == 1 && pastInputs > 0
                && 2 * graph.cachePairs().size() == pastInputs;
            if (p.inPlace) {
                std::int64_t capacity = spec.past + length;
                if (const auto it = graph.metadata().find("specdec.context_length"); it != graph.metadata().end())
                    capacity = std::max<std::int64_t>(capacity, std::stoll(it->second));
                p.cache = graph.newCache(capacity);
                p.newFeed = withoutPasts(p.feed);
                if (spec.past > 0)
                    graph.runCached(withoutPasts(feedFor(1, 0, spec.past)), p.cache);
                p.feed.clear();
            }
        }
        auto once = [&](std::size_t s) {
            Prepared &p = prepared[s];
            if (p.inPlace) {
                p.cache.truncate(specs[s].past);
                graph.runCached(p.newFeed, p.cache);
            } else {
                graph.run(p.feed);
            }
        };
        for (int w = 0; w < 10; ++w)
            for (std::size_t s = 0; s < specs.size(); ++s)
                once(s); // warm-up
        for (int r = 0; r < repeat; ++r)
            for (std::size_t s = 0; s < specs.size(); ++s) {
                const double c0 = cpuMilliseconds();
                const auto t0 = std::chrono::steady_clock::now();
                once(s);
                prepared[s].ms.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                prepared[s].cpu.push_back(cpuMilliseconds() - c0);
            }
        for (std::size_t s = 0; s < specs.size(); ++s) {
            std::vector<double> &ms = prepared[s].ms, &cpu = prepared[s].cpu;
            std::sort(ms.begin(), ms.end());
            std::sort(cpu.begin(), cpu.end());
            std::printf("specdec executor: length %s threads %d: median %.4f ms, best %.4f ms, cpu median %.4f ms%s\n",
                        specs[s].text.c_str(), graph.threads(), ms[ms.size() / 2], ms.front(), cpu[cpu.size() / 2],
                        prepared[s].inPlace ? " (in place)" : "");
        }
    } catch (const specdec::Error &e) {
        std::fprintf(stderr, "onnx_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
