// SPDX-License-Identifier: GPL-3.0-or-later
#include "Output.h"

#include "ErrorLine.h"
#include "Experiment.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <QStringList>

#include <cmath>
#include <cstdio>
#include <unistd.h>

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

namespace {

QString shortSpec(const std::string &spec)
{
    const QString text = QString::fromStdString(spec);
    for (const QLatin1String prefix : {QLatin1String("onnx:"), QLatin1String("hf:")})
        if (text.startsWith(prefix))
            return QFileInfo(QDir::cleanPath(text.mid(prefix.size()))).completeBaseName();
    return text;
}

} // namespace

LoadProgress loadingLine(const Setup &setup, bool withDraft)
{
    if (isatty(STDERR_FILENO) == 0)
        return {};
    const QString what = withDraft ? shortSpec(setup.target) + QStringLiteral(" + ") + shortSpec(setup.draft)
                                   : shortSpec(setup.target);
    return LoadProgress([what](double fraction) {
        // \r and erase-to-end-of-line: the line is rewritten in place and gone once the load has ended.
        err() << "\r\x1b[K";
        if (fraction < 1.0)
            err() << tr("specdec: loading %1 … %2 %").arg(what).arg(static_cast<int>(fraction * 100.0));
        err().flush();
    });
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
