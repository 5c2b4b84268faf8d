// SPDX-License-Identifier: GPL-3.0-or-later
#include "SessionFile.h"

#include "Error.h"
#include "FileIo.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace specdec::app {

namespace {

const QString kFormat = QStringLiteral("specdec-lab session");

[[noreturn]] void fail(const QString &path, const QString &why)
{
    throw Error(QString(QStringLiteral("session file ") + path + QStringLiteral(": ") + why).toStdString());
}

QString text(const QJsonObject &o, const char *key, const QString &path, bool required = true)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && !required)
        return {};
    if (!v.isString())
        fail(path, QStringLiteral("'%1' must be a string").arg(QLatin1String(key)));
    return v.toString();
}

double number(const QJsonObject &o, const char *key, const QString &path)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        fail(path, QStringLiteral("'%1' must be a number").arg(QLatin1String(key)));
    return v.toDouble();
}

int integer(const QJsonObject &o, const char *key, const QString &path)
{
    const double v = number(o, key, path);
    if (v != std::floor(v) || std::abs(v) > 1e9)
        fail(path, QStringLiteral("'%1' must be a whole number").arg(QLatin1String(key)));
    return static_cast<int>(v);
}

} // namespace

void SessionFile::save(const QString &path) const
{
    const DecodingSettings &d = setup.decoding;
    const QJsonObject setupJson{
        {QStringLiteral("corpus"), QString::fromStdString(setup.corpus)},
        {QStringLiteral("target"), QString::fromStdString(setup.target)},
        {QStringLiteral("draft"), QString::fromStdString(setup.draft)},
        {QStringLiteral("draft_corpus"), QString::fromStdString(setup.draftCorpus)},
        {QStringLiteral("tokenizer"), QString::fromStdString(setup.tokenizer)},
        {QStringLiteral("prompt"), QString::fromStdString(setup.prompt)},
        {QStringLiteral("tokens"), setup.tokens},
        {QStringLiteral("cap"), setup.cap},
        {QStringLiteral("k"), d.draftLength},
        {QStringLiteral("policy"), QString::fromStdString(d.policy.describe())},
        {QStringLiteral("variant"), QString::fromStdString(variantName(d.variant))},
        {QStringLiteral("temperature"), d.target.temperature},
        {QStringLiteral("draft_temperature"), d.draft.temperature},
        {QStringLiteral("top_k"), d.target.topK},
        {QStringLiteral("top_p"), d.target.topP},
        {QStringLiteral("seed"), QString::number(d.seed)}, // 64-bit: a string, so JSON doubles cannot round it
        {QStringLiteral("threads"), setup.threads},
        {QStringLiteral("tree"), QString::fromStdString(d.tree.describe())}, // "" for a chain
        {QStringLiteral("kv_cache"), d.kvCache},
    };
    const QJsonObject root{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), kVersion},
        {QStringLiteral("setup"), setupJson},
        {QStringLiteral("position"),
         QJsonObject{{QStringLiteral("round"), position.round}, {QStringLiteral("phase"), position.phase}}},
    };
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Indented);
    writeFileAtomically(QFile::encodeName(path).toStdString(),
                        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

SessionFile SessionFile::load(const QString &path)
{
    QFile file(path);
    if (!file.exists())
        fail(path, QStringLiteral("does not exist"));
    if (!file.open(QIODevice::ReadOnly))
        fail(path, QStringLiteral("cannot be read (%1)").arg(file.errorString()));
    // A session is a few hundred bytes; a larger file (or /dev/zero) is not one.
    constexpr qint64 kMaxBytes = 1 << 20;
    const QByteArray bytes = file.read(kMaxBytes + 1);
    if (bytes.size() > kMaxBytes)
        fail(path, QStringLiteral("is larger than 1 MiB, not a session"));
    return parse(bytes, path);
}

SessionFile SessionFile::parse(const QByteArray &bytes, const QString &path)
{
    // A lone UTF-16 surrogate escape (\ud800 without its pair) is not a character: Qt's parser turns it into
    // a replacement character, so the file would play another prompt than it says.
    static const QRegularExpression loneSurrogate(
        QStringLiteral(R"re((?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2}))re"
                       R"re(|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})(?<!\\)(?:\\\\)*\\u[dD][c-fC-F][0-9a-fA-F]{2})re"));
    if (const auto match = loneSurrogate.match(QString::fromUtf8(bytes)); match.hasMatch())
        fail(path,
             QStringLiteral("'%1' is half of a UTF-16 surrogate pair, not a character").arg(match.captured().right(6)));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        fail(path, QStringLiteral("not valid JSON at byte offset %1 (%2)").arg(error.offset).arg(error.errorString()));
    if (!doc.isObject())
        fail(path, QStringLiteral("not a session (the top level is not an object)"));
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        fail(path, QStringLiteral("not a specdec-lab session"));
    const QJsonValue versionValue = root.value(QStringLiteral("version"));
    if (!versionValue.isDouble())
        fail(path,
             QStringLiteral("'version' must be a number, got %1")
                 .arg(QString::fromUtf8(QJsonDocument(QJsonArray{versionValue}).toJson(QJsonDocument::Compact))
                          .mid(1)
                          .chopped(1)));
    const double version = versionValue.toDouble();
    if (version != kVersion)
        fail(path,
             QStringLiteral("session version %1 is not supported (this build reads version %2)").arg(version).arg(kVersion));
    if (!root.value(QStringLiteral("setup")).isObject())
        fail(path, QStringLiteral("'setup' is missing"));
    const QJsonObject s = root.value(QStringLiteral("setup")).toObject();

    SessionFile session;
    Setup &setup = session.setup;
    setup.corpus = text(s, "corpus", path).toStdString();
    setup.target = text(s, "target", path).toStdString();
    setup.draft = text(s, "draft", path).toStdString();
    setup.draftCorpus = text(s, "draft_corpus", path, false).toStdString();
    // Added with tokenizer.json files: a file without it uses chars.
    if (s.contains(QStringLiteral("tokenizer")))
        setup.tokenizer = text(s, "tokenizer", path).toStdString();
    setup.prompt = text(s, "prompt", path).toStdString();
    setup.tokens = integer(s, "tokens", path);
    setup.cap = s.contains(QStringLiteral("cap")) ? integer(s, "cap", path) : Setup().cap;
    setup.threads = s.contains(QStringLiteral("threads")) ? integer(s, "threads", path) : 0;
    DecodingSettings &d = setup.decoding;
    d.draftLength = integer(s, "k", path);
    // Added after version 1 was written: a file without it decodes with the cache (the default).
    if (s.contains(QStringLiteral("kv_cache"))) {
        if (!s.value(QStringLiteral("kv_cache")).isBool())
            fail(path, QStringLiteral("'kv_cache' must be true or false"));
        d.kvCache = s.value(QStringLiteral("kv_cache")).toBool();
    }
    d.target.temperature = number(s, "temperature", path);
    d.draft.temperature = number(s, "draft_temperature", path);
    d.target.topK = d.draft.topK = integer(s, "top_k", path);
    d.target.topP = d.draft.topP = number(s, "top_p", path);
    bool ok = false;
    const QString seed = text(s, "seed", path);
    d.seed = seed.toULongLong(&ok);
    if (!ok || seed.trimmed().startsWith(QLatin1Char('-')))
        fail(path, QStringLiteral("'seed' must be a whole number from 0 to 18446744073709551615"));
    const QString variantText = text(s, "variant", path);
    const auto variant = variantFromName(variantText.toStdString());
    if (!variant)
        fail(path, QStringLiteral("unknown variant '%1'").arg(variantText));
    d.variant = *variant;
    const QString policy = text(s, "policy", path);
    try {
        d.policy = DraftPolicy::parse(policy.toStdString());
        const QString tree = text(s, "tree", path, false); // optional: older files are chains; 5 is an error
        if (!tree.trimmed().isEmpty())
            d.tree = TreeShape::parse(tree.toStdString());
        setup.validate();
        ModelSpec::parse(setup.target);
        ModelSpec::parse(setup.draft);
    } catch (const Error &e) {
        fail(path, QString::fromUtf8(e.what()));
    }
    const QJsonObject position = root.value(QStringLiteral("position")).toObject();
    if (position.contains(QStringLiteral("round"))) { // 1e18 was read as 0 (QJsonValue::toInt's fallback)
        const double round = number(position, "round", path);
        if (round != std::floor(round) || round < 0 || round > 1e9)
            fail(path, QStringLiteral("'position.round' must be a whole number from 0 to 1000000000"));
        session.position.round = static_cast<int>(round);
    }
    session.position.phase = position.value(QStringLiteral("phase")).toString(QStringLiteral("commit"));
    return session;
}

} // namespace specdec::app
