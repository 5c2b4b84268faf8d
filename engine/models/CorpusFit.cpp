// SPDX-License-Identifier: GPL-3.0-or-later
#include "CorpusFit.h"

#include "NGramModel.h"

namespace specdec {

namespace {
double occurrencesOf(const NGramModel::ContextCoverage &c)
{
    return c.contexts == 0 ? 0.0 : static_cast<double>(c.positions) / static_cast<double>(c.contexts);
}
} // namespace

double CorpusFit::occurrences() const
{
    return occurrencesOf({positions, contexts});
}

std::optional<CorpusFit> corpusFit(const LanguageModel &model)
{
    const auto *ngram = dynamic_cast<const NGramModel *>(&model);
    if (!ngram)
        return std::nullopt;
    CorpusFit fit;
    fit.order = ngram->settings().order;
    fit.tokens = ngram->trainedTokens();
    const NGramModel::ContextCoverage top = ngram->coverage(fit.order - 1);
    fit.positions = top.positions;
    fit.contexts = top.contexts;
    for (int order = 2; order < fit.order; ++order)
        if (occurrencesOf(ngram->coverage(order - 1)) >= CorpusFit::kMinContextOccurrences)
            fit.largestFittingOrder = order;
    return fit;
}

} // namespace specdec
