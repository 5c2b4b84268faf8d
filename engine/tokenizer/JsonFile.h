// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a tokenizer's JSON files safely: the size is bounded before reading, the nesting depth is checked
// before parsing (a 100,000-level file gives an error, not a stack overflow), and every problem is one line
// that names the file. Small typed accessors keep the stage parsers short.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace specdec::tok {

using Json = nlohmann::json;

constexpr std::uintmax_t kMaxJsonBytes = 512ull * 1024 * 1024; ///< Gemma-3's tokenizer.json is 33 MB
constexpr int kMaxJsonDepth = 256;

/// Parses `text` (named `what` in errors); throws specdec::Error "what: problem".
Json parseJson(std::string_view text, const std::string &what);
/// Reads and parses the file at `path`; throws specdec::Error "path: problem".
Json readJsonFile(const std::string &path);

/// A problem in a stage's JSON: thrown as specdec::Error and prefixed with the file by the loader.
[[noreturn]] void fail(const std::string &problem);

const Json &member(const Json &object, const char *key, const char *where);
std::string stringMember(const Json &object, const char *key, const char *where);
/// The member as a string, or `fallback` when it is absent or null.
std::string optionalString(const Json &object, const char *key, const std::string &fallback = {});
bool optionalBool(const Json &object, const char *key, bool fallback);
std::uint32_t idValue(const Json &value, const char *where);

} // namespace specdec::tok
