// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/ModelMemory.h"

#include "Error.h"
#include "onnx/Tensor.h"

#include <atomic>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace specdec::nn {

namespace {

constexpr std::size_t kUnset = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kFallback = std::size_t{4} << 30;
std::atomic<std::size_t> g_limit{kUnset};
std::atomic<std::size_t> g_inUse{0};

/// This machine's physical memory in bytes, 0 where it does not say.
std::size_t physicalMemory()
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && static_cast<std::size_t>(pages) <= kUnset / static_cast<std::size_t>(page))
        return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
#endif
    return 0;
}

/// The variable's value in bytes, or 0 when it is not set.
std::size_t limitFromEnvironment()
{
    const char *env = std::getenv("SPECDEC_MAX_MODEL_MEMORY");
    if (!env || !*env)
        return 0;
    const std::string_view text(env);
    std::size_t mebibytes = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), mebibytes);
    if (ec != std::errc() || end != text.data() + text.size() || mebibytes == 0 || mebibytes > (kUnset >> 21))
        throw Error("SPECDEC_MAX_MODEL_MEMORY is '" + std::string(text)
                    + "', expected the mebibytes models may allocate (a whole number from 1)");
    return mebibytes << 20;
}

std::size_t defaultLimit()
{
    const std::size_t machine = physicalMemory();
    return machine > 0 ? machine / 4 * 3 : kFallback;
}

} // namespace

std::size_t tensorMemoryLimit()
{
    std::size_t limit = g_limit.load(std::memory_order_relaxed);
    if (limit == kUnset) {
        limit = limitFromEnvironment();
        if (limit == 0)
            limit = defaultLimit();
        std::size_t unset = kUnset;
        g_limit.compare_exchange_strong(unset, limit, std::memory_order_relaxed);
    }
    return limit;
}

void setTensorMemoryLimit(std::size_t bytes)
{
    g_limit.store(bytes, std::memory_order_relaxed);
}

std::size_t tensorMemoryInUse()
{
    return g_inUse.load(std::memory_order_relaxed);
}

std::string memoryLimitText()
{
    const std::size_t limit = tensorMemoryLimit();
    std::string text = formatBytes(static_cast<double>(limit));
    const char *env = std::getenv("SPECDEC_MAX_MODEL_MEMORY");
    const std::size_t machine = physicalMemory();
    if (env && *env)
        text += " (the setting SPECDEC_MAX_MODEL_MEMORY, in MiB)";
    else if (machine > 0 && limit == defaultLimit())
        text += " (3/4 of this machine's " + formatBytes(static_cast<double>(machine))
            + "; the setting SPECDEC_MAX_MODEL_MEMORY, in MiB, changes it)";
    else
        text += " (the setting SPECDEC_MAX_MODEL_MEMORY, in MiB, changes it)";
    return text;
}

void reserveModelMemory(std::size_t bytes, const std::string &what)
{
    const std::size_t limit = tensorMemoryLimit();
    std::size_t used = g_inUse.load(std::memory_order_relaxed);
    do {
        if (bytes > limit || used > limit - bytes)
            throw Error(what + " needs " + formatBytes(static_cast<double>(bytes)) + "; with the "
                        + formatBytes(static_cast<double>(used)) + " in use that is more than the " + memoryLimitText()
                        + " models may hold");
    } while (!g_inUse.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
}

void releaseModelMemory(std::size_t bytes) noexcept
{
    g_inUse.fetch_sub(bytes, std::memory_order_relaxed);
}

MemoryClaim::MemoryClaim(std::size_t bytes, const std::string &what)
    : m_bytes(bytes)
{
    reserveModelMemory(bytes, what);
}

MemoryClaim::MemoryClaim(MemoryClaim &&other) noexcept
    : m_bytes(std::exchange(other.m_bytes, 0))
{
}

MemoryClaim &MemoryClaim::operator=(MemoryClaim &&other) noexcept
{
    if (this != &other) {
        releaseModelMemory(m_bytes);
        m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
}

MemoryClaim::~MemoryClaim()
{
    releaseModelMemory(m_bytes);
}

} // namespace specdec::nn
