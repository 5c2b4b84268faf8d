// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An experiment: a setup (corpus, target, draft, prompt, decoding settings) and the models it loads.
// The CLI and the GUI both start from here, so a setup means the same thing in both.

#include "Corpus.h"
#include "CorpusFit.h"
#include "ModelFactory.h"
#include "SpeculativeDecoder.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace specdec {

struct Setup
{
    std::string corpus = "kjv"; ///< a built corpus name or a UTF-8 file
    std::string target = "ngram:6";
    std::string draft = "ngram:2";
    std::string draftCorpus; ///< train the draft on another corpus (empty: the target's)
    std::string prompt;
    /// "chars" (code points: the corpus's, or an ONNX model's own) or a tokenizer.json (or the folder holding it),
    /// which the target and the draft then share.
    std::string tokenizer = "chars";
    int tokens = 200;
    /// The most tokens a run writes (the window's session, `specdec run`): playing stops there and says so.
    int cap = 200000;
    DecodingSettings decoding;
    int threads = 0; ///< ONNX executor threads; 0 = all cores

    /// Throws Error for invalid numbers (K, temperatures, top-k, top-p, tokens, threads).
    void validate() const;
};

/// The loaded parts of a Setup. Building one trains n-grams and loads ONNX files; it throws Error for every
/// problem a user can cause (corpus, spec, vocabulary mismatch, prompt outside the vocabulary).
class Experiment
{
public:
    /// `progress` hears the load of the target and of the draft, each a part of the whole in proportion to its
    /// expected work (ModelFactory.h loadWork: a neural model's weights on disk, an n-gram's passes over the corpus;
    /// halves when neither has any); 1 when loaded. Two model files (onnx:, hf:) load side by side, the draft on a
    /// thread of its own, and are then checked against each other; else the target, then the draft.
    static std::unique_ptr<Experiment> load(const Setup &setup, const CorpusCatalog &catalog, bool needDraft = true,
                                            const LoadProgress &progress = {});

    const Setup &setup() const { return m_setup; }
    const Corpus &corpus() const { return m_corpus; }
    LanguageModel &target() { return *m_target; }
    LanguageModel *draft() { return m_draft.get(); }
    const Tokenizer &tokenizer() const { return m_target->tokenizer(); }
    const std::vector<TokenId> &prompt() const { return m_prompt; }
    /// Things worth telling the user that are not errors (e.g. corpus characters a model cannot represent).
    const std::vector<std::string> &warnings() const { return m_warnings; }
    /// An n-gram model (the target, or a draft made so far) whose training text is too small for its order.
    struct SmallCorpus
    {
        bool draft = false;
        std::string spec;
        CorpusFit fit;
    };
    const std::vector<SmallCorpus> &smallCorpora() const { return m_smallCorpora; }

    /// Builds another draft for this experiment's target (to compare drafts on the same target): trained on
    /// `draftCorpus` (empty: the target's corpus) and checked against the target's tokenizer.
    std::unique_ptr<LanguageModel> makeDraft(const std::string &spec, const std::string &draftCorpus = {},
                                             const LoadProgress &progress = {});

private:
    /// A draft built for this experiment's target, checked against its tokenizer (warnings, corpus fit).
    std::unique_ptr<LanguageModel> adoptDraft(const std::string &spec, BuiltModel draft);

    CorpusCatalog m_catalog;
    Setup m_setup;
    Corpus m_corpus;
    std::optional<Tokenizer> m_tokenizer; ///< Setup::tokenizer when it names a tokenizer.json
    std::unique_ptr<LanguageModel> m_target;
    std::unique_ptr<LanguageModel> m_draft;
    std::vector<TokenId> m_prompt;
    std::vector<std::string> m_warnings;
    std::vector<SmallCorpus> m_smallCorpora;
};

} // namespace specdec
