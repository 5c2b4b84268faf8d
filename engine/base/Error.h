// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one exception type of the engine: a message a user can act on ("what is wrong and where").

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

/// `text` on one line: each run of line breaks (with the spaces around it) becomes "; ", for messages
/// that quote another library (the ONNX checker writes several lines).
inline std::string oneLine(std::string_view text)
{
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == '\n' || text[i] == '\r') {
            while (!out.empty() && (out.back() == ' ' || out.back() == '\t'))
                out.pop_back();
            while (i < text.size() && (text[i] == '\n' || text[i] == '\r' || text[i] == ' ' || text[i] == '\t'))
                ++i;
            if (!out.empty() && i < text.size())
                out += "; ";
            continue;
        }
        out += text[i++];
    }
    return out;
}

/// `items` joined with ", ", at most `shown` of them, then "… and N more": a list in a message stays short
/// (an unknown corpus among 3,000 listed every name).
inline std::string shortList(const std::vector<std::string> &items, std::size_t shown = 10)
{
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i)
        out += (i ? ", " : "") + items[i];
    if (items.size() > shown)
        out += " \u2026 and " + std::to_string(items.size() - shown) + " more";
    return out;
}

} // namespace specdec
