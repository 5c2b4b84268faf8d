// SPDX-License-Identifier: GPL-3.0-or-later
// The Hugging Face tokenizer (engine/tokenizer) against the real thing: the ids of a 260 KB test text for
// GPT-2, Llama-3, Qwen3, Mixtral and Gemma-3 equal those of Hugging Face `tokenizers` 0.22 (golden files made by
// tests/tokenizer/make_golden.js), decoding gives the peer's text back, the incremental decoder holds partial
// characters, and each stage (merges, added-token options, split behaviours, normalizers, decoders, the
// Oniguruma classes) does what HF's does on small cases written here.
#include "Error.h"
#include "TestSupport.h"
#include "Tokenizer.h"
#include "tokenizer/Decoder.h"
#include "tokenizer/HfTokenizer.h"
#include "tokenizer/Normalizer.h"
#include "tokenizer/PreTokenizer.h"
#include "tokenizer/Regex.h"
#include "tokenizer/TextUnits.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <map>
#include <memory>

using namespace specdec;
using namespace specdec::tok;

namespace {

const QString kTokenizerDir = QStringLiteral(SPECDEC_TOKENIZER_DIR);
const QString kGoldenDir = QStringLiteral(SPECDEC_TEST_DATA_DIR "/tokenizers/golden");

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QByteArray sha256(const std::string &bytes)
{
    return QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha256).toHex();
}

std::vector<PieceId> readIds(const QString &path)
{
    std::vector<PieceId> ids;
    const QByteArray text = readAll(path);
    for (const QByteArray &line : text.split('\n'))
        if (!line.isEmpty())
            ids.push_back(line.toUInt());
    return ids;
}

/// A small tokenizer.json: `vocab` pieces numbered in order, `merges` as given (a JSON array), and the other
/// top-level members of `extra` (normalizer, pre_tokenizer, added_tokens, ...) and model members of `model`.
HfTokenizer smallTokenizer(const std::vector<std::string> &vocab, const Json &merges,
                           const Json &extra = Json::object(), const Json &model = Json::object())
{
    Json json = extra;
    Json m = model;
    m["type"] = "BPE";
    Json v = Json::object();
    for (std::size_t i = 0; i < vocab.size(); ++i)
        v[vocab[i]] = i;
    m["vocab"] = v;
    m["merges"] = merges;
    json["model"] = m;
    return HfTokenizer::fromJsonText(json.dump(), "small.json");
}

std::vector<PieceId> ids(std::initializer_list<PieceId> list)
{
    return list;
}

std::vector<std::string> preTokenize(const Json &json, const std::string &text)
{
    std::vector<std::string> words{text};
    PreTokenizer::fromJson(json)->split(words, true);
    return words;
}

std::string normalize(const Json &json, std::string text)
{
    Normalizer::fromJson(json)->normalize(text);
    return text;
}

std::string decodeChain(const Json &json, std::vector<std::string> pieces)
{
    std::string out;
    for (const std::string &piece : Decoder::fromJson(json)->decodeChain(std::move(pieces)))
        out += piece;
    return out;
}

} // namespace

class TestTokenizer : public QObject
{
    Q_OBJECT

    QJsonObject m_manifest;
    std::string m_text;
    std::map<QString, std::unique_ptr<HfTokenizer>> m_loaded;

    /// Each real tokenizer is loaded once per suite.
    const HfTokenizer &real(const QString &name)
    {
        auto &slot = m_loaded[name];
        if (!slot)
            slot = std::make_unique<HfTokenizer>(HfTokenizer::load(QString(kTokenizerDir + u'/' + name).toStdString()));
        return *slot;
    }

private slots:
    void initTestCase()
    {
        m_text = readAll(kTokenizerDir + QStringLiteral("/test-text.txt")).toStdString();
        QVERIFY2(!m_text.empty(),
                 "no test text: the ctest fixture tokenizer_files (tests/tokenizer/fetch-tokenizers.sh) "
                 "lays it out with the tokenizer files");
        m_manifest = QJsonDocument::fromJson(readAll(kGoldenDir + QStringLiteral("/manifest.json"))).object();
        QVERIFY(!m_manifest.isEmpty());
        QVERIFY2(m_text.size() >= 200 * 1024, "the test text is smaller than 200 KB");
        QCOMPARE(sha256(m_text), m_manifest.value(QStringLiteral("text_sha256")).toString().toLatin1());
    }

