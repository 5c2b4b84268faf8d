// SPDX-License-Identifier: GPL-3.0-or-later
#include "FileIo.h"

#include "Error.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace specdec {

namespace {

std::atomic<int> g_failError{0};
std::atomic<std::size_t> g_failAfter{0};

// "4 GiB", "1.5 MiB", "512 bytes"
std::string sizeText(std::size_t bytes)
{
    const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    if (unit == 0 || value == static_cast<double>(static_cast<std::size_t>(value)))
        std::snprintf(text, sizeof text, "%.0f %s", value, units[unit]);
    else
        std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
    return text;
}

const char *kindOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

[[noreturn]] void failWrite(const std::string &path, const char *doing, int error)
{
    throw Error("cannot save " + path + ": " + doing + errorText(error) + "; the previous file is unchanged");
}

// A name beside the target that does not exist yet: ".NAME.XXXXXX".
std::string tempName(const std::filesystem::path &target)
{
    static std::atomic<unsigned> counter{0};
    std::random_device device;
    const unsigned salt = device() ^ (static_cast<unsigned>(getpid()) << 8) ^ counter.fetch_add(1);
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, ".%06x", salt & 0xffffffu);
    std::string name(1, '.'); // appended in steps: GCC 12 warns (-Wrestrict) on "." + string at -O3
    name += target.filename().string();
    name += suffix;
    return (target.parent_path() / name).string();
}

// Writes every byte (EINTR and short writes retried); the errno of a failure, else 0.
int writeAll(int fd, std::string_view bytes)
{
    const int injected = g_failError.load();
    const std::size_t injectAfter = g_failAfter.load();
    std::size_t done = 0;
    while (done < bytes.size()) {
        std::size_t chunk = std::min<std::size_t>(bytes.size() - done, std::size_t{1} << 20);
        if (injected && done + chunk > injectAfter) {
            if (done >= injectAfter)
                return injected;
            chunk = injectAfter - done;
        }
        const ssize_t n = ::write(fd, bytes.data() + done, chunk);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        done += static_cast<std::size_t>(n);
    }
    return 0;
}

mode_t currentUmask()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

} // namespace

std::string errorText(int error)
{
    std::string text = std::strerror(error);
    if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z' && !(text.size() > 1 && text[1] >= 'A' && text[1] <= 'Z'))
        text[0] = static_cast<char>(text[0] - 'A' + 'a');
    return text;
}

void checkWritableTarget(const std::string &path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw Error("cannot save " + path + ": it exists and is " + kindOf(st.st_mode)
                    + ", not a regular file; it is left as it is");
}

void writeFileAtomically(const std::string &path, std::string_view bytes)
{
    namespace fs = std::filesystem;
    if (path.empty())
        throw Error("cannot save: the file name is empty");
    checkWritableTarget(path);
    const fs::path target(path);
    const fs::path directory = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    struct stat old
    {
    };
    const bool exists = ::stat(path.c_str(), &old) == 0;
    const mode_t mode = exists ? (old.st_mode & 07777) : (0666 & ~currentUmask());

    // An unnamed file first: a kill before the rename leaves nothing behind.
    std::string temp;
    int fd = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    const bool unnamed = fd >= 0;
    if (!unnamed) {
        if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
            failWrite(path, "cannot create a file in its directory: ", errno);
        for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
            temp = tempName(target);
            fd = ::open(temp.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
            if (fd < 0 && errno != EEXIST)
                failWrite(path, "cannot create a temporary file: ", errno);
        }
        if (fd < 0)
            failWrite(path, "cannot create a temporary file: ", EEXIST);
    }
    auto abandon = [&](const char *doing, int error) {
        ::close(fd);
        if (!temp.empty())
            ::unlink(temp.c_str());
        failWrite(path, doing, error);
    };
    if (const int error = writeAll(fd, bytes))
        abandon("", error);
    if (::fchmod(fd, mode) != 0)
        abandon("cannot set the permissions: ", errno);
    if (::fsync(fd) != 0)
        abandon("", errno);
    if (unnamed) {
        const std::string self = "/proc/self/fd/" + std::to_string(fd);
        int linked = -1;
        for (int attempt = 0; attempt < 100 && linked != 0; ++attempt) {
            temp = tempName(target);
            linked = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW);
            if (linked != 0 && errno != EEXIST) {
                const int error = errno;
                temp.clear();
                abandon("cannot name the new file: ", error);
            }
        }
        if (linked != 0) {
            temp.clear();
            abandon("cannot name the new file: ", EEXIST);
        }
    }
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        failWrite(path, "", error);
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temp.c_str());
        failWrite(path, "cannot replace it: ", error);
    }
    // The rename itself reaches the disk with the directory (best effort: some file systems refuse).
    const int dirFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

BoundedInput::BoundedInput(const std::string &path, std::size_t limit, std::string what)
    : m_path(path)
    , m_what(std::move(what))
    , m_limit(limit)
{
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0)
        throw Error(path + ": cannot open the file (" + errorText(errno) + ")");
    struct stat st
    {
    };
    if (::fstat(m_fd, &st) != 0) {
        const int error = errno;
        ::close(m_fd);
        throw Error(path + ": cannot read the file (" + errorText(error) + ")");
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(m_fd);
        throw Error(path + ": is a directory, not a file");
    }
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit) {
        ::close(m_fd);
        throw Error(path + ": the file holds " + sizeText(static_cast<std::size_t>(st.st_size)) + ", more than the "
                    + sizeText(limit) + " " + m_what);
    }
}

BoundedInput::~BoundedInput()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

long BoundedInput::read(char *buffer, std::size_t size)
{
    if (m_exceeded || m_error)
        return -1;
    // One byte past the limit is read to tell "exactly the limit" from "more".
    const std::size_t room = m_limit - std::min(m_read, m_limit) + 1;
    size = std::min(size, room);
    for (;;) {
        const ssize_t n = ::read(m_fd, buffer, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            m_error = errno;
            return -1;
        }
        m_read += static_cast<std::size_t>(n);
        if (m_read > m_limit) {
            m_exceeded = true;
            return -1;
        }
        return static_cast<long>(n);
    }
}

void BoundedInput::checkRead() const
{
    if (m_exceeded)
        throw Error(m_path + ": the file holds more than the " + sizeText(m_limit) + " " + m_what);
    if (m_error)
        throw Error(m_path + ": cannot read the file (" + errorText(m_error) + ")");
}

std::string readFileBounded(const std::string &path, std::size_t limit, const std::string &what)
{
    BoundedInput input(path, limit, what);
    std::string bytes;
    char buffer[1 << 16];
    for (;;) {
        const long n = input.read(buffer, sizeof buffer);
        if (n <= 0)
            break;
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    input.checkRead();
    return bytes;
}

namespace testing {
void failWritesWith(int error, std::size_t afterBytes)
{
    g_failAfter.store(afterBytes);
    g_failError.store(error);
}
} // namespace testing

} // namespace specdec
