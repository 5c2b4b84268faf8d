// SPDX-License-Identifier: GPL-3.0-or-later
#include "Output.h"

#include <QJsonDocument>

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

} // namespace specdec::cli