    void goldenIds_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"gpt2", "llama3", "qwen3", "mixtral", "gemma3"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    /// 0 differences with HF tokenizers on the whole text; a difference is shown with the pieces around it.
    void goldenIds()
    {
        QFETCH(QString, name);
        const HfTokenizer &tokenizer = real(name);
        const std::vector<PieceId> ours = tokenizer.encode(m_text);
        const std::vector<PieceId> golden = readIds(QString(kGoldenDir + u'/' + name + QStringLiteral(".ids")));
        QCOMPARE(golden.size(),
                 std::size_t(m_manifest[QStringLiteral("tokenizers")][name][QStringLiteral("ids")].toInt()));
        std::size_t first = 0;
        while (first < ours.size() && first < golden.size() && ours[first] == golden[first])
            ++first;
        if (first < ours.size() || first < golden.size()) {
            QString context;
            for (std::size_t k = first > 5 ? first - 5 : 0; k < first + 5; ++k)
                context += QStringLiteral(" [%1|%2]")
                               .arg(k < ours.size() ? QString::fromStdString(*tokenizer.piece(ours[k])) : QString())
                               .arg(k < golden.size() ? QString::fromStdString(*tokenizer.piece(golden[k])) : QString());
            QFAIL(qPrintable(QStringLiteral("%1: %2 ids vs HF's %3; first difference at %4 (ours|HF):%5")
                                 .arg(name)
                                 .arg(ours.size())
                                 .arg(golden.size())
                                 .arg(first)
                                 .arg(context)));
        }
    }

    void decodeMatchesPeer_data() { goldenIds_data(); }

    /// decode(golden ids) is HF's decode; where the normalizer leaves the text as it is, that is the text.
    void decodeMatchesPeer()
    {
        QFETCH(QString, name);
        const HfTokenizer &tokenizer = real(name);
        const std::vector<PieceId> golden = readIds(QString(kGoldenDir + u'/' + name + QStringLiteral(".ids")));
        const std::string decoded = tokenizer.decode(golden);
        const QJsonObject expected = m_manifest[QStringLiteral("tokenizers")][name].toObject();
        QCOMPARE(sha256(decoded), expected[QStringLiteral("decoded_sha256")].toString().toLatin1());
        if (name == QLatin1String("gpt2") || name == QLatin1String("llama3"))
            QVERIFY(decoded == m_text);      // no normalizer
        if (name == QLatin1String("gemma3")) // " " <-> "▁" both ways; the text has no "▁"
            QVERIFY(tokenizer.decode(tokenizer.encode(m_text, false)) == m_text);
        if (name == QLatin1String("qwen3")) { // NFC: the text's NFC form comes back
            std::string nfc = m_text;
            Normalizer::fromJson(Json{{"type", "NFC"}})->normalize(nfc);
            QVERIFY(nfc != m_text);
            QVERIFY(decoded == nfc);
        }
    }

