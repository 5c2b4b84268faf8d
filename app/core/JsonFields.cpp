// SPDX-License-Identifier: GPL-3.0-or-later
#include "JsonFields.h"

#include "CombiningHat.h"

#include "Error.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <cmath>

namespace specdec::app {

QString LocalizedText::text(const QString &language) const
{
    if (byLanguage.contains(language))
        return byLanguage.value(language);
    if (language.startsWith(QLatin1String("zh")) && byLanguage.contains(QStringLiteral("zh_CN")))
        return byLanguage.value(QStringLiteral("zh_CN"));
    return byLanguage.value(QStringLiteral("en"));
}

JsonFields::JsonFields(QString kind, QString name)
    : m_kind(std::move(kind))
    , m_name(std::move(name))
{
}

void JsonFields::fail(const QString &field, const QString &why) const
{
    QString message = m_kind + QLatin1Char(' ') + m_name + QStringLiteral(": ");
    if (!field.isEmpty())
        message += QLatin1Char('\'') + field + QStringLiteral("' ");
    throw Error(QString(message + why).toStdString());
}

QString JsonFields::join(const QString &at, const QString &key)
{
    return at.isEmpty() ? key : at + QLatin1Char('.') + key;
}

QJsonObject JsonFields::readFile(const QString &path, qint64 maxBytes) const
{
    const QFileInfo info(path);
    if (!info.exists())
        fail({}, QStringLiteral("does not exist"));
    if (!info.isFile())
        fail({}, QStringLiteral("is not a file"));
    if (info.size() > maxBytes)
        fail({}, QStringLiteral("is %1 bytes; at most %2 are read").arg(info.size()).arg(maxBytes));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        fail({}, QStringLiteral("cannot be read (%1)").arg(file.errorString()));
    return parse(file.read(maxBytes + 1));
}

QJsonObject JsonFields::parse(const QByteArray &bytes) const
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        fail({}, QStringLiteral("is not valid JSON at byte offset %1 (%2)").arg(error.offset).arg(error.errorString()));
    if (!doc.isObject())
        fail({}, QStringLiteral("must hold a JSON object"));
    return doc.object();
}

QJsonValue JsonFields::require(const QJsonObject &o, const QString &at, const char *key) const
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined())
        fail(join(at, QLatin1String(key)), QStringLiteral("is missing"));
    return v;
}

QString JsonFields::string(const QJsonObject &o, const QString &at, const char *key) const
{
    const QJsonValue v = require(o, at, key);
    if (!v.isString())
        fail(join(at, QLatin1String(key)), QStringLiteral("must be a string"));
    if (v.toString().size() > 4000)
        fail(join(at, QLatin1String(key)), QStringLiteral("is longer than 4000 characters"));
    return v.toString();
}

QString JsonFields::optionalString(const QJsonObject &o, const QString &at, const char *key, const QString &fallback) const
{
    return o.contains(QLatin1String(key)) ? string(o, at, key) : fallback;
}

double JsonFields::number(const QJsonObject &o, const QString &at, const char *key, double min, double max) const
{
    const QJsonValue v = require(o, at, key);
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        fail(join(at, QLatin1String(key)), QStringLiteral("must be a number"));
    const double x = v.toDouble();
    if (x < min || x > max)
        fail(join(at, QLatin1String(key)), QStringLiteral("must be from %1 to %2, got %3").arg(min).arg(max).arg(x));
    return x;
}

double JsonFields::optionalNumber(const QJsonObject &o, const QString &at, const char *key, double min, double max,
                                  double fallback) const
{
    return o.contains(QLatin1String(key)) ? number(o, at, key, min, max) : fallback;
}

int JsonFields::integer(const QJsonObject &o, const QString &at, const char *key, int min, int max) const
{
    const double x = number(o, at, key, min, max);
    if (x != std::floor(x))
        fail(join(at, QLatin1String(key)), QStringLiteral("must be a whole number, got %1").arg(x));
    return static_cast<int>(x);
}

int JsonFields::optionalInteger(const QJsonObject &o, const QString &at, const char *key, int min, int max,
                                int fallback) const
{
    return o.contains(QLatin1String(key)) ? integer(o, at, key, min, max) : fallback;
}

QJsonObject JsonFields::object(const QJsonObject &o, const QString &at, const char *key) const
{
    const QJsonValue v = require(o, at, key);
    if (!v.isObject())
        fail(join(at, QLatin1String(key)), QStringLiteral("must be an object"));
    return v.toObject();
}

QJsonArray JsonFields::array(const QJsonObject &o, const QString &at, const char *key, int minSize, int maxSize) const
{
    const QJsonValue v = require(o, at, key);
    if (!v.isArray())
        fail(join(at, QLatin1String(key)), QStringLiteral("must be a list"));
    const QJsonArray a = v.toArray();
    if (a.size() < minSize || a.size() > maxSize)
        fail(join(at, QLatin1String(key)),
             QStringLiteral("must have %1 to %2 entries, has %3").arg(minSize).arg(maxSize).arg(a.size()));
    return a;
}

QStringList JsonFields::strings(const QJsonObject &o, const QString &at, const char *key, int minSize, int maxSize) const
{
    const QJsonArray a = array(o, at, key, minSize, maxSize);
    QStringList out;
    for (int i = 0; i < a.size(); ++i) {
        if (!a[i].isString() || a[i].toString().isEmpty())
            fail(QStringLiteral("%1[%2]").arg(join(at, QLatin1String(key))).arg(i),
                 QStringLiteral("must be a non-empty string"));
        out << a[i].toString();
    }
    return out;
}

LocalizedText JsonFields::localized(const QJsonValue &v, const QString &field) const
{
    if (!v.isObject())
        fail(field, QStringLiteral("must be an object with \"en\" and \"zh_CN\" texts"));
    const QJsonObject o = v.toObject();
    LocalizedText t;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            fail(join(field, it.key()), QStringLiteral("must be a string"));
        if (it.value().toString().size() > 4000)
            fail(join(field, it.key()), QStringLiteral("is longer than 4000 characters"));
        t.byLanguage.insert(it.key(), withDrawnHats(it.value().toString())); // α̂'s hat over α in every font
    }
    for (const char *language : {"en", "zh_CN"})
        if (t.byLanguage.value(QLatin1String(language)).trimmed().isEmpty())
            fail(join(field, QLatin1String(language)), QStringLiteral("is missing or empty"));
    return t;
}

LocalizedText JsonFields::localized(const QJsonObject &o, const QString &at, const char *key) const
{
    return localized(require(o, at, key), join(at, QLatin1String(key)));
}

void JsonFields::onlyKeys(const QJsonObject &o, const QString &at, const QStringList &known) const
{
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            fail(join(at, it.key()),
                 QStringLiteral("is not a known field (known: %1)").arg(known.join(QStringLiteral(", "))));
}

} // namespace specdec::app
