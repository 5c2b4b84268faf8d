// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face model folders (`hf:PATH`, docs/model-format.md §7) on the test folders of tests/hf/make_models.py:
// GPT-2, Llama and Qwen2 written after transformers' modelling code, exported as Optimum exports them (opset 14, 17
// and 18, float16 weights, a Qwen2 vocabulary padded beyond its tokenizer, external data, a merged decoder). Each loads
// with hf: and gives PyTorch's distributions (within 1e-4, uncached and through its cache fed 3, 1, then 5 tokens at a
// time); every folder's cache is appended in place (the presents path's bits and PyTorch's distributions through
// rollbacks and 5-row calls); greedy speculative decoding equals greedy autoregressive decoding with a smaller Llama
// and with an n-gram over the same tokenizer as drafts; the chi-square lossless test passes on the pair and catches a
// wrong variant. A folder is untrusted input: external data escaping the folder, shorter than declared or past its end,
// config.json disagreeing with the graph and a tokenizer larger than the logits are each a one-line error naming the
// file and the field.
#include "Continuations.h"
#include "DecodingState.h"
#include "Generation.h"
#include "RaceRun.h"
#include "Statistics.h"
#include "TestSupport.h"
#include "onnx/OnnxLanguageModel.h"
#include "onnx/TensorProtoIo.h"

#include <onnx/onnx_pb.h>

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

using namespace specdec;

namespace {

std::string folder(const QString &name)
{
    return std::string(SPECDEC_TEST_DATA_DIR) + "/hf/" + name.toStdString();
}

/// The folder holding `name`'s PyTorch reference: the layouts of another folder's model share its reference.
std::string referenceFolder(const QString &name)
{
    if (name == QLatin1String("gpt2-merged"))
        return folder(QStringLiteral("gpt2-op14"));
    if (name == QLatin1String("llama-op17-external"))
        return folder(QStringLiteral("llama-op17"));
    return folder(name);
}

nn::Tensor referenceTensor(const std::string &dir, const char *name)
{
    onnx::TensorProto proto;
    if (!proto.ParseFromString(nn::readWholeFile(dir + "/reference/" + name + ".pb")))
        throw Error(dir + ": cannot parse reference/" + name + ".pb");
    return nn::tensorFromProto(proto, name);
}

/// Rows of PyTorch's softmax over the config's vocab_size, renormalised over the tokenizer's first `n` ids (the
/// rest is padding that the lab never draws).
Eigen::MatrixXd referenceRows(const nn::Tensor &probs, int n)
{
    const std::int64_t T = probs.dim(0), V = probs.dim(1);
    Eigen::MatrixXd rows(T, n);
    for (std::int64_t t = 0; t < T; ++t) {
        for (int v = 0; v < n; ++v)
            rows(t, v) = probs.data<float>()[t * V + v];
        rows.row(t) /= rows.row(t).sum();
    }
    return rows;
}

std::unique_ptr<LanguageModel> loadHf(const QString &name, const Corpus &corpus)
{
    return buildModel(ModelSpec::parse("hf:" + folder(name)), corpus).model;
}

DecodingSettings settings(double temperature, int topK, int k, std::uint64_t seed, Variant variant = Variant::Correct)
{
    DecodingSettings s;
    s.draftLength = k;
    s.target = {temperature, topK, 1.0};
    s.draft = {temperature, topK, 1.0};
    s.seed = seed;
    s.variant = variant;
    return s;
}

namespace fs = std::filesystem;

/// A copy of llama-op17-external in `root`/`name` (onnx/model.onnx with onnx/model.onnx_data) to break.
std::string copyFolder(const std::string &root, const std::string &name, const QString &from)
{
    const fs::path to = fs::path(root) / name;
    fs::create_directories(to);
    fs::copy(folder(from), to, fs::copy_options::recursive);
    return to.string();
}

/// Rewrites the first external initializer's table entry `key` to `value` in DIR/onnx/model.onnx.
void setExternalField(const std::string &dir, const std::string &key, const std::string &value)
{
    const std::string path = dir + "/onnx/model.onnx";
    onnx::ModelProto model;
    if (!model.ParseFromString(nn::readWholeFile(path)))
        throw Error("cannot parse " + path);
    auto *init = model.mutable_graph()->mutable_initializer(0);
    bool done = false;
    for (auto &kv : *init->mutable_external_data())
        if (kv.key() == key) {
            kv.set_value(value);
            done = true;
        }
    if (!done) {
        auto *kv = init->add_external_data();
        kv->set_key(key);
        kv->set_value(value);
    }
    writeFileAtomically(path, model.SerializeAsString());
}

/// config.json of DIR with `key` set to the JSON `value` (empty: removed).
void setConfigField(const std::string &dir, const std::string &key, const std::string &value)
{
    std::string text = nn::readWholeFile(dir + "/config.json");
    const std::string quoted = "\"" + key + "\":";
    const auto at = text.find(quoted);
    if (at == std::string::npos)
        throw Error("no " + key + " in config.json");
    const auto end = text.find_first_of(",}", at);
    text.replace(at, end - at + (value.empty() ? 1 : 0), value.empty() ? "" : quoted + " " + value);
    writeFileAtomically(dir + "/config.json", text);
}

} // namespace

