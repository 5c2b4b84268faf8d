// SPDX-License-Identifier: GPL-3.0-or-later
#include "TraceExport.h"

#include "Error.h"
#include "FileIo.h"
#include "JsonReport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace specdec::app {

namespace {

/// RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled.
QString csvField(const QString &field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) && !field.contains(QLatin1Char('\n'))
        && !field.contains(QLatin1Char('\r')))
        return field;
    QString quoted = field;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString num(double v)
{
    return QString::number(v, 'g', 17);
}

} // namespace

QByteArray tracesToCsv(const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary)
{
    QString out = QStringLiteral(
        "round,position,token,q,p,ratio,threshold,u,verdict,beta,tv,correction,bonus,committed\r\n");
    for (const RoundTrace &r : rounds) {
        const QString correction = csvField(tokenToString(vocabulary, r.correction));
        const QString bonus = csvField(tokenToString(vocabulary, r.bonus));
        const QString committed = csvField(piecesToString(vocabulary, r.committed));
        for (std::size_t i = 0; i < r.positions.size(); ++i) {
            const DraftPosition &pos = r.positions[i];
            out += QString::number(r.index + 1) + QLatin1Char(',') + QString::number(i + 1) + QLatin1Char(',')
                + csvField(tokenToString(vocabulary, pos.token)) + QLatin1Char(',') + num(pos.q) + QLatin1Char(',')
                + num(pos.p) + QLatin1Char(',') + num(pos.ratio) + QLatin1Char(',') + num(pos.threshold)
                + QLatin1Char(',') + (pos.u >= 0.0 ? num(pos.u) : QString()) + QLatin1Char(',')
                + QLatin1String(verdictName(pos.verdict)) + QLatin1Char(',') + num(pos.overlap) + QLatin1Char(',')
                + num(pos.totalVariation) + QLatin1Char(',') + correction + QLatin1Char(',') + bonus + QLatin1Char(',')
                + committed + QStringLiteral("\r\n");
        }
    }
    return out.toUtf8();
}

QByteArray tracesToJson(const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary)
{
    QJsonArray array;
    for (const RoundTrace &r : rounds)
        array.append(traceJson(r, vocabulary));
    return QJsonDocument(array).toJson(QJsonDocument::Indented);
}

void exportTraces(const QString &path, const std::vector<RoundTrace> &rounds, const Tokenizer &vocabulary)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray bytes;
    if (suffix == QLatin1String("csv"))
        bytes = tracesToCsv(rounds, vocabulary);
    else if (suffix == QLatin1String("json"))
        bytes = tracesToJson(rounds, vocabulary);
    else
        throw Error(QString(QStringLiteral("cannot export traces to ") + path
                            + QStringLiteral(": use a .csv or .json file name"))
                        .toStdString());
    writeFileAtomically(QFile::encodeName(path).toStdString(),
                        std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

} // namespace specdec::app
