// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The shape of a token tree (SpecInfer, Miao et al. 2024): how many children each node of a depth gets.
//
// A shape b_1, ..., b_D gives the root (the committed context) b_1 children, each of those b_2 children, and
// so on: \f$\sum_{d=1}^{D} \prod_{i=1}^{d} b_i\f$ drafted nodes and \f$\prod_i b_i\f$ root-to-leaf paths.
// "3,2,1" drafts 3 + 6 + 6 = 15 nodes on 6 paths; "1,1,1,1" is the chain of K = 4.

#include <string>
#include <vector>

namespace specdec {

class TreeShape
{
public:
    static constexpr int kMaxDepth = 16;
    static constexpr int kMaxBranching = 8;
    static constexpr int kMaxNodes = 512;

    TreeShape() = default; ///< the empty shape: no tree (decode with a chain)
    /// Throws Error when a depth has fewer than 1 or more than kMaxBranching children, the depth exceeds
    /// kMaxDepth or the tree more than kMaxNodes nodes.
    explicit TreeShape(std::vector<int> branching);
    /// "3,2,1" (spaces allowed); throws Error naming the text and the bad entry.
    static TreeShape parse(const std::string &text);
    /// The chain of K drafts: 1,1,...,1.
    static TreeShape chain(int k);

    bool empty() const { return m_branching.empty(); }
    int depth() const { return static_cast<int>(m_branching.size()); }
    /// b_d, d = 1..depth: children of every node at depth d - 1.
    int branching(int depth) const { return m_branching[static_cast<std::size_t>(depth - 1)]; }
    const std::vector<int> &branchingList() const { return m_branching; }
    int nodeCount() const;
    int leafCount() const;
    bool isChain() const;
    /// The first `depth` levels (the whole shape when depth >= this->depth()).
    TreeShape truncated(int depth) const;
    /// "3,2,1"; empty for the empty shape.
    std::string describe() const;

    friend bool operator==(const TreeShape &, const TreeShape &) = default;

private:
    std::vector<int> m_branching;
};

} // namespace specdec
