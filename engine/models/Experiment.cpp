// SPDX-License-Identifier: GPL-3.0-or-later
#include "Experiment.h"

#include "Error.h"
#include "Utf8.h"
#include "onnx/ThreadPool.h"

namespace specdec {

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
    const std::size_t corpusLength = e->m_corpus.text.size();
    const double targetWork = loadWork(targetSpec, corpusLength);
    const double draftWork = needDraft ? loadWork(ModelSpec::parse(setup.draft, catalog), corpusLength) : 0.0;
    const double targetShare = !needDraft ? 1.0
        : targetWork + draftWork > 0      ? targetWork / (targetWork + draftWork)
                                          : 0.5;
    BuiltModel target = buildModel(targetSpec, e->m_corpus, e->m_tokenizer ? &*e->m_tokenizer : nullptr, nullptr,
                                   setup.threads, progress.part(0.0, targetShare));
    e->m_target = std::move(target.model);
    if (e->m_tokenizer && !(e->m_target->tokenizer() == *e->m_tokenizer))
        throw Error("the target " + setup.target + " uses " + e->m_target->tokenizer().describe() + ", not "
                    + e->m_tokenizer->describe() + " given as the tokenizer");
    if (const auto fit = corpusFit(*e->m_target); fit && fit->tooSmall())
        e->m_smallCorpora.push_back({false, setup.target, *fit});
    if (!target.unmapped.empty())
        e->m_warnings.push_back("target: " + std::to_string(target.unmapped.size())
                                + " corpus characters are not in its vocabulary: " + describeCodePoints(target.unmapped));

    e->m_catalog = catalog;
    if (needDraft)
        e->m_draft = e->makeDraft(setup.draft, setup.draftCorpus, progress.part(targetShare, 1.0));

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
    BuiltModel draft = buildModel(draftSpec, corpus, ownCharacters ? nullptr : &tokenizer(), m_target.get(),
                                  m_setup.threads, progress);
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
