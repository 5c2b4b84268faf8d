// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one exception type of the engine: a message a user can act on ("what is wrong and where").

#include <stdexcept>
#include <string>

namespace specdec {

/// Thrown for every user-facing error: bad files, bad settings, vocabulary mismatches, unsupported models.
class Error : public std::runtime_error
{
public:
    explicit Error(const std::string &message)
        : std::runtime_error(message)
    {
    }
};

} // namespace specdec