    /// BOS / EOS from tokenizer_config.json; BOS added once, by the post-processor or by add_bos_token.
    void configTokens()
    {
        const HfTokenizer &gemma = real(QStringLiteral("gemma3"));
        QCOMPARE(gemma.bos(), std::optional<PieceId>(2));
        QCOMPARE(gemma.piece(*gemma.eos()), std::optional<std::string>("<end_of_turn>"));
        QCOMPARE(gemma.encode("hi").front(), PieceId(2));
        QCOMPARE(gemma.encode("hi")[1], gemma.encode("hi", false).front());
        const HfTokenizer &mixtral = real(QStringLiteral("mixtral"));
        QCOMPARE(mixtral.bos(), std::optional<PieceId>(1));
        QCOMPARE(mixtral.encode("hi").size(), mixtral.encode("hi", false).size() + 1);
        const HfTokenizer &qwen = real(QStringLiteral("qwen3"));
        QVERIFY(!qwen.bos()); // "bos_token": null
        QCOMPARE(qwen.piece(*qwen.eos()), std::optional<std::string>("<|im_end|>"));
        QCOMPARE(qwen.encode("hi"), qwen.encode("hi", false));
        QVERIFY(qwen.isSpecial(*qwen.find("<|endoftext|>")));
    }

    void shortCases_data() { goldenIds_data(); }

    /// The manifest's short cases (NEL, U+180E, VT, contractions, emoji, ...) one by one, specials off.
    void shortCases()
    {
        QFETCH(QString, name);
        const HfTokenizer &tokenizer = real(name);
        const QJsonArray cases = m_manifest[QStringLiteral("cases")].toArray();
        QVERIFY(cases.size() >= 20);
        for (const QJsonValue &value : cases) {
            const std::string text = value[QStringLiteral("text")].toString().toStdString();
            std::vector<PieceId> expected;
            for (const QJsonValue &id : value[QStringLiteral("ids")][name].toArray())
                expected.push_back(static_cast<PieceId>(id.toInteger()));
            QVERIFY2(tokenizer.encode(text, false) == expected, text.c_str());
        }
    }

    void incrementalDecoding_data() { goldenIds_data(); }

    /// Pushing the ids one by one gives the whole decode, never a U+FFFD, and holds the bytes of partial
    /// characters (Chinese and emoji split into byte tokens) until they complete.
    void incrementalDecoding()
    {
        QFETCH(QString, name);
        const HfTokenizer &tokenizer = real(name);
        std::vector<PieceId> golden = readIds(QString(kGoldenDir + u'/' + name + QStringLiteral(".ids")));
        golden.resize(std::min<std::size_t>(golden.size(), 30000));
        IncrementalDecoder decoder(tokenizer);
        std::string streamed;
        int held = 0;
        for (const PieceId id : golden) {
            const std::string piece = decoder.push(id);
            QVERIFY(piece.find("\xEF\xBF\xBD") == std::string::npos);
            streamed += piece;
            held += decoder.pending().empty() ? 0 : 1;
        }
        QVERIFY(streamed + decoder.pending() == tokenizer.decodeBytes(golden));
        QVERIFY2(held > 0, "no id of the text ends inside a character");
    }

    void catastrophicAndOnigurumaClasses()
    {
        // \s is Unicode White_Space as in Oniguruma: VT and NEL are spaces, U+180E is not (PCRE2's own \s takes it).
        QCOMPARE(Regex("\\s+").findAll("a\v\xC2\x85"
                                       "b"),
                 (std::vector<std::pair<std::size_t, std::size_t>>{{1, 4}}));
        QVERIFY(Regex("\\s").findAll("\xE1\xA0\x8E").empty());
        QCOMPARE(Regex("[^\\s\\p{L}]+").findAll("\xE1\xA0\x8E").size(), std::size_t(1));
        QCOMPARE(Regex("\\h+").findAll("xyz09afG").front(), std::make_pair(std::size_t(3), std::size_t(7)));
        QCOMPARE(Regex("(?i:'s)").findAll("IT'S").size(), std::size_t(1));
        QCOMPARE(onigurumaToPcre2("[^\\s\\p{L}]"),
                 std::string("[^\\t\\n\\x{0B}\\f\\r\\x{20}\\x{85}\\x{A0}\\x{1680}"
                             "\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}"
                             "\\x{3000}\\p{L}]"));
        // A pattern that backtracks catastrophically fails within its bounds instead of hanging.
        QElapsedTimer timer;
        timer.start();
        QVERIFY_THROWS_EXCEPTION(Error, Regex("(\\w+\\s?)+$").findAll(std::string(30000, 'a') + "!"));
        QVERIFY(timer.elapsed() < 20000);
        QVERIFY_THROWS_EXCEPTION(Error, Regex("(unclosed"));
    }

