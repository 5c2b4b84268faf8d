// SPDX-License-Identifier: GPL-3.0-or-later
// onnx_bench: times forward passes of an ONNX model on the executor (used by bench_vs_ort.sh and
// bench_vs_torch.py).
//   onnx_bench MODEL.onnx [--length SPEC | --lengths SPEC1,SPEC2,...] [--threads N] [--repeat R]
// A SPEC is T (a window of T tokens; a model in the decoder-with-past layout gets empty past tensors), P+T
// (a cached step: past tensors of P positions, zeros, and T new tokens), or either after Bx (a batch of B
// such rows, e.g. 4x16). Feeds token ids 0..T-1 (mod 7) as int64 [B, T] and prints, per spec, the median and best wall time and the median process CPU time of a run.
// A cached step of batch 1 on a graph that appends its cache in place (OnnxGraph::cachePairs covering every
// past input) runs as the app runs it: OnnxGraph::runCached on an nn::KvCache of the context length holding
// P positions (cut back to P before each run); the line then ends in "(in place)".
// SPECDEC_ISA=baseline|avx2|avx512 forces the kernels' instruction set.
#include "Error.h"
#include "onnx/OnnxGraph.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
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

} // namespace

int main(int argc, char **argv)
{
    using namespace specdec::nn;
    if (argc < 2) {
        std::fprintf(stderr, "usage: onnx_bench MODEL.onnx [--length SPEC | --lengths SPEC1,SPEC2,...] [--threads N] [--repeat R]\n");
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
    try {
        for (int i = 2; i + 1 < argc; i += 2) {
            if (!std::strcmp(argv[i], "--length")) {
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
        for (const Spec &spec : specs) {
            const std::int64_t length = spec.length, batch = spec.batch;
            std::vector<std::int64_t> ids(static_cast<std::size_t>(batch * length));
            for (std::int64_t i = 0; i < batch * length; ++i)
                ids[static_cast<std::size_t>(i)] = i % length % 7;
            const Tensor tokens = Tensor::fromVector<std::int64_t>({batch, length}, ids);
            // A model in the decoder-with-past layout gets past tensors of spec.past positions (zeros).
            std::map<std::string, Tensor> feed;
            for (const ValueInfo &in : graph.inputs())
                feed[in.name] = in.name.rfind("past_key_values.", 0) == 0
                                    ? Tensor::zeros(DataType::Float32,
                                                    {batch, in.shape[1].value, spec.past, in.shape[3].value})
                                    : tokens;
            std::size_t pastInputs = 0;
            for (const ValueInfo &in : graph.inputs())
                pastInputs += in.name.rfind("past_key_values.", 0) == 0;
            const bool inPlace = spec.text.find('+') != std::string::npos && batch == 1 && pastInputs > 0
                                 && 2 * graph.cachePairs().size() == pastInputs;
            KvCache cache;
            std::map<std::string, Tensor> newFeed; // the inputs besides the cache
            if (inPlace) {
                std::int64_t capacity = spec.past + length;
                if (const auto it = graph.metadata().find("specdec.context_length"); it != graph.metadata().end())
                    capacity = std::max<std::int64_t>(capacity, std::stoll(it->second));
                cache = graph.newCache(capacity);
                for (const auto &[name, value] : feed)
                    if (name.rfind("past_key_values.", 0) != 0)
                        newFeed[name] = value;
                if (spec.past > 0) {
                    std::map<std::string, Tensor> fill = newFeed;
                    std::vector<std::int64_t> pastIds(static_cast<std::size_t>(spec.past));
                    for (std::int64_t i = 0; i < spec.past; ++i)
                        pastIds[static_cast<std::size_t>(i)] = i % 7;
                    for (auto &[name, value] : fill)
                        value = Tensor::fromVector<std::int64_t>({1, spec.past}, pastIds);
                    graph.runCached(fill, cache);
                }
            }
            auto once = [&] {
                if (inPlace) {
                    cache.truncate(spec.past);
                    graph.runCached(newFeed, cache);
                } else {
                    graph.run(feed);
                }
            };
            for (int w = 0; w < 10; ++w)
                once(); // warm-up
            std::vector<double> ms, cpu;
            for (int r = 0; r < repeat; ++r) {
                const double c0 = cpuMilliseconds();
                const auto t0 = std::chrono::steady_clock::now();
                once();
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                cpu.push_back(cpuMilliseconds() - c0);
            }
            std::sort(ms.begin(), ms.end());
            std::sort(cpu.begin(), cpu.end());
            std::printf("specdec executor: length %s threads %d: median %.4f ms, best %.4f ms, cpu median %.4f ms%s\n",
                        spec.text.c_str(), graph.threads(), ms[ms.size() / 2], ms.front(),
                        cpu[cpu.size() / 2], inPlace ? " (in place)" : "");
        }
    } catch (const specdec::Error &e) {
        std::fprintf(stderr, "onnx_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
