// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// stdout/stderr helpers of the CLI (UTF-8 text streams, JSON documents).

#include <QJsonObject>
#include <QString>
#include <QTextStream>

namespace specdec::cli {

QTextStream &out();
QTextStream &err();
void printJson(const QJsonObject &object);

} // namespace specdec::cli
