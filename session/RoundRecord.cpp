// SPDX-License-Identifier: GPL-3.0-or-later
#include "RoundRecord.h"

namespace specdec::gui {

Origin originOf(const RoundTrace &trace, int i)
{
    if (i < trace.acceptedCount())
        return Origin::Draft;
    return trace.rejectedAt >= 0 ? Origin::Residual : Origin::Bonus;
}

std::shared_ptr<const RoundTrace> traceOf(std::shared_ptr<const RoundRecord> record)
{
    if (!record)
        return nullptr;
    const RoundTrace *trace = &record->trace;
    return {std::move(record), trace};
}

void registerMetaTypes()
{
    qRegisterMetaType<RoundRecord>();
    qRegisterMetaType<QList<RoundRecord>>();
    qRegisterMetaType<SessionInfo>();
    qRegisterMetaType<Setup>();
}

} // namespace specdec::gui
