// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lossless lab's p and q taken from a played round: the first position's distributions (a tree round's
// at its root, the context), over the 9 tokens most likely under p or q and one bar for the rest.

#include <QStringList>
#include <QVector>

#include <optional>

namespace specdec {
class Tokenizer;
}

namespace specdec::gui {

struct RoundRecord;

struct LabDistributions
{
    QVector<double> p, q;
    QStringList labels; ///< each token's glyph, then `othersLabel` when the rest has any mass
};

/// None when the round recorded no distributions at its first position.
std::optional<LabDistributions> labDistributionsOf(const RoundRecord &record, const Tokenizer &vocabulary,
                                                   const QString &othersLabel);

} // namespace specdec::gui
