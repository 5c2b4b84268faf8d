// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/InstructionSet.h"

#include "Error.h"

#include <atomic>
#include <cstdlib>
#include <string>

namespace specdec::nn {

namespace {

bool cpuHas(InstructionSet isa)
{
#if defined(__x86_64__) || defined(__i386__)
    switch (isa) {
    case InstructionSet::Baseline: return true;
    case InstructionSet::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case InstructionSet::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
            && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    }
    return false;
#else
    return isa == InstructionSet::Baseline;
#endif
}

InstructionSet fromEnvironment()
{
    const char *forced = std::getenv("SPECDEC_ISA");
    if (!forced || !*forced) {
        const auto all = supportedInstructionSets();
        return all.back();
    }
    return parseInstructionSet(forced);
}

std::atomic<int> g_active{-1};

} // namespace

std::string_view instructionSetName(InstructionSet isa)
{
    switch (isa) {
    case InstructionSet::Baseline: return "baseline";
    case InstructionSet::Avx2: return "avx2";
    case InstructionSet::Avx512: return "avx512";
    }
    return "?";
}

InstructionSet parseInstructionSet(std::string_view text)
{
    const std::string name(text);
    for (InstructionSet isa : {InstructionSet::Baseline, InstructionSet::Avx2, InstructionSet::Avx512})
        if (name == instructionSetName(isa)) {
            if (!cpuHas(isa))
                throw Error("SPECDEC_ISA=" + name + ": this CPU does not support " + name);
            return isa;
        }
    throw Error("SPECDEC_ISA=" + name + ": expected baseline, avx2 or avx512");
}

std::vector<InstructionSet> supportedInstructionSets()
{
    std::vector<InstructionSet> all;
    for (InstructionSet isa : {InstructionSet::Baseline, InstructionSet::Avx2, InstructionSet::Avx512})
        if (cpuHas(isa))
            all.push_back(isa);
    return all;
}

InstructionSet activeInstructionSet()
{
    int active = g_active.load(std::memory_order_relaxed);
    if (active < 0) {
        active = static_cast<int>(fromEnvironment());
        g_active.store(active, std::memory_order_relaxed);
    }
    return static_cast<InstructionSet>(active);
}

void setInstructionSet(InstructionSet isa)
{
    if (!cpuHas(isa))
        throw Error("this CPU does not support " + std::string(instructionSetName(isa)));
    g_active.store(static_cast<int>(isa), std::memory_order_relaxed);
}

} // namespace specdec::nn
