// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CorpusFit: whether a training text is long enough for an n-gram model's order. An order-N model predicts each
// token from the N − 1 before it; when the text holds each such context about once (on average fewer than
// kMinContextOccurrences times), the model knows one continuation per context and can only repeat its text, then
// fall back to its most frequent tokens (a five-line poem corpus under ngram:6 wrote its lines, then "。⏎。⏎").
// Measured: tang-song (39,196 characters) holds a 3-character context 1.25 times on average, a 5-character one
// 1.09 times; kjv a 5-character one 31 times; five lines of tang-song (54 characters) a 1-character one 1.20 times.

#include "LanguageModel.h"

#include <cstddef>
#include <optional>

namespace specdec {

struct CorpusFit
{
    /// Below this many occurrences per context on average, a text is too small for the order.
    static constexpr double kMinContextOccurrences = 1.1;

    int order = 1;
    std::size_t tokens = 0;    ///< of the training text
    std::size_t positions = 0; ///< positions with N − 1 tokens before them
    std::size_t contexts = 0;  ///< distinct contexts of N − 1 tokens among them
    /// The largest order from 2 to N − 1 whose contexts the text holds often enough; 0 when none does.
    int largestFittingOrder = 0;

    /// positions / contexts: how often the text holds a context of the model, on average.
    double occurrences() const;
    bool tooSmall() const { return order > 1 && occurrences() < kMinContextOccurrences; }
};

/// The fit of `model`'s training text to its order; nullopt unless it is an n-gram model.
std::optional<CorpusFit> corpusFit(const LanguageModel &model);

} // namespace specdec
