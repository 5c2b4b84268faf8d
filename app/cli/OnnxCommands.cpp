// SPDX-License-Identifier: GPL-3.0-or-later
// specdec onnx-ops and onnx-run: what the ONNX executor supports, and running any model on tensor files.
#include "CliOptions.h"
#include "Commands.h"
#include "Output.h"
#include "ParseArguments.h"

#include "onnx/OnnxRun.h"

#include <QCoreApplication>

namespace specdec::cli {

int onnxOpsCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (!parseArguments(parser, QStringLiteral("onnx-ops"),
                        QCoreApplication::translate("specdec", "List the ONNX operators and opsets the executor runs."),
                        arguments))
        return 0;
    out() << QString::fromStdString(nn::supportedOperatorsTable());
    out().flush();
    return 0;
}

int onnxRunCommand(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("model"), tr("The .onnx file."));
    parser.addOption({QStringLiteral("input"), tr("A graph input and the TensorProto file holding it (repeatable)."),
                      tr("NAME=FILE.pb")});
    parser.addOption({QStringLiteral("output-dir"), tr("Directory for DIR/<output name>.pb."), tr("dir")});
    parser.addOption({QStringLiteral("threads"), tr("Executor threads (0 = all cores)."), tr("n"), QStringLiteral("0")});
    parser.setApplicationDescription(tr("Run an ONNX model on TensorProto inputs and write every output."));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, tr("Show this help."));
    parser.addOption(help);
    QStringList withProgram = arguments;
    withProgram.prepend(QStringLiteral("specdec onnx-run"));
    if (!parser.parse(withProgram))
        throw UsageError(parser.errorText());
    if (parser.isSet(help)) {
        out() << parser.helpText();
        return 0;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        throw UsageError(tr("onnx-run takes exactly one model file"));
    if (!parser.isSet(QStringLiteral("output-dir")))
        throw UsageError(tr("onnx-run needs --output-dir"));
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const QString &input : parser.values(QStringLiteral("input")))
        inputs.push_back(nn::parseNamedInput(input.toStdString()));
    const auto written = nn::runModelOnFiles(positional.constFirst().toStdString(), inputs,
                                             parser.value(QStringLiteral("output-dir")).toStdString(),
                                             readInt(parser, QStringLiteral("threads"), 0));
    for (const auto &path : written)
        out() << QString::fromStdString(path) << '\n';
    out().flush();
    return 0;
}

} // namespace specdec::cli
