// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Corpora: UTF-8 text files, either a built corpus named in corpora/manifest.tsv or any file a user gives.

#include "Tokenizer.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace specdec {

struct Corpus
{
    std::string name; ///< "kjv", "tang-song", or the file name of a user's file
    std::string path;
    std::u32string text;
    Vocabulary vocabulary; ///< every distinct code point of the text, sorted

    /// The text as token ids of `vocab`; characters outside it become -1 (a break no n-gram crosses) and
    /// are listed in `unmapped`.
    std::vector<TokenId> tokens(const Vocabulary &vocab, std::vector<char32_t> *unmapped = nullptr) const;
    /// The text as ids of `tokenizer`: a chars tokenizer as above, a tokenizer.json encodes the whole text
    /// (without special tokens; computed once per tokenizer and corpus, then reused).
    std::vector<TokenId> tokens(const Tokenizer &tokenizer, std::vector<char32_t> *unmapped = nullptr) const;

    struct TokenCache;
    std::shared_ptr<TokenCache> tokenCache; ///< made by loadCorpusFile, shared by copies of the corpus
};

/// The largest corpus file read (256 MiB: 60 times the largest built corpus; its text takes 4 bytes a
/// character in memory, and the n-gram tables several times that).
inline constexpr std::size_t kMaxCorpusBytes = std::size_t{256} << 20;

/// Reads and decodes a corpus file. Throws Error for a missing, unreadable, empty, too large (over
/// kMaxCorpusBytes) or invalid UTF-8 file, naming the path (and for bad UTF-8 the byte offset).
Corpus loadCorpusFile(const std::string &path, const std::string &name = {});

/// Finds corpora by name in a list of directories that hold built corpora (NAME.txt), and the files that ship
/// with them (ONNX models named "corpora/kjv/models/target.onnx") under a list of data directories.
class CorpusCatalog
{
public:
    CorpusCatalog() = default;
    explicit CorpusCatalog(std::vector<std::string> directories, std::vector<std::string> dataDirectories = {});

    /// A path for `nameOrPath`: an existing file as given, else NAME.txt in the first directory holding it.
    /// Throws Error listing the known corpus names when neither exists.
    std::string resolve(const std::string &nameOrPath) const;
    Corpus load(const std::string &nameOrPath) const;
    /// The names of built corpora found in the directories.
    std::vector<std::string> names() const;
    const std::vector<std::string> &directories() const { return m_directories; }

    /// A path for a data file: `path` as given when it exists or is absolute, else the first existing
    /// DIR/path of the data directories, else `path` as given (so the error names what was asked for).
    std::string dataFile(const std::string &path) const;
    const std::vector<std::string> &dataDirectories() const { return m_dataDirectories; }

private:
    std::vector<std::string> m_directories;
    std::vector<std::string> m_dataDirectories;
};

} // namespace specdec