    void bpeMergesAndOptions()
    {
        const std::vector<std::string> vocab{"a", "b", "c", "ab", "abc", "ac", "<unk>"};
        // Both file forms of the merges.
        QCOMPARE(smallTokenizer(vocab, Json::array({"a b", "ab c"})).encode("abc"), ids({4}));
        QCOMPARE(smallTokenizer(vocab, Json::array({Json::array({"a", "b"}), Json::array({"ab", "c"})})).encode("abc"),
                 ids({4}));
        // Rank order: with "b c" unknown and "ab" before "abc", "cab" is c + ab.
        QCOMPARE(smallTokenizer(vocab, Json::array({"a b", "ab c"})).encode("cab"), ids({2, 3}));
        // ignore_merges: a word in the vocabulary is one token even without a merge path.
        QCOMPARE(smallTokenizer(vocab, Json::array(), {}, {{"ignore_merges", true}}).encode("ac"), ids({5}));
        QCOMPARE(smallTokenizer(vocab, Json::array(), {}, {{"ignore_merges", false}}).encode("ac"), ids({0, 2}));
        // unk_token, fused or not.
        QCOMPARE(smallTokenizer(vocab, Json::array(), {}, {{"unk_token", "<unk>"}, {"fuse_unk", true}}).encode("axyb"),
                 ids({0, 6, 1}));
        QCOMPARE(smallTokenizer(vocab, Json::array(), {}, {{"unk_token", "<unk>"}}).encode("axyb"), ids({0, 6, 6, 1}));
        QCOMPARE(smallTokenizer(vocab, Json::array()).encode("axb"), ids({0, 1})); // no unk: dropped, as HF
        // continuing_subword_prefix and end_of_word_suffix.
        const HfTokenizer marked = smallTokenizer({"a", "##b", "##c</w>", "ab", "abc</w>"},
                                                  Json::array({"a ##b", "ab ##c</w>"}), {},
                                                  {{"continuing_subword_prefix", "##"}, {"end_of_word_suffix", "</w>"}});
        QCOMPARE(marked.encode("abc"), ids({4}));
        // byte_fallback: a missing character becomes its <0xXX> tokens; ByteFallback + Fuse decode them.
        const Json decoder{{"type", "Sequence"},
                           {"decoders", Json{Json{{"type", "ByteFallback"}}, Json{{"type", "Fuse"}}}}};
        const HfTokenizer bytes = smallTokenizer({"<unk>", "<0xC3>", "<0xA9>", "a"}, Json::array(),
                                                 {{"decoder", decoder}},
                                                 {{"unk_token", "<unk>"}, {"byte_fallback", true}});
        QCOMPARE(bytes.encode("a\xC3\xA9"), ids({3, 1, 2}));
        QCOMPARE(bytes.decode(ids({3, 1, 2})), std::string("a\xC3\xA9"));
        QCOMPARE(bytes.encode("a\xE2\x82\xAC"), ids({3, 0})); // no <0xE2>: unk
        // The incremental decoder holds <0xC3> until <0xA9> arrives.
        IncrementalDecoder incremental(bytes);
        QCOMPARE(incremental.push(3), std::string("a"));
        QCOMPARE(incremental.push(1), std::string());
        QCOMPARE(incremental.pending(), std::string("\xC3"));
        QCOMPARE(incremental.push(2), std::string("\xC3\xA9"));
        QVERIFY(incremental.pending().empty());
    }

