// SPDX-License-Identifier: GPL-3.0-or-later
#include "JsonFile.h"

#include "Error.h"

#include <filesystem>
#include <fstream>

namespace specdec::tok {

namespace {

/// The deepest nesting of arrays and objects in `text` (strings skipped), stopping early past `limit`.
int nestingDepth(std::string_view text, int limit)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) {
                deepest = depth;
                if (deepest > limit)
                    return deepest;
            }
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

void fail(const std::string &problem)
{
    throw Error(problem);
}

Json parseJson(std::string_view text, const std::string &what)
{
    if (nestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth)
        throw Error(what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::exception &e) {
        std::string message = e.what();
        if (const auto bracket = message.find("] ");
            message.starts_with("[json.exception") && bracket != std::string::npos)
            message.erase(0, bracket + 2);
        throw Error(what + ": not valid JSON: " + oneLine(message));
    }
}

Json readJsonFile(const std::string &path)
{
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status))
        throw Error(path + ": no such file");
    if (!std::filesystem::is_regular_file(status))
        throw Error(path + ": not a regular file");
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    if (error)
        throw Error(path + ": cannot read its size: " + error.message());
    if (size > kMaxJsonBytes)
        throw Error(path + ": " + std::to_string(size) + " bytes, more than the " + std::to_string(kMaxJsonBytes >> 20)
                    + " MiB a tokenizer file may have");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(path + ": cannot open it");
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return parseJson(text, path);
}

const Json &member(const Json &object, const char *key, const char *where)
{
    if (!object.is_object())
        fail(std::string(where) + " is not a JSON object");
    const auto it = object.find(key);
    if (it == object.end())
        fail(std::string(where) + " has no \"" + key + "\"");
    return *it;
}

std::string stringMember(const Json &object, const char *key, const char *where)
{
    const Json &value = member(object, key, where);
    if (!value.is_string())
        fail(std::string(where) + "'s \"" + key + "\" is not a string");
    return value.get<std::string>();
}

std::string optionalString(const Json &object, const char *key, const std::string &fallback)
{
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return fallback;
    if (!it->is_string())
        fail(std::string("\"") + key + "\" is not a string");
    return it->get<std::string>();
}

bool optionalBool(const Json &object, const char *key, bool fallback)
{
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
        return fallback;
    if (!it->is_boolean())
        fail(std::string("\"") + key + "\" is not true or false");
    return it->get<bool>();
}

std::uint32_t idValue(const Json &value, const char *where)
{
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() > 0x7FFFFFFF)
        fail(std::string(where) + " is not a token id (an integer from 0 to 2^31-1)");
    return static_cast<std::uint32_t>(value.get<std::int64_t>());
}

} // namespace specdec::tok
