// SPDX-License-Identifier: GPL-3.0-or-later
#include "DraftPolicy.h"

#include "Error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace specdec {

DraftPolicy DraftPolicy::parse(const std::string &text)
{
    DraftPolicy p;
    auto number = [&](const std::string &prefix, double low, double high) {
        const std::string digits = text.substr(prefix.size());
        char *end = nullptr;
        const double v = std::strtod(digits.c_str(), &end);
        if (digits.empty() || end != digits.c_str() + digits.size() || !(v >= low && v <= high))
            throw Error("draft policy '" + text + "': " + prefix.substr(0, prefix.size() - 1) + " needs a number in ["
                        + std::to_string(low).substr(0, 3) + ", " + std::to_string(high).substr(0, 3) + "]");
        return v;
    };
    if (text == "constant") {
        p.kind = Kind::Constant;
    } else if (text == "heuristic") {
        p.kind = Kind::Heuristic;
    } else if (text.rfind("confidence:", 0) == 0) {
        p.kind = Kind::Confidence;
        p.value = number("confidence:", 0.0, 1.0);
    } else if (text.rfind("threshold:", 0) == 0) {
        p.kind = Kind::Threshold;
        p.value = number("threshold:", 0.0, 1.0);
    } else {
        throw Error("unknown draft policy '" + text + "' (expected constant, heuristic, confidence:TAU or threshold:H)");
    }
    return p;
}

std::string DraftPolicy::describe() const
{
    std::ostringstream out;
    switch (kind) {
    case Kind::Constant: return "constant";
    case Kind::Heuristic: return "heuristic";
    case Kind::Confidence: out << "confidence:" << value; break;
    case Kind::Threshold: out << "threshold:" << value; break;
    }
    return out.str();
}

DraftLengthController::DraftLengthController(const DraftPolicy &policy, int maxLength)
    : m_policy(policy)
    , m_max(maxLength)
    , m_planned(policy.kind == DraftPolicy::Kind::Heuristic ? std::max(1, maxLength / 2) : maxLength)
{
}

bool DraftLengthController::draftNext(int position, double top) const
{
    if (position == 0)
        return true;
    return m_policy.kind != DraftPolicy::Kind::Confidence || top >= m_policy.value;
}

bool DraftLengthController::continueAfter(double draftedProbability)
{
    if (m_policy.kind != DraftPolicy::Kind::Threshold)
        return true;
    m_noRejection *= draftedProbability;
    return 1.0 - m_noRejection <= m_policy.value;
}

void DraftLengthController::roundFinished(bool allAccepted)
{
    m_noRejection = 1.0;
    if (m_policy.kind == DraftPolicy::Kind::Heuristic)
        m_planned = std::clamp(m_planned + (allAccepted ? 2 : -1), 1, m_max);
}

} // namespace specdec
