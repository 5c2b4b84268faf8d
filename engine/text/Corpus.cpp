// SPDX-License-Identifier: GPL-3.0-or-later
#include "Corpus.h"

#include "Error.h"
#include "Utf8.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace fs = std::filesystem;

namespace specdec {

std::vector<TokenId> Corpus::tokens(const Vocabulary &vocab, std::vector<char32_t> *unmapped) const
{
    std::vector<TokenId> ids;
    ids.reserve(text.size());
    const bool same = vocab == vocabulary;
    for (char32_t cp : text) {
        const TokenId id = same ? vocabulary.find(cp) : vocab.find(cp);
        if (id < 0 && unmapped && std::find(unmapped->begin(), unmapped->end(), cp) == unmapped->end())
            unmapped->push_back(cp);
        ids.push_back(id);
    }
    return ids;
}

struct Corpus::TokenCache
{
    std::mutex mutex;
    std::vector<std::pair<Tokenizer, std::shared_ptr<const std::vector<TokenId>>>> entries;
};

std::vector<TokenId> Corpus::tokens(const Tokenizer &tokenizer, std::vector<char32_t> *unmapped) const
{
    if (const Vocabulary *characters = tokenizer.characters())
        return tokens(*characters, unmapped);
    if (!tokenCache)
        return tokenizer.encode(encodeUtf8(text), "corpus " + name);
    std::unique_lock lock(tokenCache->mutex);
    for (const auto &[known, ids] : tokenCache->entries) {
        if (known == tokenizer)
            return *ids;
    }
    lock.unlock();
    auto ids = std::make_shared<const std::vector<TokenId>>(tokenizer.encode(encodeUtf8(text), "corpus " + name));
    lock.lock();
    tokenCache->entries.emplace_back(tokenizer, ids);
    return *ids;
}

Corpus loadCorpusFile(const std::string &path, const std::string &name)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw Error("corpus file " + path + " does not exist");
    if (fs::is_directory(path, ec))
        throw Error("corpus " + path + " is a directory, not a text file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error("corpus file " + path + " cannot be read");
    // Read in blocks up to the limit, so that /dev/zero or a huge file is an error, not a machine out of memory.
    std::string bytes;
    std::vector<char> block(std::size_t{1} << 20);
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        bytes.append(block.data(), static_cast<std::size_t>(in.gcount()));
        if (bytes.size() > kMaxCorpusBytes)
            throw Error("corpus file " + path + " is larger than " + std::to_string(kMaxCorpusBytes >> 20)
                        + " MiB, the most a corpus may hold");
    }
    if (in.bad())
        throw Error("corpus file " + path + ": read error");
    Corpus corpus;
    corpus.path = path;
    corpus.name = name.empty() ? fs::path(path).stem().string() : name;
    corpus.text = decodeUtf8(bytes, "corpus file " + path);
    if (corpus.text.empty())
        throw Error("corpus file " + path + " is empty");
    corpus.vocabulary = Vocabulary::fromText(corpus.text);
    corpus.tokenCache = std::make_shared<Corpus::TokenCache>();
    return corpus;
}

CorpusCatalog::CorpusCatalog(std::vector<std::string> directories, std::vector<std::string> dataDirectories)
    : m_directories(std::move(directories))
    , m_dataDirectories(std::move(dataDirectories))
{
}

std::string CorpusCatalog::dataFile(const std::string &path) const
{
    std::error_code ec;
    if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec))
        return path;
    for (const auto &dir : m_dataDirectories) {
        const fs::path candidate = fs::path(dir) / path;
        if (fs::exists(candidate, ec))
            return candidate.string();
    }
    return path;
}

std::string CorpusCatalog::resolve(const std::string &nameOrPath) const
{
    std::error_code ec;
    if (nameOrPath.empty())
        throw Error("no corpus given");
    const bool looksLikePath = nameOrPath.find('/') != std::string::npos || fs::path(nameOrPath).has_extension();
    if (looksLikePath || fs::is_regular_file(nameOrPath, ec)) {
        if (!fs::exists(nameOrPath, ec))
            throw Error("corpus file " + nameOrPath + " does not exist");
        return nameOrPath;
    }
    for (const auto &dir : m_directories) {
        const fs::path candidate = fs::path(dir) / (nameOrPath + ".txt");
        if (fs::is_regular_file(candidate, ec))
            return candidate.string();
    }
    const std::string known = shortList(names());
    throw Error(
        "unknown corpus '" + nameOrPath + "': not a file, and no built corpus of that name"
        + (known.empty() ? std::string(" (no corpora are built; run the build first)") : " (known: " + known + ")"));
}

Corpus CorpusCatalog::load(const std::string &nameOrPath) const
{
    const std::string path = resolve(nameOrPath);
    const bool isName = path != nameOrPath;
    return loadCorpusFile(path, isName ? nameOrPath : std::string());
}

std::vector<std::string> CorpusCatalog::names() const
{
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto &dir : m_directories) {
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            if (it->path().extension() == ".txt" && it->is_regular_file(ec)) {
                const std::string stem = it->path().stem().string();
                if (std::find(out.begin(), out.end(), stem) == out.end())
                    out.push_back(stem);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace specdec
