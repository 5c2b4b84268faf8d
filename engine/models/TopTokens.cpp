// SPDX-License-Identifier: GPL-3.0-or-later
#include "TopTokens.h"

#include <algorithm>
#include <numeric>

namespace specdec {

TopTokens topTokens(const std::vector<const Eigen::VectorXd *> &distributions, int count, TokenId marked)
{
    TopTokens out;
    std::vector<const Eigen::VectorXd *> shown;
    for (const Eigen::VectorXd *d : distributions)
        if (d && d->size() > 0)
            shown.push_back(d);
    if (!shown.empty() && count > 0) {
        const Eigen::Index n = shown.front()->size();
        std::vector<double> weight(static_cast<std::size_t>(n), 0.0);
        for (const Eigen::VectorXd *d : shown)
            for (Eigen::Index t = 0; t < std::min(n, d->size()); ++t)
                weight[static_cast<std::size_t>(t)] = std::max(weight[static_cast<std::size_t>(t)], (*d)[t]);
        std::vector<TokenId> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        const auto keep = std::min<std::size_t>(static_cast<std::size_t>(count), order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                          [&](TokenId a, TokenId b) {
                              const double wa = weight[static_cast<std::size_t>(a)];
                              const double wb = weight[static_cast<std::size_t>(b)];
                              return wa > wb || (wa == wb && a < b);
                          });
        out.tokens.assign(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep));
        if (marked >= 0 && marked < n && std::find(out.tokens.begin(), out.tokens.end(), marked) == out.tokens.end())
            out.tokens.back() = marked;
    }
    for (const Eigen::VectorXd *d : distributions) {
        std::vector<double> row;
        const bool present = d && d->size() > 0;
        double sum = 0.0;
        for (TokenId t : out.tokens) {
            const double v = present && t < d->size() ? (*d)[t] : 0.0;
            row.push_back(v);
            sum += v;
        }
        row.push_back(present ? std::max(0.0, 1.0 - sum) : 0.0);
        out.values.push_back(std::move(row));
    }
    return out;
}

} // namespace specdec
