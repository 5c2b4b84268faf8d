// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Held-out evaluation of a language model.

#include "LanguageModel.h"

#include <span>

namespace specdec {

/// Per-token perplexity of `text[from..]` given everything before it:
/// \f$\exp\big(-\frac{1}{n}\sum_t \ln P(x_t \mid x_{<t})\big)\f$, scored in chunks of `chunk` positions per call.
/// Tokens with probability zero make it infinite.
double perplexity(LanguageModel &model, std::span<const TokenId> text, std::size_t from = 1, int chunk = 256);

} // namespace specdec
