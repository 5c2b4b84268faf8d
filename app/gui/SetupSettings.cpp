// SPDX-License-Identifier: GPL-3.0-or-later
#include "SetupSettings.h"

#include "DefaultModels.h"
#include "onnx/ThreadPool.h"

#include <QSettings>

#include <algorithm>
#include <thread>

namespace specdec::gui {

Setup defaultSetup()
{
    Setup d;
    d.target = kChefTarget; // kjv target-large + draft-small (Experiment.h)
    d.draft = kChefDraft;
    d.decoding.draftLength = kChefDraftLength;
    d.prompt = kChefPrompt;
    d.decoding.recordDistributions = true;
    return d;
}

Setup loadSetup(const QSettings &s)
{
    const Setup d = defaultSetup();
    Setup setup;
    auto str = [&](const char *key, const std::string &fallback) {
        return s.value(QLatin1String(key), QString::fromStdString(fallback)).toString().toStdString();
    };
    setup.corpus = str("setup/corpus", d.corpus);
    setup.tokenizer = str("setup/tokenizer", d.tokenizer);
    setup.target = str("setup/target", d.target);
    setup.draft = str("setup/draft", d.draft);
    setup.prompt = str("setup/prompt", d.prompt);
    setup.decoding.draftLength = s.value(QStringLiteral("setup/k"), d.decoding.draftLength).toInt();
    setup.decoding.target.temperature = s.value(QStringLiteral("setup/temperature"), 1.0).toDouble();
    setup.decoding.target.topK = s.value(QStringLiteral("setup/topK"), 0).toInt();
    setup.decoding.target.topP = s.value(QStringLiteral("setup/topP"), 1.0).toDouble();
    setup.decoding.draft = setup.decoding.target;
    setup.decoding.draft.temperature =
        s.value(QStringLiteral("setup/draftTemperature"), setup.decoding.target.temperature).toDouble();
    setup.decoding.seed = s.value(QStringLiteral("setup/seed"), 0).toULongLong();
    setup.decoding.kvCache = s.value(QStringLiteral("setup/kvCache"), d.decoding.kvCache).toBool();
    setup.decoding.recordDistributions = true;
    try {
        const std::string tree = str("setup/tree", "");
        if (!tree.empty())
            setup.decoding.tree = TreeShape::parse(tree);
        setup.validate();
    } catch (const std::exception &) {
        return d;
    }
    return setup;
}

void saveSetup(QSettings &s, const Setup &setup)
{
    s.setValue(QStringLiteral("setup/corpus"), QString::fromStdString(setup.corpus));
    s.setValue(QStringLiteral("setup/tokenizer"), QString::fromStdString(setup.tokenizer));
    s.setValue(QStringLiteral("setup/target"), QString::fromStdString(setup.target));
    s.setValue(QStringLiteral("setup/draft"), QString::fromStdString(setup.draft));
    s.setValue(QStringLiteral("setup/prompt"), QString::fromStdString(setup.prompt));
    s.setValue(QStringLiteral("setup/k"), setup.decoding.draftLength);
    s.setValue(QStringLiteral("setup/temperature"), setup.decoding.target.temperature);
    s.setValue(QStringLiteral("setup/draftTemperature"), setup.decoding.draft.temperature);
    s.setValue(QStringLiteral("setup/topK"), setup.decoding.target.topK);
    s.setValue(QStringLiteral("setup/topP"), setup.decoding.target.topP);
    s.setValue(QStringLiteral("setup/seed"), QVariant::fromValue<qulonglong>(setup.decoding.seed));
    s.setValue(QStringLiteral("setup/tree"), QString::fromStdString(setup.decoding.tree.describe()));
    s.setValue(QStringLiteral("setup/kvCache"), setup.decoding.kvCache);
}

int windowThreads()
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = QSettings().value(QStringLiteral("engine/threads"), std::min(cores, 4)).toInt();
    return std::clamp(threads, 1, nn::ThreadPool::maxThreads());
}

} // namespace specdec::gui
