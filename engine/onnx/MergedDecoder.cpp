// SPDX-License-Identifier: GPL-3.0-or-later
#include "onnx/MergedDecoder.h"

#include "Error.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace specdec::nn {

namespace {

constexpr const char *kCondition = "use_cache_branch";

} // namespace

bool inlineCachedBranch(onnx::ModelProto &model)
{
    onnx::GraphProto &graph = *model.mutable_graph();
    int conditionInput = -1;
    for (int i = 0; i < graph.input_size(); ++i)
        if (graph.input(i).name() == kCondition)
            conditionInput = i;
    if (conditionInput < 0)
        return false;
    int ifNode = -1;
    for (int i = 0; i < graph.node_size(); ++i) {
        const onnx::NodeProto &node = graph.node(i);
        for (const std::string &in : node.input())
            if (in == kCondition) {
                if (ifNode >= 0 || node.op_type() != "If" || !node.domain().empty() || node.input_size() != 1)
                    return false; // read elsewhere too: not Optimum's merged decoder, left to the checks
                ifNode = i;
            }
    }
    if (ifNode < 0)
        return false;
    const onnx::NodeProto node = graph.node(ifNode);
    const onnx::GraphProto *branch = nullptr;
    for (const auto &a : node.attribute())
        if (a.name() == "then_branch" && a.has_g())
            branch = &a.g();
    if (!branch)
        throw Error("the If on '" + std::string(kCondition) + "' has no then_branch");
    if (branch->output_size() != node.output_size())
        throw Error("the cached branch of the If on '" + std::string(kCondition) + "' has "
                    + std::to_string(branch->output_size()) + " outputs, the If " + std::to_string(node.output_size()));
    const onnx::GraphProto cached = *branch; // `node` and `branch` live in `graph`, which changes below
    graph.mutable_node()->DeleteSubrange(ifNode, 1);
    graph.mutable_input()->DeleteSubrange(conditionInput, 1);
    for (const auto &init : cached.initializer())
        *graph.add_initializer() = init;
    for (const auto &vi : cached.value_info())
        *graph.add_value_info() = vi;
    for (const auto &n : cached.node())
        *graph.add_node() = n;
    for (int k = 0; k < node.output_size(); ++k) {
        if (node.output(k).empty() || node.output(k) == cached.output(k).name())
            continue;
        onnx::NodeProto *identity = graph.add_node();
        identity->set_op_type("Identity");
        identity->set_name(node.name() + "/" + node.output(k));
        identity->add_input(cached.output(k).name());
        identity->add_output(node.output(k));
    }
    return true;
}

} // namespace specdec::nn
