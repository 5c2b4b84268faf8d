// SPDX-License-Identifier: GPL-3.0-or-later
// onnx_bench: times forward passes of an ONNX model on the executor (used by bench_vs_ort.sh and
// bench_vs_torch.py).
//   onnx_bench MODEL.onnx [--length T | --lengths T1,T2,...] [--threads N] [--repeat R]
// Feeds token ids 0..T-1 (mod 7) as int64 [1, T] to the first input and prints, per length, the median
// and best wall time and the median process CPU time of a run. SPECDEC_ISA=baseline|avx2|avx512 forces the kernels' instruction set.
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
        std::fprintf(stderr, "usage: onnx_bench MODEL.onnx [--length T | --lengths T1,T2,...] [--threads N] [--repeat R]\n");
        return 2;
    }
    std::vector<std::int64_t> lengths{128};
    int threads = 1, repeat = 20;
    try {
        for (int i = 2; i + 1 < argc; i += 2) {
            if (!std::strcmp(argv[i], "--length")) {
                lengths = {std::stoll(argv[i + 1])};
            } else if (!std::strcmp(argv[i], "--lengths")) {
                lengths.clear();
                std::string list = argv[i + 1];
                for (std::size_t at = 0; at <= list.size();) {
                    const std::size_t comma = std::min(list.find(',', at), list.size());
                    lengths.push_back(std::stoll(list.substr(at, comma - at)));
                    at = comma + 1;
                }
            } else if (!std::strcmp(argv[i], "--threads")) {
                threads = std::stoi(argv[i + 1]);
            } else if (!std::strcmp(argv[i], "--repeat")) {
                repeat = std::max(1, std::stoi(argv[i + 1]));
            }
        }
    } catch (const std::exception &) {
        std::fprintf(stderr, "onnx_bench: bad number in the arguments\n");
        return 2;
    }
    try {
        OnnxGraph graph = OnnxGraph::load(argv[1]);
        graph.setThreads(threads);
        for (const std::int64_t length : lengths) {
            std::vector<std::int64_t> ids(static_cast<std::size_t>(length));
            for (std::int64_t i = 0; i < length; ++i)
                ids[static_cast<std::size_t>(i)] = i % 7;
            const Tensor tokens = Tensor::fromVector<std::int64_t>({1, length}, ids);
            // A model in the decoder-with-past layout runs with empty past tensors (the whole window).
            std::map<std::string, Tensor> feed;
            for (const ValueInfo &in : graph.inputs())
                feed[in.name] = in.name.rfind("past_key_values.", 0) == 0
                                    ? Tensor::zeros(DataType::Float32, {1, in.shape[1].value, 0, in.shape[3].value})
                                    : tokens;
            for (int w = 0; w < 3; ++w)
                graph.run(feed); // warm-up
            std::vector<double> ms, cpu;
            for (int r = 0; r < repeat; ++r) {
                const double c0 = cpuMilliseconds();
                const auto t0 = std::chrono::steady_clock::now();
                graph.run(feed);
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
                cpu.push_back(cpuMilliseconds() - c0);
            }
            std::sort(ms.begin(), ms.end());
            std::sort(cpu.begin(), cpu.end());
            std::printf("specdec executor: length %lld threads %d: median %.4f ms, best %.4f ms, cpu median %.4f ms\n",
                        static_cast<long long>(length), graph.threads(), ms[ms.size() / 2], ms.front(),
                        cpu[cpu.size() / 2]);
        }
    } catch (const specdec::Error &e) {
        std::fprintf(stderr, "onnx_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
