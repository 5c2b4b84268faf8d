// SPDX-License-Identifier: GPL-3.0-or-later
#include "HfTokenizer.h"

#include "Decoder.h"
#include "Error.h"
#include "Normalizer.h"
#include "PostProcessor.h"
#include "PreTokenizer.h"
#include "TextUnits.h"

#include <filesystem>

namespace specdec::tok {

namespace {

/// A special token named in tokenizer_config.json: "<s>" or {"content": "<s>", ...}.
std::string configToken(const Json &config, const char *key)
{
    if (!config.is_object() || !config.contains(key))
        return {};
    const Json &value = config[key];
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_object() && value.contains("content") && value["content"].is_string())
        return value["content"].get<std::string>();
    return {};
}

} // namespace

HfTokenizer::HfTokenizer(BpeModel model, std::string name)
    : m_name(std::move(name))
    , m_model(std::move(model))
{
}

HfTokenizer::HfTokenizer(HfTokenizer &&) noexcept = default;
HfTokenizer &HfTokenizer::operator=(HfTokenizer &&) noexcept = default;
HfTokenizer::~HfTokenizer() = default;

HfTokenizer HfTokenizer::load(const std::string &path)
{
    std::filesystem::path file(path);
    std::error_code error;
    if (std::filesystem::is_directory(file, error))
        file /= "tokenizer.json";
    const std::string name = file.string();
    const Json json = readJsonFile(name);
    const std::filesystem::path configPath = file.parent_path() / "tokenizer_config.json";
    const Json config = std::filesystem::is_regular_file(configPath, error) ? readJsonFile(configPath.string()) : Json();
    return fromJson(json, name, config);
}

HfTokenizer HfTokenizer::fromJsonText(std::string_view tokenizerJson, const std::string &name, std::string_view configJson)
{
    const Json json = parseJson(tokenizerJson, name);
    const Json config = configJson.empty() ? Json() : parseJson(configJson, name + " (tokenizer_config.json)");
    return fromJson(json, name, config);
}

namespace {

/// True when `stage` or a stage of its sequence has this type.
bool hasType(const Json &stage, std::string_view type)
{
    if (!stage.is_object())
        return false;
    if (const auto it = stage.find("type"); it != stage.end() && it->is_string() && it->get<std::string>() == type)
        return true;
    for (const char *key : {"decoders", "pretokenizers", "normalizers"}) {
        if (const auto it = stage.find(key); it != stage.end() && it->is_array()) {
            for (const Json &inner : *it) {
                if (hasType(inner, type))
                    return true;
            }
        }
    }
    return false;
}

/// FNV-1a of the JSON text of `value` (nlohmann's objects keep their keys sorted, so the text is canonical).
std::uint64_t hashJson(const Json &value)
{
    std::uint64_t h = 1469598103934665603ull;
    for (const unsigned char c : value.dump()) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

HfTokenizer::Fingerprint fingerprintOf(const Json &json)
{
    HfTokenizer::Fingerprint f;
    const Json &model = json.at("model");
    Json options = model;
    options.erase("vocab");
    options.erase("merges");
    const Json merges = model.value("merges", Json::array());
    f.vocabulary = hashJson(model.value("vocab", Json()));
    f.merges = hashJson(merges);
    f.mergeCount = merges.is_array() ? merges.size() : 0;
    f.added = hashJson(json.value("added_tokens", Json()));
    f.pipeline = hashJson(Json::array({json.value("normalizer", Json()), json.value("pre_tokenizer", Json()),
                                       json.value("post_processor", Json()), json.value("decoder", Json()), options}));
    return f;
}

} // namespace

HfTokenizer HfTokenizer::fromJson(const Json &json, const std::string &name, const Json &config)
{
    try {
        if (!json.is_object())
            fail("not a tokenizer.json (the top level is not an object)");
        HfTokenizer tokenizer(BpeModel::fromJson(member(json, "model", "the file")), name);
        tokenizer.m_normalizer = Normalizer::fromJson(json.value("normalizer", Json()));
        tokenizer.m_preTokenizer = PreTokenizer::fromJson(json.value("pre_tokenizer", Json()));
        tokenizer.m_postProcessor = PostProcessor::fromJson(json.value("post_processor", Json()));
        tokenizer.m_decoder = Decoder::fromJson(json.value("decoder", Json()));
        tokenizer.m_added = AddedVocabulary(json.value("added_tokens", Json()), tokenizer.m_normalizer.get());
        tokenizer.m_byteLevel = hasType(json.value("decoder", Json()), "ByteLevel");
        tokenizer.m_fingerprint = fingerprintOf(json);
        if (config.is_object())
            tokenizer.readConfig(config);
        return tokenizer;
    } catch (const Error &e) {
        throw Error(name + ": " + oneLine(e.what()));
    } catch (const Json::exception &e) {
        throw Error(name + ": unexpected JSON: " + oneLine(e.what()));
    }
}

void HfTokenizer::readConfig(const Json &config)
{
    const std::string bos = configToken(config, "bos_token");
    const std::string eos = configToken(config, "eos_token");
    if (!bos.empty())
        m_bos = find(bos);
    if (!eos.empty())
        m_eos = find(eos);
    const std::vector<PieceId> prefix = m_postProcessor ? m_postProcessor->prefix() : std::vector<PieceId>{};
    m_addBos = optionalBool(config, "add_bos_token", false) && m_bos
        && std::find(prefix.begin(), prefix.end(), *m_bos) == prefix.end();
    m_addEos = optionalBool(config, "add_eos_token", false) && m_eos && !m_postProcessor;
}

std::vector<PieceId> HfTokenizer::encode(std::string_view text, bool addSpecialTokens) const
{
    if (const std::size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos)
        throw Error("the text is not valid UTF-8 at byte " + std::to_string(bad));
    std::vector<PieceId> ids;
    ids.reserve(text.size() / 3 + 4);
    std::vector<std::string> words;
    try {
        for (TextPiece &piece : m_added.split(text, m_normalizer.get())) {
            if (piece.added) {
                ids.push_back(*piece.added);
                continue;
            }
            words.clear();
            words.push_back(std::move(piece.text));
            if (m_preTokenizer)
                m_preTokenizer->split(words, piece.atStart);
            for (const std::string &word : words)
                m_model.encodeWord(word, ids);
        }
    } catch (const Error &e) { // a regex of the file that exceeds its bounds
        throw Error(m_name + ": " + e.what());
    }
    if (!addSpecialTokens)
        return ids;
    if (m_postProcessor)
        ids = m_postProcessor->process(std::move(ids));
    if (m_addBos)
        ids.insert(ids.begin(), *m_bos);
    if (m_addEos)
        ids.push_back(*m_eos);
    return ids;
}

std::string HfTokenizer::decodeBytes(std::span<const PieceId> ids, bool skipSpecialTokens) const
{
    std::vector<std::string> pieces;
    pieces.reserve(ids.size());
    for (const PieceId id : ids) {
        if (const AddedToken *added = m_added.byId(id)) {
            if (!(skipSpecialTokens && added->special))
                pieces.push_back(added->content);
        } else if (const std::string *piece = m_model.piece(id)) {
            pieces.push_back(*piece);
        } else {
            throw Error("the id " + std::to_string(id) + " is not in the vocabulary of " + m_name);
        }
    }
    if (m_decoder)
        pieces = m_decoder->decodeChain(std::move(pieces));
    std::string out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (i > 0 && !m_decoder)
            out += ' ';
        out += pieces[i];
    }
    return out;
}

