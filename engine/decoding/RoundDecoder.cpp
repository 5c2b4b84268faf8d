// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundDecoder.h"

#include "SpeculativeDecoder.h"
#include "TreeDecoder.h"

namespace specdec {

std::unique_ptr<RoundDecoder> makeRoundDecoder(LanguageModel &target, LanguageModel &draft,
                                               const DecodingSettings &settings)
{
    if (settings.tree.empty())
        return std::make_unique<SpeculativeDecoder>(target, draft, settings);
    return std::make_unique<TreeDecoder>(target, draft, settings);
}

} // namespace specdec
