// SPDX-License-Identifier: GPL-3.0-or-later
#include "TokenTree.h"

#include "Error.h"

#include <charconv>

namespace specdec {

TreeShape::TreeShape(std::vector<int> perDepth)
    : m_branching(std::move(perDepth))
{
    if (m_branching.empty())
        throw Error("a tree shape needs at least one depth");
    if (depth() > kMaxDepth)
        throw Error("a tree shape has at most " + std::to_string(kMaxDepth) + " depths, got " + std::to_string(depth()));
    long long nodes = 0, level = 1;
    for (int d = 1; d <= depth(); ++d) {
        const int b = branching(d);
        if (b < 1 || b > kMaxBranching)
            throw Error("tree depth " + std::to_string(d) + " has " + std::to_string(b)
                        + " children per node; the shape allows 1 to " + std::to_string(kMaxBranching));
        level *= b;
        nodes += level;
        if (nodes > kMaxNodes)
            throw Error("the tree " + describe() + " has more than " + std::to_string(kMaxNodes) + " nodes");
    }
}

TreeShape TreeShape::parse(const std::string &text)
{
    std::vector<int> branching;
    std::size_t start = 0;
    int index = 1;
    while (true) {
        const std::size_t comma = text.find(',', start);
        std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t first = part.find_first_not_of(' ');
        const std::size_t last = part.find_last_not_of(' ');
        part = first == std::string::npos ? std::string() : part.substr(first, last - first + 1);
        int value = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size())
            throw Error("tree shape '" + text + "': entry " + std::to_string(index) + " ('" + part
                        + "') is not a whole number of children (expected e.g. 3,2,1)");
        branching.push_back(value);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
        ++index;
        if (index > kMaxDepth + 1)
            throw Error("tree shape '" + text + "' has more than " + std::to_string(kMaxDepth) + " depths");
    }
    try {
        return TreeShape(std::move(branching));
    } catch (const Error &e) {
        throw Error("tree shape '" + text + "': " + e.what());
    }
}

TreeShape TreeShape::chain(int k)
{
    return TreeShape(std::vector<int>(static_cast<std::size_t>(std::max(k, 0)), 1));
}

int TreeShape::nodeCount() const
{
    int nodes = 0, level = 1;
    for (int b : m_branching) {
        level *= b;
        nodes += level;
    }
    return nodes;
}

int TreeShape::leafCount() const
{
    int level = 1;
    for (int b : m_branching)
        level *= b;
    return m_branching.empty() ? 0 : level;
}

bool TreeShape::isChain() const
{
    for (int b : m_branching)
        if (b != 1)
            return false;
    return !m_branching.empty();
}

TreeShape TreeShape::truncated(int d) const
{
    if (d >= depth())
        return *this;
    TreeShape t;
    t.m_branching.assign(m_branching.begin(), m_branching.begin() + std::max(d, 0));
    return t;
}

std::string TreeShape::describe() const
{
    std::string s;
    for (int b : m_branching) {
        if (!s.empty())
            s += ',';
        s += std::to_string(b);
    }
    return s;
}

} // namespace specdec
