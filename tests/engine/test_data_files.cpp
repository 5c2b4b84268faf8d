// SPDX-License-Identifier: GPL-3.0-or-later
// CorpusCatalog's data files: a relative path not found as given is looked up under the data directories in
// order, so "onnx:corpora/kjv/models/target.onnx" names the installed (or build tree's) model from any directory.
#include "Corpus.h"
#include "ModelFactory.h"

#include <QtTest>

#include <fstream>

using namespace specdec;

namespace {
void touch(const QString &path)
{
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    std::ofstream(path.toStdString()) << "x";
}
} // namespace

class TestDataFiles : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_cwd.isValid() && m_first.isValid() && m_second.isValid());
        m_oldCwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_cwd.path()));
    }
    void cleanup() { QDir::setCurrent(m_oldCwd); }

    void firstDataDirectoryHoldingTheFileWins()
    {
        const std::string rel = "corpora/kjv/models/m.onnx";
        touch(m_second.filePath(QString::fromStdString(rel)));
        const CorpusCatalog catalog({}, {m_first.path().toStdString(), m_second.path().toStdString()});
        QCOMPARE(catalog.dataFile(rel), m_second.path().toStdString() + "/" + rel);
        touch(m_first.filePath(QString::fromStdString(rel)));
        QCOMPARE(catalog.dataFile(rel), m_first.path().toStdString() + "/" + rel);
    }

    void pathAsGivenWhenItExistsIsAbsoluteOrIsNowhere()
    {
        touch(m_cwd.filePath(QStringLiteral("here.onnx")));
        touch(m_first.filePath(QStringLiteral("here.onnx")));
        touch(m_first.filePath(QStringLiteral("abs.onnx")));
        const CorpusCatalog catalog({}, {m_first.path().toStdString()});
        QCOMPARE(catalog.dataFile("here.onnx"), std::string("here.onnx")); // relative to the working directory
        const std::string absolute = m_second.path().toStdString() + "/abs.onnx";
        QCOMPARE(catalog.dataFile(absolute), absolute);
        QCOMPARE(catalog.dataFile("corpora/none.onnx"), std::string("corpora/none.onnx")); // the error names it
        QCOMPARE(CorpusCatalog().dataFile("abs.onnx"), std::string("abs.onnx"));
    }

    void onnxSpecsResolveOthersDoNot()
    {
        touch(m_first.filePath(QStringLiteral("corpora/kjv/models/t.onnx")));
        const CorpusCatalog catalog({}, {m_first.path().toStdString()});
        QCOMPARE(ModelSpec::parse("onnx:corpora/kjv/models/t.onnx", catalog).path,
                 m_first.path().toStdString() + "/corpora/kjv/models/t.onnx");
        QCOMPARE(ModelSpec::parse("onnx:corpora/kjv/models/t.onnx").path, std::string("corpora/kjv/models/t.onnx"));
        QCOMPARE(ModelSpec::parse("ngram:5", catalog).ngram.order, 5);
    }

private:
    QTemporaryDir m_cwd, m_first, m_second;
    QString m_oldCwd;
};

QTEST_APPLESS_MAIN(TestDataFiles)
#include "test_data_files.moc"
