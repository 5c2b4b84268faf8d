// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// InstructionSet: which vector instructions the executor's hot kernels use (the matrix products). The build
// is portable (x86-64 baseline); kernels compiled for AVX2 and AVX-512 are chosen at run time from the CPU's
// features (the AVX2 path needs FMA too). Every path computes the same operations in the same order (the
// products' multiply-adds fused on every path, emulated exactly on the baseline one; sums in a fixed order that does not
// depend on the vector width), so results are bit-identical on every path.
// SPECDEC_ISA=baseline|avx2|avx512 in the environment forces a path (an error if the CPU lacks it).

#include <string_view>
#include <vector>

namespace specdec::nn {

enum class InstructionSet { Baseline, Avx2, Avx512 };

std::string_view instructionSetName(InstructionSet isa);
/// The paths this CPU can run, baseline first.
std::vector<InstructionSet> supportedInstructionSets();
/// The path in use: SPECDEC_ISA if set (checked once; throws Error for an unknown or unsupported value),
/// else the best this CPU supports.
InstructionSet activeInstructionSet();
/// The path a SPECDEC_ISA value names; throws Error for an unknown name or one this CPU lacks.
InstructionSet parseInstructionSet(std::string_view name);
/// Forces a path for this process (tests compare the paths); throws Error if the CPU lacks it.
void setInstructionSet(InstructionSet isa);

} // namespace specdec::nn
