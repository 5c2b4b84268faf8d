// SPDX-License-Identifier: GPL-3.0-or-later
// specdec tokenize and detokenize: a Hugging Face tokenizer.json run on a text (ids, pieces) and back, so anyone
// can compare the engine's tokenizer with a peer (transformers, tokenizers).
#include "CliOptions.h"
#include "Commands.h"
#include "Output.h"
#include "ParseArguments.h"

#include "Error.h"
#include "tokenizer/HfTokenizer.h"
#include "tokenizer/TextUnits.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>

namespace specdec::cli {

namespace {

constexpr qint64 kMaxInputBytes = 1024ll * 1024 * 1024;

void addTokenizerFileOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("tokenizer"), tr("The tokenizer.json (or the folder holding it)."), tr("path")});
}

tok::HfTokenizer loadTokenizer(const QCommandLineParser &parser)
{
    if (!parser.isSet(QStringLiteral("tokenizer")))
        throw UsageError(tr("--tokenizer PATH/tokenizer.json is required"));
    return tok::HfTokenizer::load(parser.value(QStringLiteral("tokenizer")).toStdString());
}

/// The bytes of `path`, bounded.
std::string readInput(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path.toStdString() + ": " + file.errorString().toStdString());
    if (file.size() > kMaxInputBytes)
        throw Error(path.toStdString() + ": " + std::to_string(file.size()) + " bytes, more than 1 GiB");
    const QByteArray bytes = file.readAll();
    return bytes.toStdString();
}

/// "1,2,3", "1 2 3" or one id a line.
std::vector<tok::PieceId> parseIds(const std::string &text, const std::string &where)
{
    std::vector<tok::PieceId> ids;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == ',' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '[' || c == ']') {
            ++i;
            continue;
        }
        if (c < '0' || c > '9')
            throw UsageError(tr("%1: '%2' at byte %3 is not part of a token id")
                                 .arg(QString::fromStdString(where), QString(QChar::fromLatin1(c)))
                                 .arg(i));
        std::uint64_t value = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
            if (value > 0x7FFFFFFF)
                throw UsageError(tr("%1: a token id is too large").arg(QString::fromStdString(where)));
            ++i;
        }
        ids.push_back(static_cast<tok::PieceId>(value));
    }
    return ids;
}

} // namespace

int tokenizeCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addTokenizerFileOption(parser);
    parser.addOption({QStringLiteral("text"), tr("The text to tokenize."), tr("text")});
    parser.addOption({QStringLiteral("file"), tr("A UTF-8 file to tokenize."), tr("file")});
    parser.addOption({QStringLiteral("json"), tr("Print {\"ids\": [...], \"pieces\": [...]}.")});
    parser.addOption({QStringLiteral("no-special"),
                      tr("Do not add the post-processor's special tokens (BOS), like add_special_tokens=False.")});
    parser.addOption({QStringLiteral("stats"), tr("Print the number of tokens and the encoding speed only.")});
    if (!parseArguments(parser, QStringLiteral("tokenize"),
                        tr("Encode a text with a Hugging Face tokenizer.json: ids (comma-separated) or, with "
                           "--json, ids and pieces."),
                        arguments))
        return 0;
    if (parser.isSet(QStringLiteral("text")) == parser.isSet(QStringLiteral("file")))
        throw UsageError(tr("give exactly one of --text T and --file F"));
    const std::string text = parser.isSet(QStringLiteral("text")) ? parser.value(QStringLiteral("text")).toStdString()
                                                                  : readInput(parser.value(QStringLiteral("file")));
    const tok::HfTokenizer tokenizer = loadTokenizer(parser);
    QElapsedTimer timer;
    timer.start();
    const std::vector<tok::PieceId> ids = tokenizer.encode(text, !parser.isSet(QStringLiteral("no-special")));
    const double seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;

    if (parser.isSet(QStringLiteral("stats"))) {
        out() << tr("%1 tokens from %2 bytes in %3 s: %4 tokens/s\n")
                     .arg(ids.size())
                     .arg(text.size())
                     .arg(seconds, 0, 'f', 3)
                     .arg(seconds > 0 ? static_cast<double>(ids.size()) / seconds : 0.0, 0, 'f', 0);
        out().flush();
        return 0;
    }
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray idArray;
        QJsonArray pieceArray;
        for (const tok::PieceId id : ids) {
            idArray.append(static_cast<qint64>(id));
            pieceArray.append(QString::fromStdString(tokenizer.piece(id).value_or(std::string())));
        }
        printJson(QJsonObject{{QStringLiteral("ids"), idArray}, {QStringLiteral("pieces"), pieceArray}});
        return 0;
    }
    QString line;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0)
            line += QLatin1Char(',');
        line += QString::number(ids[i]);
    }
    out() << line << '\n';
    out().flush();
    return 0;
}

int detokenizeCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    addTokenizerFileOption(parser);
    parser.addOption({QStringLiteral("ids"), tr("The token ids, e.g. \"1,2,3\"."), tr("ids")});
    parser.addOption(
        {QStringLiteral("file"), tr("A file of token ids (separated by commas, spaces or lines)."), tr("file")});
    parser.addOption({QStringLiteral("skip-special"), tr("Leave special tokens out, like skip_special_tokens=True.")});
    if (!parseArguments(parser, QStringLiteral("detokenize"),
                        tr("Decode token ids with a Hugging Face tokenizer.json and print the text."), arguments))
        return 0;
    if (parser.isSet(QStringLiteral("ids")) == parser.isSet(QStringLiteral("file")))
        throw UsageError(tr("give exactly one of --ids \"1,2,3\" and --file F"));
    const bool fromFile = parser.isSet(QStringLiteral("file"));
    const std::string source = fromFile ? readInput(parser.value(QStringLiteral("file")))
                                        : parser.value(QStringLiteral("ids")).toStdString();
    const std::vector<tok::PieceId> ids = parseIds(
        source, fromFile ? parser.value(QStringLiteral("file")).toStdString() : std::string("--ids"));
    const tok::HfTokenizer tokenizer = loadTokenizer(parser);
    const std::string bytes = tokenizer.decodeBytes(ids, parser.isSet(QStringLiteral("skip-special")));
    std::string pending;
    const std::string text = tok::utf8Lossy(bytes, &pending);
    out() << QString::fromStdString(text);
    out().flush();
    if (!pending.empty()) {
        QString hex;
        for (const char b : pending)
            hex += QStringLiteral(" %1").arg(static_cast<unsigned char>(b), 2, 16, QLatin1Char('0')).toUpper();
        err() << tr("specdec: note: the ids end inside a UTF-8 character; %1 byte(s) held back:%2\n")
                     .arg(pending.size())
                     .arg(hex);
    }
    return 0;
}

} // namespace specdec::cli
