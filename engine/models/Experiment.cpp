// SPDX-License-Identifier: GPL-3.0-or-later
#include "Experiment.h"

#include "Error.h"
#include "Utf8.h"
#include "onnx/ThreadPool.h"

#include <future>

namespace specdec {

namespace {

/// A model loaded from files alone (onnx:, hf:): it needs neither the corpus nor the target to load.
bool isModelFile(const ModelSpec &spec)
{
    return spec.kind == ModelSpec::Kind::Onnx || spec.kind == ModelSpec::Kind::HfFolder;
}

} // namespace

void Setup::validate() const
{
    decoding.validate();
    if (tokens < 1)
        throw Error("the number of tokens to generate must be at least 1, got " + std::to_string(tokens));
    if (cap < 1)
        throw Error("the cap of tokens a run writes must be at least 1, got " + std::to_string(cap));
    if (threads < 0 || threads > nn::ThreadPool::maxThreads())
        throw Error("threads must be between 0 (all cores) and " + std::to_string(nn::ThreadPool::maxThreads())
                    + " (4 x the cores of this machine), got " + std::to_string(threads));
}

std::unique_ptr<Experiment> Experiment::load(const Setup &setup, const CorpusCatalog &catalog, bool needDraft,
                                             const LoadProgress &progress)
{
    setup.validate();
    auto e = std::unique_ptr<Experiment>(new Experiment);
    e->m_setup = setup;
    const ModelSpec targetSpec = ModelSpec::parse(setup.target, catalog);
    if (targetSpec.kind == ModelSpec::Kind::Same)
        throw Error("model spec 'same' is a draft only: it stands for the target itself");
    if (targetSpec.kind == ModelSpec::Kind::Lookup)
        throw Error("model spec '" + setup.target + "' is a draft only: prompt lookup cannot be a target");
    progress.report(0.0);

    if (!setup.tokenizer.empty() && setup.tokenizer != "chars")
        e->m_tokenizer = Tokenizer::load(catalog.dataFile(setup.tokenizer));
    e->m_corpus = catalog.load(setup.corpus);
    e->m_catalog = catalog;
    const std::size_t corpusLength = e->m_corpus.text.size();
    const std::optional<ModelSpec> draftSpec = needDraft
        ? std::optional<ModelSpec>(ModelSpec::parse(setup.draft, catalog))
        : std::nullopt;
    const double targetWork = loadWork(targetSpec, corpusLength);
    const double draftWork = draftSpec ? loadWork(*draftSpec, corpusLength) : 0.0;
    const double targetShare = !draftSpec ? 1.0
        : targetWork + draftWork > 0      ? targetWork / (targetWork + draftWork)
                                          : 0.5;
    LoadProgress targetProgress = progress.part(0.0, targetShare);
    LoadProgress draftProgress = progress.part(targetShare, 1.0);
    // Two model files load side by side (a neural model needs neither the corpus nor the target to load; the
    // draft is checked against the target once both are in). Declared after what it reads, so that a target that
    // fails waits for the draft's thread before they go.
    std::future<BuiltModel> draftLoad;
    const bool ownDraftCorpus = !setup.draftCorpus.empty() && setup.draftCorpus != setup.corpus;
    if (draftSpec && isModelFile(targetSpec) && isModelFile(*draftSpec) && !ownDraftCorpus) {
        std::vector<LoadProgress> parts = progress.concurrentParts({targetShare, 1.0 - targetShare});
        targetProgress = parts[0];
        draftProgress = parts[1];
        draftLoad = std::async(std::launch::async, [spec = *draftSpec, threads = setup.threads, draftProgress] {
            return buildModel(spec, Corpus{}, nullptr, nullptr, threads, draftProgress);
        });
    }
    BuiltModel target = buildModel(targetSpec, e->m_corpus, e->m_tokenizer ? &*e->m_tokenizer : nullptr, nullptr,
                                   setup.threads, targetProgress);
    e->m_target = std::move(target.model);
    if (e->m_tokenizer && !(e->m_target->tokenizer() == *e->m_tokenizer))
        throw Error("the target " + setup.target + " uses " + e->m_target->tokenizer().describe() + ", not "
                    + e->m_tokenizer->describe() + " given as the tokenizer");
    if (const auto fit = corpusFit(*e->m_target); fit && fit->tooSmall())
        e->m_smallCorpora.push_back({false, setup.target, *fit});
    if (!target.unmapped.empty())
        e->m_warnings.push_back("target: " + std::to_string(target.unmapped.size())
                                + " corpus characters are not in its vocabulary: " + describeCodePoints(target.unmapped));

    if (draftLoad.valid())
        e->m_draft = e->adoptDraft(setup.draft, draftLoad.get());
    else if (draftSpec)
        e->m_draft = e->makeDraft(setup.draft, setup.draftCorpus, draftProgress);

    e->m_prompt = e->tokenizer().encode(setup.prompt, "prompt");
    progress.finish();
    return e;
}

std::unique_ptr<LanguageModel> Experiment::makeDraft(const std::string &spec, const std::string &draftCorpusName,
                                                     const LoadProgress &progress)
{
    const ModelSpec draftSpec = ModelSpec::parse(spec, m_catalog);
    // A draft trained on the target's corpus is mapped to the target's tokenizer; with chars, a draft trained on
    // another corpus keeps its own characters, and a mismatch is reported. A tokenizer.json serves both corpora.
    const bool ownCorpus = !draftCorpusName.empty() && draftCorpusName != m_setup.corpus;
    const Corpus draftCorpus = ownCorpus ? m_catalog.load(draftCorpusName) : Corpus{};
    const Corpus &corpus = ownCorpus ? draftCorpus : m_corpus;
    const bool ownCharacters = ownCorpus && !m_tokenizer;
    return adoptDraft(spec,
                      buildModel(draftSpec, corpus, ownCharacters ? nullptr : &tokenizer(), m_target.get(),
                                 m_setup.threads, progress));
}

std::unique_ptr<LanguageModel> Experiment::adoptDraft(const std::string &spec, BuiltModel draft)
{
    if (!draft.unmapped.empty())
        m_warnings.push_back("draft " + spec + ": " + std::to_string(draft.unmapped.size())
                             + " corpus characters are not in the target's vocabulary and were skipped: "
                             + describeCodePoints(draft.unmapped));
    Tokenizer::requireSame(m_target->tokenizer(), draft.model->tokenizer());
    if (const auto fit = corpusFit(*draft.model); fit && fit->tooSmall())
        m_smallCorpora.push_back({true, spec, *fit});
    return std::move(draft.model);
}

} // namespace specdec
