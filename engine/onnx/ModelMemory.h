// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model memory limit: the most bytes that every loaded model may hold at once — tensors (weights and the
// values of a run), the packed copies of weight matrices (Gemm.h) and mapped external data (ExternalData.h).
// A model whose weights or shapes ask for more fails with one Error line instead of exhausting the machine.
//   limit = SPECDEC_MAX_MODEL_MEMORY (MiB) when set, else 3/4 of this machine's physical memory
//   (4 GiB where the machine does not say)

#include <cstddef>
#include <string>

namespace specdec::nn {

/// The limit in bytes (read once from the environment and the machine; setTensorMemoryLimit overrides it).
std::size_t tensorMemoryLimit();
void setTensorMemoryLimit(std::size_t bytes);
/// The bytes held by tensors, packed weights and mappings right now.
std::size_t tensorMemoryInUse();
/// "12.0 GiB (3/4 of this machine's 16.0 GiB; the setting SPECDEC_MAX_MODEL_MEMORY, in MiB, changes it)": the
/// limit and where it comes from, for messages.
std::string memoryLimitText();

/// Counts `bytes` against the limit, or throws Error "`what` needs X; with Y in use that is more than the
/// <memoryLimitText()> models may hold". Every successful reserve is matched by one release.
void reserveModelMemory(std::size_t bytes, const std::string &what);
void releaseModelMemory(std::size_t bytes) noexcept;

/// A reservation held by an owner of memory outside tensors (a packed matrix, a mapped file): reserved on
/// construction, released when destroyed. Move-only.
class MemoryClaim
{
public:
    MemoryClaim() = default;
    MemoryClaim(std::size_t bytes, const std::string &what);
    MemoryClaim(MemoryClaim &&other) noexcept;
    MemoryClaim &operator=(MemoryClaim &&other) noexcept;
    MemoryClaim(const MemoryClaim &) = delete;
    MemoryClaim &operator=(const MemoryClaim &) = delete;
    ~MemoryClaim();

    std::size_t bytes() const { return m_bytes; }

private:
    std::size_t m_bytes = 0;
};

} // namespace specdec::nn