Q_DECLARE_METATYPE(specdec::DecodingSettings)

class TestHfFolders : public QObject
{
    Q_OBJECT
private:
    Corpus m_corpus = test::tinyEnglish();

private slots:
    void matchPyTorch_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"gpt2-op14", "gpt2-op17", "gpt2-op18", "gpt2-merged", "llama-op17",
                                 "llama-op17-external", "llama-large-op17", "qwen2-op14-fp16"})
            QTest::addRow("%s", name) << QString::fromLatin1(name);
    }
    void matchPyTorch()
    {
        QFETCH(QString, name);
        const std::string dir = folder(name);
        std::unique_ptr<LanguageModel> model = loadHf(name, m_corpus);
        QCOMPARE(model->describe(), "hf:" + dir);
        const nn::Tensor tokens = referenceTensor(referenceFolder(name), "tokens");
        const nn::Tensor probs = referenceTensor(referenceFolder(name), "probs");
        const int n = model->tokenizer().size();
        QVERIFY(n <= probs.dim(1));
        const Eigen::MatrixXd expected = referenceRows(probs, n);
        const std::vector<TokenId> ids(tokens.data<std::int64_t>(), tokens.data<std::int64_t>() + tokens.size());
        const int T = static_cast<int>(ids.size());

        DistributionMatrix uncached;
        model->distributions(ids, T, uncached);
        QCOMPARE(uncached.cols(), Eigen::Index(n)); // padding logits never reach a distribution
        const double worstUncached = (uncached - expected).cwiseAbs().maxCoeff();

        std::unique_ptr<DecodingState> state = model->newState(true);
        QVERIFY(state->hasCache());
        DistributionMatrix cached(T, n), rows;
        int at = 0;
        for (int call = 0; at < T; ++call) {
            const int chunk = std::min(call == 0 ? 3 : call == 1 ? 1 : 5, T - at); // 3, 1, then 5 at a time
            state->extend(
                std::span<const TokenId>(ids).subspan(static_cast<std::size_t>(at), static_cast<std::size_t>(chunk)),
                chunk, rows);
            cached.middleRows(at, chunk) = rows;
            at += chunk;
        }
        QCOMPARE(at, T);
        const double worstCached = (cached - expected).cwiseAbs().maxCoeff();
        qInfo("%s: max |p - p_torch| over %d positions: uncached %.2e, cached %.2e (%d tokens, %lld logits; cache %s)",
              qPrintable(name), T, worstUncached, worstCached, n, static_cast<long long>(probs.dim(1)),
              dynamic_cast<OnnxLanguageModel &>(*model).cachesInPlace() ? "in place" : "the presents");
        QVERIFY(worstUncached < 1e-4);
        QVERIFY(worstCached < 1e-4);
    }

    void cacheInPlace_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"gpt2-op14", "gpt2-op17", "gpt2-op18", "gpt2-merged", "llama-op17",
                                 "llama-op17-external", "llama-large-op17", "qwen2-op14-fp16"})
            QTest::addRow("%s", name) << QString::fromLatin1(name);
    }
    void cacheInPlace()
    {
        // Every folder's Concat(past, new) is appended in place (GPT-2's Div scale and Where mask, Llama's and
        // Qwen2's repeated kv heads fused into the attention): every past input is a cache pair, and the load probe
        // gave the presents' bits. Then a script of calls (3, 1 and 5 new rows; rollbacks, one followed by other
        // tokens first) gives, in place, the presents path's distributions bit for bit and PyTorch's within 1e-4.
        QFETCH(QString, name);
        const auto model = OnnxLanguageModel::loadFolder(folder(name), 1);
        std::set<std::string> pasts, pairs;
        for (const nn::ValueInfo &in : model->graph().inputs())
            if (in.name.rfind("past_key_values.", 0) == 0)
                pasts.insert(in.name);
        for (const nn::OnnxGraph::CachePair &p : model->graph().cachePairs())
            pairs.insert({p.pastKey, p.pastValue});
        QVERIFY(!pasts.empty());
        QVERIFY2(pairs == pasts, "a past input is not appended in place (GraphFusion: the pattern was not fused)");
        QVERIFY2(model->cachesInPlace(), "the in-place cache differed from the presents on the load probe");

        const nn::Tensor tokens = referenceTensor(referenceFolder(name), "tokens");
        const int n = model->tokenizer().size();
        const Eigen::MatrixXd expected = referenceRows(referenceTensor(referenceFolder(name), "probs"), n);
        const std::vector<TokenId> ids(tokens.data<std::int64_t>(), tokens.data<std::int64_t>() + tokens.size());
        const auto T = static_cast<int>(ids.size());
        // (length to cut back to, or -1; new rows; whether they are other tokens than the reference's)
        struct Call
        {
            int cutTo, rows;
            bool other;
        };
        std::vector<Call> script{{-1, 3, false}, {-1, 1, false}, {-1, 5, false}, {7, 5, true},
                                 {7, 5, false},  {-1, 1, false}, {10, 5, false}, {-1, 5, false},
                                 {18, 1, true},  {18, 5, false}, {-1, 5, false}, {-1, 4, false}};
        for (int at = 32; at < T; at += 7) // then the rest of the reference run, 7 rows a call
            script.push_back({-1, std::min(7, T - at), false});
        int length = 0;
        auto play = [&](bool inPlace, std::vector<DistributionMatrix> &calls) {
            model->setCacheInPlace(inPlace);
            const std::unique_ptr<DecodingState> state = model->newState(true);
            double worst = 0;
            length = 0;
            for (const Call &c : script) {
                if (c.cutTo >= 0) {
                    state->truncate(c.cutTo);
                    length = c.cutTo;
                }
                std::vector<TokenId> fresh(ids.begin() + length, ids.begin() + length + c.rows);
                if (c.other)
                    for (TokenId &t : fresh)
                        t = (t + 17) % n;
                DistributionMatrix rows;
                state->extend(fresh, c.rows, rows);
                if (!c.other)
                    worst = std::max(worst, (rows - expected.middleRows(length, c.rows)).cwiseAbs().maxCoeff());
                calls.push_back(rows);
                length += c.rows;
            }
            model->setCacheInPlace(true);
            return worst;
        };
        std::vector<DistributionMatrix> presents, inPlace;
        const double worstPresents = play(false, presents);
        const double worstInPlace = play(true, inPlace);
        QCOMPARE(length, T);
        qInfo("%s: %zu cache pairs in place; max |p - p_torch| %.2e in place, %.2e with the presents", qPrintable(name),
              model->graph().cachePairs().size(), worstInPlace, worstPresents);
        QVERIFY(worstInPlace < 1e-4);
        QCOMPARE(inPlace.size(), presents.size());
        for (std::size_t c = 0; c < inPlace.size(); ++c)
            QVERIFY2(inPlace[c].size() == presents[c].size()
                         && std::memcmp(inPlace[c].data(), presents[c].data(),
                                        static_cast<std::size_t>(inPlace[c].size()) * sizeof(double))
                             == 0,
                     qPrintable(QStringLiteral("call %1 differs from the presents path").arg(c)));
    }

    void externalDataIsMapped()
    {
        // onnx/model.onnx with its initializers in onnx/model.onnx_data, mapped from the folder (matchPyTorch
        // checks its distributions against llama-op17's reference).
        const std::string dir = folder(QStringLiteral("llama-op17-external"));
        auto model = OnnxLanguageModel::loadFolder(dir, 1);
        QCOMPARE(model->graph().externalBytesMapped(),
                 static_cast<std::uint64_t>(fs::file_size(dir + "/onnx/model.onnx_data")));
        auto inline_ = OnnxLanguageModel::loadFolder(folder(QStringLiteral("llama-op17")), 1);
        QCOMPARE(inline_->graph().externalBytesMapped(), std::uint64_t(0));
    }

    void hostileFolders_data()
    {
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("expected");
        QTest::addRow("location absolute") << "location=/etc/hostname"
                                           << "external data field 'location' is \"/etc/hostname\", an absolute path";
        QTest::addRow("location ..") << "location=../../llama-op17/model.onnx"
                                     << "which leads out of the model's folder ('..')";
        QTest::addRow("location symlink out") << "symlink"
                                              << "which resolves outside the model's folder";
        QTest::addRow("data shorter") << "truncate"
                                      << "holds 0 bytes from offset 0; its shape needs 18176";
        QTest::addRow("offset past the end") << "offset=99999999"
                                             << "external data field 'offset' is 99999999, past the end";
        QTest::addRow("length short") << "length=16"
                                      << "external data field 'length' is 16 bytes; its shape needs 18176";
        QTest::addRow("offset not a number") << "offset=-4"
                                             << "external data field 'offset' is \"-4\"";
        QTest::addRow("unknown field") << "basepath=/"
                                       << "external data has an unknown field 'basepath'";
        QTest::addRow("config layers") << "config:num_hidden_layers=3"
                                       << "config.json: field 'num_hidden_layers' is 3 but";
        QTest::addRow("config kv heads")
            << "config:num_key_value_heads=4"
            << "config.json: field 'num_key_value_heads' gives 4 key/value heads but input "
               "'past_key_values.0.key'";
        QTest::addRow("config hidden") << "config:hidden_size=32"
                                       << "config.json: field 'hidden_size' gives heads of 8 dimensions";
        QTest::addRow("config vocab below tokenizer") << "config:vocab_size=200"
                                                      << "tokenizer.json: 284 tokens, more than the 200 logits of";
        QTest::addRow("config vocab above logits") << "config:vocab_size=300"
                                                   << "config.json: field 'vocab_size' is 300";
        QTest::addRow("config field missing") << "config:vocab_size="
                                              << "config.json: field 'vocab_size' is missing";
        QTest::addRow("config field a string") << "config:num_attention_heads=\"4\""
                                               << "config.json: field 'num_attention_heads' is \"4\"";
        QTest::addRow("eos not an id") << "generation:\"eos_token_id\": \"</s>\""
                                       << "generation_config.json: field 'eos_token_id' is \"</s>\"";
        QTest::addRow("eos past the tokenizer") << "generation:\"eos_token_id\": [283, 290]"
                                                << "generation_config.json: field 'eos_token_id' names id 290, not "
                                                   "one of the 284 tokens of";
        QTest::addRow("do_sample not a bool") << "generation:\"do_sample\": \"yes\""
                                              << "generation_config.json: field 'do_sample' is \"yes\"";
        QTest::addRow("temperature 0")
            << "generation:\"do_sample\": true, \"temperature\": 0"
            << "generation_config.json: field 'temperature' is 0, expected a number in (0, 100]";
        QTest::addRow("top_p past 1") << "generation:\"top_p\": 1.5"
                                      << "generation_config.json: field 'top_p' is 1.5, expected a number in (0, 1]";
        QTest::addRow("top_k negative") << "generation:\"top_k\": -1"
                                        << "generation_config.json: field 'top_k' is -1";
        QTest::addRow("eos in config.json") << "config:eos_token_id=-1"
                                            << "config.json: field 'eos_token_id' is -1";
        QTest::addRow("no tokenizer") << "remove:tokenizer.json"
                                      << "the folder has no tokenizer.json";
        QTest::addRow("graph symlink out") << "graph-symlink"
                                           << "the file leads outside the model folder";
    }
    void hostileFolders()
    {
        QFETCH(QString, breakage);
        QFETCH(QString, expected);
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string b = breakage.toStdString();
        const std::string dir = copyFolder(tmp.path().toStdString(), "model",
                                           b == "if-elsewhere" ? QStringLiteral("gpt2-merged")
                                                               : QStringLiteral("llama-op17-external"));
        if (b == "if-elsewhere") {
            // A top-level If on another input than use_cache_branch: not Optimum's merged decoder.
            const std::string path = dir + "/decoder_model_merged.onnx";
            std::string bytes = nn::readWholeFile(path);
            for (std::size_t at; (at = bytes.find("use_cache_branch")) != std::string::npos;)
                bytes.replace(at, 16, "use_cache_switch");
            writeFileAtomically(path, bytes);
        } else if (b == "symlink") {
            fs::create_symlink(fs::path(tmp.path().toStdString()) / "outside.bin", fs::path(dir) / "onnx" / "link.bin");
            std::ofstream(tmp.path().toStdString() + "/outside.bin") << std::string(100000, 'x');
            setExternalField(dir, "location", "link.bin");
        } else if (b == "truncate") {
            fs::resize_file(fs::path(dir) / "onnx" / "model.onnx_data", 0);
        } else if (b == "graph-symlink") {
            fs::rename(fs::path(dir) / "onnx" / "model.onnx", fs::path(tmp.path().toStdString()) / "elsewhere.onnx");
            fs::create_symlink(fs::path(tmp.path().toStdString()) / "elsewhere.onnx",
                               fs::path(dir) / "onnx" / "model.onnx");
        } else if (b.rfind("config:", 0) == 0) {
            const auto eq = b.find('=');
            setConfigField(dir, b.substr(7, eq - 7), b.substr(eq + 1));
        } else if (b.rfind("generation:", 0) == 0) {
            std::ofstream(dir + "/generation_config.json") << "{" << b.substr(11) << "}";
        } else if (b.rfind("remove:", 0) == 0) {
            fs::remove(fs::path(dir) / b.substr(7));
        } else {
            const auto eq = b.find('=');
            setExternalField(dir, b.substr(0, eq), b.substr(eq + 1));
        }
        std::string message;
        try {
            buildModel(ModelSpec::parse("hf:" + dir), m_corpus);
        } catch (const Error &e) {
            message = e.what();
        }
        qInfo("%s", message.c_str());
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        // The file and, for a field, the field are named.
        const bool namesFile = message.find("config.json") != std::string::npos
            || message.find("tokenizer.json") != std::string::npos || message.find("model.onnx") != std::string::npos;
        QVERIFY2(namesFile, message.c_str());
    }

    // generation_config.json's sampling as transformers' generate reads it: do_sample false (the test folders') is
    // greedy; true samples with its temperature, top_k (50 when absent) and top_p; none of the fields, no advice.
    void samplingAdvice()
    {
        const auto greedy = loadHf(QStringLiteral("llama-op17"), m_corpus)->samplingAdvice();
        QVERIFY(greedy.has_value());
        QCOMPARE(greedy->temperature, 0.0);
        QVERIFY(greedy->file.ends_with("generation_config.json"));
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const std::string dir = copyFolder(tmp.path().toStdString(), "model", QStringLiteral("llama-op17"));
        std::ofstream(dir + "/generation_config.json")
            << R"({"eos_token_id": 283, "do_sample": true, "temperature": 0.7, "top_p": 0.8})";
        const auto sampled = buildModel(ModelSpec::parse("hf:" + dir), m_corpus).model->samplingAdvice();
        QVERIFY(sampled.has_value());
        QCOMPARE(sampled->temperature, 0.7);
        QCOMPARE(sampled->topK, 50);
        QCOMPARE(sampled->topP, 0.8);
        std::ofstream(dir + "/generation_config.json") << R"({"eos_token_id": 283})";
        QVERIFY(!buildModel(ModelSpec::parse("hf:" + dir), m_corpus).model->samplingAdvice().has_value());
    }

    void paddingIsNeverDrawn()
    {
        // Qwen2's folder: 284 tokens in tokenizer.json, vocab_size 299 logits (as Qwen2.5's 151,669 and 151,936).
        std::unique_ptr<LanguageModel> model = loadHf(QStringLiteral("qwen2-op14-fp16"), m_corpus);
        QCOMPARE(model->tokenizer().size(), 284);
        QCOMPARE(dynamic_cast<OnnxLanguageModel &>(*model).contextLength(), 256);
        const std::vector<TokenId> prompt = model->tokenizer().encode("In the beginning");
        const Generation g = generateAutoregressive(*model, {1.0, 0, 1.0}, 7, prompt, 60);
        for (TokenId t : g.tokens)
            QVERIFY(t >= 0 && t < 284);
    }

    void greedySpeculativeEqualsAutoregressive_data()
    {
        QTest::addColumn<QString>("draft");
        QTest::addColumn<bool>("cache");
        QTest::addRow("llama draft, cache on") << QStringLiteral("hf:llama-op17") << true;
        QTest::addRow("llama draft, cache off") << QStringLiteral("hf:llama-op17") << false;
        QTest::addRow("gpt2 draft, cache on") << QStringLiteral("hf:gpt2-op17") << true;
        QTest::addRow("qwen2 draft, cache on") << QStringLiteral("hf:qwen2-op14-fp16") << true;
        QTest::addRow("ngram:3 over the tokenizer") << QStringLiteral("ngram:3") << true;
    }
    void greedySpeculativeEqualsAutoregressive()
    {
        QFETCH(QString, draft);
        QFETCH(bool, cache);
        std::unique_ptr<LanguageModel> target = loadHf(QStringLiteral("llama-large-op17"), m_corpus);
        std::string spec = draft.toStdString();
        if (spec.rfind("hf:", 0) == 0)
            spec = "hf:" + folder(QString::fromStdString(spec.substr(3)));
        BuiltModel d = buildModel(ModelSpec::parse(spec), m_corpus, &target->tokenizer(), target.get());
        Tokenizer::requireSame(target->tokenizer(), d.model->tokenizer());
        // The cache on: the target's and a folder draft's keys and values appended in place (cacheInPlace).
        QVERIFY(dynamic_cast<OnnxLanguageModel &>(*target).cachesInPlace());
        if (auto *onnx = dynamic_cast<OnnxLanguageModel *>(d.model.get()))
            QVERIFY(onnx->cachesInPlace());
        DecodingSettings s = settings(0.0, 0, 4, 1);
        s.kvCache = cache;
        const std::vector<TokenId> prompt = target->tokenizer().encode("And God said");
        // Past the context of 256 positions: the cache refills from a new window start.
        const int tokens = 280;
        const Generation spec1 = generateSpeculative(*target, *d.model, s, prompt, tokens);
        const Generation ar = generateAutoregressive(*target, s.target, 0, prompt, tokens, {}, cache);
        QCOMPARE(spec1.tokens, ar.tokens);
        // (other random-weight models and an n-gram of tiny-en.txt guess the target poorly)
        if (draft.contains(QLatin1String("llama")))
            QVERIFY(spec1.target.calls < ar.target.calls);
        qInfo("%s: %d tokens in %lld target calls (autoregressive %lld)", qPrintable(draft), tokens,
              static_cast<long long>(spec1.target.calls), static_cast<long long>(ar.target.calls));
    }

    void endOfTextEndsTheRun()
    {
        // generation_config.json's eos_token_id (here a list, as Qwen2.5-Instruct's and Llama 3's) ends a run after
        // the target writes one of its ids, in every loop: greedy autoregressive, speculative chains and trees stop
        // at the same token with the same text; the race's two lanes too; a sampled run never writes past it.
        std::unique_ptr<LanguageModel> plain = loadHf(QStringLiteral("llama-large-op17"), m_corpus);
        QVERIFY(plain->endOfText().size() == 1 && plain->endOfText()[0] == 283); // from generation_config.json
        const std::vector<TokenId> prompt = plain->tokenizer().encode("And God said");
        const DecodingSettings s = settings(0.0, 0, 4, 1);
        const Generation free = generateAutoregressive(*plain, s.target, 0, prompt, 40);
        QVERIFY(!free.endOfText);
        // the first token of the greedy text that has not come before, from the 6th on: the run must end there
        std::size_t at = 5;
        while (std::find(free.tokens.begin(), free.tokens.begin() + static_cast<long>(at), free.tokens[at])
               != free.tokens.begin() + static_cast<long>(at))
            ++at;
        QTemporaryDir tmp;
        const std::string dir = copyFolder(tmp.path().toStdString(), "target", QStringLiteral("llama-large-op17"));
        std::ofstream(dir + "/generation_config.json")
            << "{\"eos_token_id\": [" << free.tokens[at] << ", 283], \"do_sample\": false}";
        std::unique_ptr<LanguageModel> target = buildModel(ModelSpec::parse("hf:" + dir), m_corpus).model;
        std::unique_ptr<LanguageModel> draft = loadHf(QStringLiteral("llama-op17"), m_corpus);
        QCOMPARE(target->endOfText().size(), std::size_t(2));
        const std::vector<TokenId> expected(free.tokens.begin(), free.tokens.begin() + static_cast<long>(at) + 1);

        const Generation ar = generateAutoregressive(*target, s.target, 0, prompt, 40);
        QVERIFY(ar.endOfText);
        QCOMPARE(ar.tokens, expected);
        const Generation chain = generateSpeculative(*target, *draft, s, prompt, 40, {}, true);
        QVERIFY(chain.endOfText && chain.report.endOfText);
        QCOMPARE(chain.tokens, expected);
        QCOMPARE(chain.report.tokens, static_cast<int>(expected.size()));
        QCOMPARE(chain.baselineTokens, expected); // the baseline alongside wrote as many
        const Generation tree = generateSpeculative(*target, *draft, test::treeSettings("3,2,1", 0.0, 1.0, 3), prompt,
                                                    40);
        QVERIFY(tree.endOfText);
        QCOMPARE(tree.tokens, expected);
        RaceRun race(*target, *draft, s, prompt, 40);
        while (race.advance()) { }
        QCOMPARE(race.state(RaceLane::Autoregressive).tokens, expected);
        QCOMPARE(race.state(RaceLane::Speculative).tokens, expected);

        // Sampled (T = 1): each run ends at its first end-of-text token, or writes all 40.
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const Generation g = generateSpeculative(*target, *draft, settings(1.0, 0, 4, seed), prompt, 40);
            const auto first = std::find_first_of(g.tokens.begin(), g.tokens.end(), target->endOfText().begin(),
                                                  target->endOfText().end());
            QCOMPARE(g.endOfText, first != g.tokens.end());
            QVERIFY(g.endOfText ? first + 1 == g.tokens.end() : g.tokens.size() == 40);
        }
    }

    void contextCapSetting()
    {
        // SPECDEC_MAX_CONTEXT caps a folder's context below its config's 256 positions: the pair then runs past
        // the cap through the window rule, greedy speculative = greedy autoregressive, cache on = cache off.
        const auto unset = qScopeGuard([] { qunsetenv("SPECDEC_MAX_CONTEXT"); });
        qputenv("SPECDEC_MAX_CONTEXT", "32");
        std::unique_ptr<LanguageModel> target = loadHf(QStringLiteral("llama-large-op17"), m_corpus);
        std::unique_ptr<LanguageModel> draft = loadHf(QStringLiteral("llama-op17"), m_corpus);
        qunsetenv("SPECDEC_MAX_CONTEXT");
        QCOMPARE(dynamic_cast<OnnxLanguageModel &>(*target).contextLength(), 32);
        QCOMPARE(dynamic_cast<OnnxLanguageModel &>(*draft).contextLength(), 32);
        QCOMPARE(dynamic_cast<OnnxLanguageModel &>(*loadHf(QStringLiteral("llama-op17"), m_corpus)).contextLength(), 256);
        const DecodingSettings s = settings(0.0, 0, 4, 1);
        const std::vector<TokenId> prompt = target->tokenizer().encode("And God said");
        const Generation spec = generateSpeculative(*target, *draft, s, prompt, 70);
        const Generation ar = generateAutoregressive(*target, s.target, 0, prompt, 70);
        const Generation uncached = generateAutoregressive(*target, s.target, 0, prompt, 70, {}, false);
        QCOMPARE(spec.tokens, ar.tokens);
        QCOMPARE(uncached.tokens, ar.tokens);
        for (const char *bad : {"abc", "15", "1048577", "64 ", "-1"}) {
            qputenv("SPECDEC_MAX_CONTEXT", bad);
            try {
                loadHf(QStringLiteral("llama-op17"), m_corpus);
                QFAIL(bad);
            } catch (const Error &e) {
                const QString message = QString::fromUtf8(e.what());
                QVERIFY2(
                    message.startsWith(QStringLiteral("SPECDEC_MAX_CONTEXT is '%1', expected").arg(QLatin1String(bad))),
                    qPrintable(message));
            }
        }
    }

    void greedyTreeEqualsAutoregressive()
    {
        // A token tree (3,2,1) on the Llama pair: every root-to-leaf path verified in one target call through the
        // caches' branch rows, and the text is greedy autoregressive decoding's.
        std::unique_ptr<LanguageModel> target = loadHf(QStringLiteral("llama-large-op17"), m_corpus);
        std::unique_ptr<LanguageModel> draft = loadHf(QStringLiteral("llama-op17"), m_corpus);
        const DecodingSettings s = test::treeSettings("3,2,1", 0.0, 1.0, 3);
        const std::vector<TokenId> prompt = target->tokenizer().encode("And God said");
        const Generation tree = generateSpeculative(*target, *draft, s, prompt, 60);
        const Generation ar = generateAutoregressive(*target, s.target, 0, prompt, 60);
        QCOMPARE(tree.tokens, ar.tokens);
        QVERIFY(tree.target.calls < ar.target.calls);
    }

    void lossless_data()
    {
        QTest::addColumn<DecodingSettings>("decoding");
        QTest::addColumn<bool>("lossless");
        QTest::addRow("correct K=2") << settings(1.0, 6, 2, 51) << true;
        QTest::addRow("resample-from-target K=2") << settings(1.0, 6, 2, 52, Variant::ResampleFromTarget) << false;
    }
    void lossless()
    {
        // The Llama pair, top-k 6 (36 continuations of two tokens), 2,000 samples: the joint distribution of the first
        // two tokens of speculative decoding against the target's exact one.
        QFETCH(DecodingSettings, decoding);
        QFETCH(bool, lossless);
        std::unique_ptr<LanguageModel> target = loadHf(QStringLiteral("llama-large-op17"), m_corpus);
        std::unique_ptr<LanguageModel> draft = loadHf(QStringLiteral("llama-op17"), m_corpus);
        const std::vector<TokenId> prompt = target->tokenizer().encode("In the beginning");
        const ContinuationFit fit = fitContinuations(
            exactContinuations(*target, decoding.target, prompt, 2),
            sampleContinuations(*target, draft.get(), decoding, DecodingMode::Speculative, prompt, 2, 2000));
        const QString why = test::losslessVerdict(fit, lossless, 8);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestHfFolders)
#include "test_hf_folders.moc"
