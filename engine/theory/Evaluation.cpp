// SPDX-License-Identifier: GPL-3.0-or-later
#include "Evaluation.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace specdec {

double perplexity(LanguageModel &model, std::span<const TokenId> text, std::size_t from, int chunk)
{
    if (from >= text.size())
        throw Error("perplexity needs at least one token to score");
    double logSum = 0.0;
    DistributionMatrix rows;
    for (std::size_t start = from; start < text.size(); start += static_cast<std::size_t>(chunk)) {
        const std::size_t end = std::min(text.size(), start + static_cast<std::size_t>(chunk));
        const int m = static_cast<int>(end - start);
        // Rows are the distributions after prefixes of length start .. end - 1.
        model.distributions(text.first(end - 1), m, rows);
        for (int r = 0; r < m; ++r) {
            const double p = rows(r, text[start + static_cast<std::size_t>(r)]);
            if (p <= 0.0)
                return std::numeric_limits<double>::infinity();
            logSum += std::log(p);
        }
    }
    return std::exp(-logSum / static_cast<double>(text.size() - from));
}

} // namespace specdec
