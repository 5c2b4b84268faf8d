// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// JsonFields: reads the fields of a small JSON file a person wrote (a lesson, a quiz) and fails with one
// line naming the file and the field ("lesson file x.json: 'setup.k' must be a whole number from 1 to 64").
// The file is read whole, with a size bound, and must be a JSON object.

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>

namespace specdec::app {

/// A text in several languages, as a file writes it: {"en": "…", "zh_CN": "…"}.
struct LocalizedText
{
    QMap<QString, QString> byLanguage;

    /// The text in `language` ("zh_CN", "en", "" = English); English when that language is missing.
    QString text(const QString &language) const;
    bool isEmpty() const { return byLanguage.isEmpty(); }
};

class JsonFields
{
public:
    /// `kind` names the file in messages ("lesson file", "quiz file"); `name` is its path.
    JsonFields(QString kind, QString name);

    /// Reads `path` (at most `maxBytes`) and parses it as a JSON object; throws specdec::Error.
    QJsonObject readFile(const QString &path, qint64 maxBytes) const;
    QJsonObject parse(const QByteArray &bytes) const;

    [[noreturn]] void fail(const QString &field, const QString &why) const;

    /// Each reader names the field by its dotted path (`at` + "." + key) in its error.
    QJsonValue require(const QJsonObject &o, const QString &at, const char *key) const;
    QString string(const QJsonObject &o, const QString &at, const char *key) const;
    QString optionalString(const QJsonObject &o, const QString &at, const char *key, const QString &fallback) const;
    double number(const QJsonObject &o, const QString &at, const char *key, double min, double max) const;
    double optionalNumber(const QJsonObject &o, const QString &at, const char *key, double min, double max,
                          double fallback) const;
    int integer(const QJsonObject &o, const QString &at, const char *key, int min, int max) const;
    int optionalInteger(const QJsonObject &o, const QString &at, const char *key, int min, int max, int fallback) const;
    QJsonObject object(const QJsonObject &o, const QString &at, const char *key) const;
    QJsonArray array(const QJsonObject &o, const QString &at, const char *key, int minSize, int maxSize) const;
    QStringList strings(const QJsonObject &o, const QString &at, const char *key, int minSize, int maxSize) const;
    /// {"en": …, "zh_CN": …}: both languages required, each a non-empty string of at most 4000 characters.
    LocalizedText localized(const QJsonValue &v, const QString &field) const;
    LocalizedText localized(const QJsonObject &o, const QString &at, const char *key) const;
    /// Fails on a key that is not in `known` (a typo would otherwise be ignored silently).
    void onlyKeys(const QJsonObject &o, const QString &at, const QStringList &known) const;

    static QString join(const QString &at, const QString &key);

private:
    QString m_kind;
    QString m_name;
};

} // namespace specdec::app
