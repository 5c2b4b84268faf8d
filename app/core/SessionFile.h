// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Session files: a setup, its seed and a position in the timeline, as a small JSON file. Opening one
// reproduces the same rounds exactly (the engine is deterministic given the setup and seed).

#include "Experiment.h"

#include <QByteArray>
#include <QString>

namespace specdec::app {

/// Where a saved session stands: the round (1-based; 0 = before the first) and the phase within it.
struct SessionPosition
{
    int round = 0;
    QString phase = QStringLiteral("commit");
};

struct SessionFile
{
    Setup setup;
    SessionPosition position;

    /// Writes atomically (temporary file, then rename): on any failure the previous file is untouched.
    /// Throws specdec::Error naming the path and the problem.
    void save(const QString &path) const;
    /// Reads and validates a session; throws specdec::Error naming the path and what is wrong
    /// (not JSON — with the byte offset —, not a session, unsupported version, a missing or invalid field).
    static SessionFile load(const QString &path);
    /// The same from the file's bytes; `path` names it in messages.
    static SessionFile parse(const QByteArray &bytes, const QString &path);

    static constexpr int kVersion = 1;
};

} // namespace specdec::app
