// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way files are written (atomically: write aside, flush, fsync, rename) and read with a bound.
// Every writer of both programs (sessions, traces, tensors, the window's exports) goes through
// writeFileAtomically, so a full disk or a kill leaves the previous file unchanged, and a FIFO or a device
// node is never replaced by a regular file.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace specdec {

/// Writes `bytes` to `path` so that `path` afterwards holds either its previous content or all of `bytes`:
/// an unnamed file in the same directory (O_TMPFILE, or a temporary name where unsupported), every write
/// and the fsync checked, then renamed over `path`, keeping an existing file's permissions. Throws Error
/// (one line: the path and strerror of the failing call, "no space left on device") on any failure, and
/// when `path` exists but is not a regular file (a FIFO, a device node, a directory): it is never replaced.
void writeFileAtomically(const std::string &path, std::string_view bytes);

/// An Error when `path` exists and is not a regular file (after following symbolic links); nothing when it
/// is a regular file or does not exist. Writers call it before doing any work.
void checkWritableTarget(const std::string &path);

/// The file's content, at most `limit` bytes: a regular file larger than `limit` fails at once (without
/// reading), a stream (a pipe, /dev/zero) fails after `limit` + 1 bytes. `what` names the kind of file in the
/// message ("a model", "a tensor file"). Throws Error naming the path on any failure.
std::string readFileBounded(const std::string &path, std::size_t limit, const std::string &what);

/// A file opened for a bounded read: the checks of readFileBounded at open, then read() in chunks, for
/// parsers that stop at the first bad byte (a model of /dev/zero fails on its first chunk).
class BoundedInput
{
public:
    BoundedInput(const std::string &path, std::size_t limit, std::string what); ///< throws Error
    ~BoundedInput();
    BoundedInput(const BoundedInput &) = delete;
    BoundedInput &operator=(const BoundedInput &) = delete;
    /// Up to `size` bytes into `buffer`: the count, 0 at the end, -1 on a read error or beyond the limit.
    long read(char *buffer, std::size_t size);
    std::size_t bytesRead() const { return m_read; }
    /// Throws the Error for a failed read() (the limit, or the read's errno); nothing when none failed.
    void checkRead() const;

private:
    std::string m_path, m_what;
    std::size_t m_limit;
    std::size_t m_read = 0;
    int m_fd = -1;
    int m_error = 0; // errno of a failed read
    bool m_exceeded = false;
};

/// "no space left on device": strerror of `error` with a lower-case first letter, for messages.
std::string errorText(int error);

namespace testing {
/// Test hook: the next writes of writeFileAtomically fail with `error` (e.g. ENOSPC) once `afterBytes` bytes
/// of a file are written; 0 turns it off. Process-wide, for tests only.
void failWritesWith(int error, std::size_t afterBytes = 0);
} // namespace testing

} // namespace specdec
