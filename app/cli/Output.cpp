// SPDX-License-Identifier: GPL-3.0-or-later
#include "Output.h"

#include "ErrorLine.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <QStringList>

#include <cmath>
#include <cstdio>

namespace specdec::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

void printJson(const QJsonObject &object)
{
    out() << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
    out().flush();
}

void printError(const QString &kind, const QString &message)
{
    out().flush();
    app::printMessage(err(), QStringLiteral("specdec"), kind, message);
}

QString tr(const char *text)
{
    return QCoreApplication::translate("specdec", text);
}

QString visible(QString text)
{
    return text.replace(QLatin1Char('\n'), QStringLiteral("⏎")).replace(QLatin1Char('\t'), QStringLiteral("⇥"));
}

QString fixed(double value, int decimals)
{
    return std::isfinite(value) ? QString::number(value, 'f', decimals) : QStringLiteral("–");
}

QString rates(const std::vector<double> &values)
{
    QStringList parts;
    for (double v : values) // a position never tested has no rate (NaN in the metrics): a dash, never "nan"
        parts << (std::isfinite(v) ? QString::number(v, 'f', 2) : QStringLiteral("–"));
    return parts.join(QLatin1Char(' '));
}

} // namespace specdec::cli
