// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the session file parser. A session that parses must validate and survive save + load.
#include "Error.h"
#include "SessionFile.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

using namespace specdec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    try {
        const app::SessionFile session = app::SessionFile::parse(bytes, QStringLiteral("fuzz.json"));
        session.setup.validate();
    } catch (const Error &) {
    }
    return 0;
}
