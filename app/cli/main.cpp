// SPDX-License-Identifier: GPL-3.0-or-later
// specdec: the command-line front end of specdec-lab.
#include "CliOptions.h"
#include "Commands.h"
#include "Output.h"

#include "Error.h"
#include "ErrorLine.h"

#include <QCoreApplication>

#include <exception>
#include <map>

using namespace specdec::cli;

namespace {

void printUsage()
{
    out() << tr("usage: specdec COMMAND [options]   (specdec COMMAND --help for its options)\n"
                "commands:\n"
                "  run      generate text by speculative decoding and report every round\n"
                "  dist     print a model's next-token distribution after a context\n"
                "  sample   count the continuations of many independent generations\n"
                "  compare  run several drafts against one target, side by side\n"
                "  sweep    measured vs predicted speedup over drafts, temperatures and K\n"
                "  race     the target alone against speculative decoding, each at its own pace\n"
                "  lossless one-step lab: does the output follow p? (and wrong variants that do not)\n"
                "  bench    measure decoding throughput on the shipped corpora\n"
                "  onnx-ops list the ONNX operators the executor supports\n"
                "  onnx-run run an ONNX model on TensorProto inputs\n"
                "  tokenize   encode a text with a Hugging Face tokenizer.json (ids, pieces)\n"
                "  detokenize decode token ids with a Hugging Face tokenizer.json\n");
    out().flush();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("specdec"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SPECDEC_VERSION));
    QStringList arguments = QCoreApplication::arguments();
    arguments.removeFirst();
    if (arguments.isEmpty() || arguments.constFirst() == QLatin1String("--help")
        || arguments.constFirst() == QLatin1String("-h") || arguments.constFirst() == QLatin1String("help")) {
        printUsage();
        return arguments.isEmpty() ? 2 : 0;
    }
    if (arguments.constFirst() == QLatin1String("--version")) {
        out() << "specdec " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }

    const std::map<QString, int (*)(const QStringList &)> commands{
        {QStringLiteral("run"), &runCommand},           {QStringLiteral("dist"), &distCommand},
        {QStringLiteral("sample"), &sampleCommand},     {QStringLiteral("bench"), &benchCommand},
        {QStringLiteral("lossless"), &losslessCommand}, {QStringLiteral("compare"), &compareCommand},
        {QStringLiteral("sweep"), &sweepCommand},       {QStringLiteral("race"), &raceCommand},
        {QStringLiteral("onnx-ops"), &onnxOpsCommand},  {QStringLiteral("onnx-run"), &onnxRunCommand},
        {QStringLiteral("tokenize"), &tokenizeCommand}, {QStringLiteral("detokenize"), &detokenizeCommand},
    };
    const QString name = arguments.takeFirst();
    const auto command = commands.find(name);
    try {
        if (command == commands.end())
            throw UsageError(tr("unknown command '%1' (try specdec --help)").arg(name));
        return command->second(arguments);
    } catch (const UsageError &e) {
        printError(QStringLiteral("error"), QString::fromUtf8(e.what()));
        return 2;
    } catch (const specdec::Error &e) {
        printError(QStringLiteral("error"), QString::fromUtf8(e.what()));
        return 1;
    } catch (const std::bad_alloc &) {
        printError(QStringLiteral("error"), tr("out of memory"));
        return 3;
    } catch (const std::exception &e) {
        printError(QStringLiteral("internal error"), QString::fromUtf8(e.what()));
        return 3;
    }
}