std::string HfTokenizer::decode(std::span<const PieceId> ids, bool skipSpecialTokens) const
{
    std::string tail;
    return utf8Lossy(decodeBytes(ids, skipSpecialTokens), &tail);
}

std::optional<std::string> HfTokenizer::piece(PieceId id) const
{
    if (const AddedToken *added = m_added.byId(id))
        return added->content;
    if (const std::string *piece = m_model.piece(id))
        return *piece;
    return std::nullopt;
}

std::optional<PieceId> HfTokenizer::find(std::string_view piece) const
{
    if (const AddedToken *added = m_added.byContent(piece))
        return added->id;
    return m_model.find(piece);
}

bool HfTokenizer::isSpecial(PieceId id) const
{
    const AddedToken *added = m_added.byId(id);
    return added && added->special;
}

std::size_t HfTokenizer::idBound() const
{
    std::size_t bound = m_model.idBound();
    for (const AddedToken &token : m_added.tokens())
        bound = std::max<std::size_t>(bound, std::size_t(token.id) + 1);
    return bound;
}

IncrementalDecoder::IncrementalDecoder(const HfTokenizer &tokenizer, bool skipSpecialTokens)
    : m_tokenizer(tokenizer)
    , m_skipSpecial(skipSpecialTokens)
{
}

std::string IncrementalDecoder::push(PieceId id)
{
    m_window.push_back(id);
    const std::string text = utf8Lossy(m_tokenizer.decodeBytes(m_window, m_skipSpecial), &m_pending);
    std::string out;
    if (text.size() >= m_emitted)
        out = text.substr(m_emitted);
    m_emitted = std::max(m_emitted, text.size());
    if (m_pending.empty() && m_window.size() > 1) {
        // Keep the last id as the context of the next one, if it decodes cleanly on its own (a byte token in
        // the middle of a character does not).
        std::string alonePending;
        const std::string alone = utf8Lossy(m_tokenizer.decodeBytes(std::span(&id, 1), m_skipSpecial), &alonePending);
        if (alonePending.empty() && alone.find("\xEF\xBF\xBD") == std::string::npos) {
            m_window.assign(1, id);
            m_emitted = alone.size();
        }
    }
    return out;
}

} // namespace specdec::tok
