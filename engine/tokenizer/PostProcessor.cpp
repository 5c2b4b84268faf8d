// SPDX-License-Identifier: GPL-3.0-or-later
#include "PostProcessor.h"

namespace specdec::tok {

namespace {

/// The single-sequence template: special tokens' ids, and where the text goes (an empty entry).
class Template : public PostProcessor
{
public:
    explicit Template(std::vector<std::vector<PieceId>> parts)
        : m_parts(std::move(parts))
    {
    }
    std::vector<PieceId> process(std::vector<PieceId> ids) const override
    {
        std::vector<PieceId> out;
        out.reserve(ids.size() + 4);
        for (const auto &part : m_parts) {
            if (part.empty())
                out.insert(out.end(), ids.begin(), ids.end());
            else
                out.insert(out.end(), part.begin(), part.end());
        }
        return out;
    }
    std::vector<PieceId> prefix() const override
    {
        std::vector<PieceId> out;
        for (const auto &part : m_parts) {
            if (part.empty())
                break;
            out.insert(out.end(), part.begin(), part.end());
        }
        return out;
    }

private:
    std::vector<std::vector<PieceId>> m_parts;
};

class Sequence : public PostProcessor
{
public:
    explicit Sequence(std::vector<std::unique_ptr<PostProcessor>> stages)
        : m_stages(std::move(stages))
    {
    }
    std::vector<PieceId> process(std::vector<PieceId> ids) const override
    {
        for (const auto &stage : m_stages)
            ids = stage->process(std::move(ids));
        return ids;
    }
    std::vector<PieceId> prefix() const override
    {
        std::vector<PieceId> out;
        for (const auto &stage : m_stages) {
            const auto p = stage->prefix();
            out.insert(out.begin(), p.begin(), p.end());
        }
        return out;
    }

private:
    std::vector<std::unique_ptr<PostProcessor>> m_stages;
};

std::unique_ptr<PostProcessor> templateFromJson(const Json &json)
{
    const Json &single = member(json, "single", "the TemplateProcessing post-processor");
    if (!single.is_array())
        fail("the TemplateProcessing \"single\" is not an array");
    const Json &specials = json.contains("special_tokens") ? json["special_tokens"] : Json::object();
    std::vector<std::vector<PieceId>> parts;
    for (const Json &item : single) {
        if (item.is_object() && item.contains("Sequence")) {
            parts.emplace_back();
        } else if (item.is_object() && item.contains("SpecialToken")) {
            const std::string name = stringMember(item["SpecialToken"], "id", "a template's SpecialToken");
            if (!specials.is_object() || !specials.contains(name))
                fail("the template names the special token \"" + name + "\", which \"special_tokens\" lacks");
            const Json &ids = member(specials[name], "ids", "a template special token");
            if (!ids.is_array() || ids.empty())
                fail("the template special token \"" + name + "\" has no ids");
            std::vector<PieceId> part;
            for (const Json &id : ids)
                part.push_back(idValue(id, "a template special token's id"));
            parts.push_back(std::move(part));
        } else {
            fail("a template item is neither a Sequence nor a SpecialToken");
        }
    }
    return std::make_unique<Template>(std::move(parts));
}

/// Bert / Roberta: "cls": [piece, id], "sep": [piece, id].
std::unique_ptr<PostProcessor> clsSepFromJson(const Json &json)
{
    auto idOf = [&](const char *key) {
        const Json &pair = member(json, key, "the post-processor");
        if (!pair.is_array() || pair.size() != 2)
            fail(std::string("the post-processor's \"") + key + "\" is not [piece, id]");
        return std::vector<PieceId>{idValue(pair[1], "a post-processor id")};
    };
    return std::make_unique<Template>(std::vector<std::vector<PieceId>>{idOf("cls"), {}, idOf("sep")});
}

} // namespace

std::unique_ptr<PostProcessor> PostProcessor::fromJson(const Json &json)
{
    if (json.is_null())
        return nullptr;
    const std::string type = stringMember(json, "type", "the post-processor");
    if (type == "TemplateProcessing")
        return templateFromJson(json);
    if (type == "BertProcessing" || type == "RobertaProcessing")
        return clsSepFromJson(json);
    if (type == "ByteLevel")
        return nullptr;
    if (type == "Sequence") {
        const Json &list = member(json, "processors", "the Sequence post-processor");
        if (!list.is_array())
            fail("the Sequence post-processor's \"processors\" is not an array");
        std::vector<std::unique_ptr<PostProcessor>> stages;
        for (const Json &item : list)
            if (auto stage = fromJson(item))
                stages.push_back(std::move(stage));
        return std::make_unique<Sequence>(std::move(stages));
    }
    fail("the post-processor \"" + type
         + "\" is not supported (TemplateProcessing, BertProcessing, "
           "RobertaProcessing, ByteLevel, Sequence are)");
}

} // namespace specdec::tok