    void addedTokenOptions()
    {
        std::vector<std::string> vocab;
        for (char c = 'a'; c <= 'z'; ++c)
            vocab.emplace_back(1, c);
        vocab.emplace_back(" "); // 26
        auto added = [](PieceId id, const char *content, const char *option, bool normalized = false) {
            Json token{{"id", id}, {"content", content}, {"normalized", normalized}, {"special", true}};
            if (option)
                token[option] = true;
            return token;
        };
        const Json tokens{added(27, "<x>", "lstrip"), added(28, "<y>", "rstrip"), added(29, "tok", "single_word"),
                          added(30, "<n>", nullptr, true), added(31, "<x>>", nullptr)};
        const HfTokenizer tokenizer = smallTokenizer(
            vocab, Json::array(), {{"added_tokens", tokens}, {"normalizer", {{"type", "Lowercase"}}}});
        QCOMPARE(tokenizer.encode("a  <x>b"), ids({0, 27, 1})); // lstrip takes the spaces before
        QCOMPARE(tokenizer.encode("<y>  b"), ids({28, 1}));     // rstrip the spaces after
        QCOMPARE(tokenizer.encode("tok atok tok"), ids({29, 26, 0, 19, 14, 10, 26, 29})); // single_word
        QCOMPARE(tokenizer.encode("<N>"), ids({30}));  // normalized: found after Lowercase
        QCOMPARE(tokenizer.encode("<x>>"), ids({31})); // the longest match wins
        // "<x>" is not normalized: the raw "<X>" does not match it, even though Lowercase makes it "<x>" (then
        // '<' and '>', not in the vocabulary and with no unk_token, are dropped).
        QCOMPARE(tokenizer.encode("<X>"), ids({23}));
    }

    void splitBehaviors()
    {
        auto split = [](const char *behavior, bool invert = false) {
            return Json{{"type", "Split"}, {"pattern", {{"String", "-"}}}, {"behavior", behavior}, {"invert", invert}};
        };
        using Words = std::vector<std::string>;
        QCOMPARE(preTokenize(split("Removed"), "a-b--c"), (Words{"a", "b", "c"}));
        QCOMPARE(preTokenize(split("Isolated"), "a-b--c"), (Words{"a", "-", "b", "-", "-", "c"}));
        QCOMPARE(preTokenize(split("MergedWithPrevious"), "a-b--c"), (Words{"a-", "b-", "-", "c"}));
        QCOMPARE(preTokenize(split("MergedWithNext"), "a-b--c"), (Words{"a", "-b", "-", "-c"}));
        QCOMPARE(preTokenize(split("Contiguous"), "a-b--c"), (Words{"a", "-", "b", "--", "c"}));
        QCOMPARE(preTokenize(
                     Json{{"type", "Split"}, {"pattern", {{"Regex", "\\w+"}}}, {"behavior", "Removed"}, {"invert", true}},
                     "hi, there"),
                 (Words{"hi", "there"}));
        QCOMPARE(preTokenize(Json{{"type", "Digits"}, {"individual_digits", false}}, "ab123c4"),
                 (Words{"ab", "123", "c", "4"}));
        QCOMPARE(preTokenize(Json{{"type", "Digits"}, {"individual_digits", true}}, "ab12"), (Words{"ab", "1", "2"}));
        QCOMPARE(preTokenize(Json{{"type", "Metaspace"}, {"replacement", "\xE2\x96\x81"}, {"prepend_scheme", "always"}},
                             "hello world"),
                 (Words{"\xE2\x96\x81hello", "\xE2\x96\x81world"}));
        QCOMPARE(preTokenize(Json{{"type", "ByteLevel"}, {"add_prefix_space", true}, {"use_regex", true}}, "it's 12"),
                 (Words{"\xC4\xA0it", "'s",
                        "\xC4\xA0"
                        "12"}));
    }

    void normalizers()
    {
        QCOMPARE(normalize(Json{{"type", "NFC"}}, "e\xCC\x81"), std::string("\xC3\xA9"));
        QCOMPARE(normalize(Json{{"type", "NFKC"}}, "\xEF\xAC\x81"), std::string("fi"));
        // Lowercase maps each character alone (no final sigma), as HF does.
        QCOMPARE(normalize(Json{{"type", "Lowercase"}}, "\xCE\xA3\xCE\x91\xCE\xA3"),
                 std::string("\xCF\x83\xCE\xB1\xCF\x83"));
        const Json llama2{{"type", "Sequence"},
                          {"normalizers",
                           Json{Json{{"type", "Prepend"}, {"prepend", "\xE2\x96\x81"}},
                                Json{{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", "\xE2\x96\x81"}}}}};
        QCOMPARE(normalize(llama2, "a b"),
                 std::string("\xE2\x96\x81"
                             "a"
                             "\xE2\x96\x81"
                             "b"));
        QCOMPARE(normalize(llama2, ""), std::string()); // Prepend leaves an empty text empty
    }

    void decoders()
    {
        QCOMPARE(decodeChain(Json{{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}, {" a", "  b"}),
                 std::string("a b"));
        QCOMPARE(decodeChain(Json{{"type", "Metaspace"}, {"replacement", "\xE2\x96\x81"}, {"prepend_scheme", "always"}},
                             {"\xE2\x96\x81hi", "\xE2\x96\x81there"}),
                 std::string("hi there"));
        const Json mixtral{{"type", "Sequence"},
                           {"decoders",
                            Json{Json{{"type", "Replace"}, {"pattern", {{"String", "\xE2\x96\x81"}}}, {"content", " "}},
                                 Json{{"type", "ByteFallback"}}, Json{{"type", "Fuse"}},
                                 Json{{"type", "Strip"}, {"content", " "}, {"start", 1}, {"stop", 0}}}}};
        QCOMPARE(decodeChain(mixtral, {"\xE2\x96\x81x", "<0xE4>", "<0xBD>", "<0xA0>", "\xE2\x96\x81y"}),
                 std::string("x\xE4\xBD\xA0 y"));
        // An invalid byte group in the middle gives one U+FFFD per byte, as HF.
        QCOMPARE(decodeChain(mixtral, {"<0xFF>", "a"}),
                 std::string("\xEF\xBF\xBD"
                             "a"));
        QCOMPARE(decodeChain(Json{{"type", "ByteLevel"}}, {"\xC4\xA0the", "<|x|>"}), std::string(" the<|x|>"));
    }

    void enginePiecesAndText()
    {
        // specdec::Tokenizer over tokenizer.json: pieces as traces show them, their kinds, decoding that holds a
        // split character back, and the text a stream of ids completes.
        const Tokenizer qwen = Tokenizer::load(QString(kTokenizerDir + u"/qwen3").toStdString());
        const Tokenizer mixtral = Tokenizer::load(QString(kTokenizerDir + u"/mixtral").toStdString());
        QCOMPARE(qwen.size(), 151669);
        QCOMPARE(qwen.describe(), std::string("qwen3's tokenizer.json (151,669 ids)"));
        auto idOf = [](const Tokenizer &t, const char *piece) {
            return static_cast<TokenId>(*t.huggingFace()->find(piece));
        };
        const TokenId the = idOf(qwen, "Ġthe");
        QCOMPARE(qwen.display(the), std::string("\u2423the"));
        QCOMPARE(qwen.piece(the).bytes, std::string(" the"));
        QVERIFY(qwen.piece(the).kind == TokenPiece::Kind::Text);
        const TokenId end = idOf(qwen, "<|endoftext|>");
        QVERIFY(qwen.piece(end).kind == TokenPiece::Kind::Special);
        QCOMPARE(qwen.display(end), std::string("<|endoftext|>"));
        const TokenId of = idOf(mixtral, "▁of");
        QCOMPARE(mixtral.display(of), std::string("▁of"));
        const TokenId e5 = idOf(mixtral, "<0xE5>");
        QVERIFY(mixtral.piece(e5).kind == TokenPiece::Kind::Byte);
        QCOMPARE(mixtral.display(e5), std::string("<E5>"));
        // A byte-level piece that is part of a character: its bytes as chips.
        const TokenId part = idOf(qwen, "æĪ"); // E6 88: the first two bytes of 我 (E6 88 91)
        QVERIFY(qwen.piece(part).kind == TokenPiece::Kind::Byte);
        QCOMPARE(qwen.display(part), std::string("<E6><88>"));

        // 鑫 is not one of Mixtral's pieces: three byte tokens. decode holds the character back until it is whole.
        const std::vector<TokenId> ids = mixtral.encode("金鑫");
        QVERIFY(ids.size() >= 4);
        const std::vector<TokenId> partial(ids.begin(), ids.end() - 1);
        QCOMPARE(mixtral.decode(partial), std::string("金"));
        QCOMPARE(mixtral.decode(ids), std::string("金鑫"));
        TextStream stream(mixtral);
        std::string streamed;
        for (const TokenId id : ids) {
            streamed += stream.push(std::span(&id, 1));
            QVERIFY(streamed.find("\xEF\xBF\xBD") == std::string::npos); // never U+FFFD
        }
        QCOMPARE(streamed, std::string("金鑫"));
        QVERIFY(stream.pending().empty());
        // SentencePiece strips the leading space of a text only: after a context the space stays.
        const std::vector<TokenId> prompt = mixtral.encode("And God said");
        const std::vector<TokenId> more = mixtral.encode("And God said unto");
        const std::vector<TokenId> tail(more.begin() + static_cast<std::ptrdiff_t>(prompt.size()), more.end());
        QCOMPARE(mixtral.decodeAfter(prompt, tail), std::string(" unto"));
    }

    void cli()
    {
        const QString gpt2 = kTokenizerDir + QStringLiteral("/gpt2/tokenizer.json");
        QProcess process;
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("tokenize"), QStringLiteral("--tokenizer"), gpt2, QStringLiteral("--text"),
                       QStringLiteral("Hello world"), QStringLiteral("--json")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QCOMPARE(json[QStringLiteral("ids")].toArray(), (QJsonArray{15496, 995}));
        QCOMPARE(json[QStringLiteral("pieces")].toArray(),
                 (QJsonArray{QStringLiteral("Hello"), QStringLiteral("Ġworld")}));

        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("detokenize"), QStringLiteral("--tokenizer"), gpt2, QStringLiteral("--ids"),
                       QStringLiteral("15496,995")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(process.readAllStandardOutput(), QByteArray("Hello world"));

        // Ids that end inside a character: the text so far, and a note naming the bytes held back.
        const HfTokenizer &tokenizer = real(QStringLiteral("gpt2"));
        const std::vector<PieceId> chinese = tokenizer.encode("\xE4\xBD\xA0\xE5\xA5\xBD", false);
        std::size_t cut = 1;
        while (cut < chinese.size()
               && tokenizer.decode(std::span(chinese.data(), cut)).size()
                   == tokenizer.decodeBytes(std::span(chinese.data(), cut)).size())
            ++cut;
        QVERIFY(cut < chinese.size());
        QStringList idList;
        for (std::size_t k = 0; k < cut; ++k)
            idList << QString::number(chinese[k]);
        process.start(QStringLiteral(SPECDEC_BIN_DIR "/specdec"),
                      {QStringLiteral("detokenize"), QStringLiteral("--tokenizer"), gpt2, QStringLiteral("--ids"),
                       idList.join(u',')});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(!process.readAllStandardOutput().contains("\xEF\xBF\xBD"));
        QVERIFY(process.readAllStandardError().contains("held back"));
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
