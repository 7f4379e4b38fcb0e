// ConsolidationRequest, the one consolidation use case the wizard and ingot-cli share (issue 36, item 2): the one
// default output rule (the wizard's field and the command line's output are the request's), and the free-space check
// before anything is written: the request with a stand-in for the disk that answers a real small number, and
// `ingot-cli consolidate` on a real file system too small for the output (a tmpfs of 16 KiB, for an output of 41 kB in a mount namespace of
// its own; skipped where this process may not make one). Checkpoints are written by tests/fixtures/
// make_sharded_fixtures.py (Debian's python3-torch), as the other consolidation tests do.
#include "services/checkpoint/consolidationrequest.h"
#include "services/checkpoint/loramerge.h"
#include "services/util/format.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
const QString kScript = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");

bool python(const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{kScript} + args);
    p.waitForFinished(300000);
    if (p.exitCode() != 0)
        qWarning("%s", p.readAll().constData());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
};

CliRun cli(const QString &program, const QStringList &args, const QString &workingDir = {})
{
    QProcess p;
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(program, args);
    p.waitForFinished(180000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(), p.readAllStandardError()};
}

// Everything below `dir`, hidden files included.
QStringList everything(const QString &dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

// The disk as a stand-in sees it: `free` bytes wherever the output goes, nothing there yet.
ConsolidationRequest::OutputProbe freeSpace(qint64 free)
{
    return [free](const QString &) { return OutputSpace{free, false, {}, 0, {}}; };
}
}  // namespace

class TestConsolidationRequest : public QObject
{
    Q_OBJECT

    QTemporaryDir tmp;
    QString m_dir;  // a tp=2 checkpoint in neuronx-distributed's layout
    QString m_lora, m_loraBase;  // two LoRA adapters (tp=2), and a base model they merge into

    // Written by tests/fixtures/make_checkpoint_formats.py once, for the tests that need them.
    bool loraFixtures()
    {
        if (!m_lora.isEmpty())
            return true;
        const QString script = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_formats.py");
        for (const auto &[dir, kind] : {std::pair{QStringLiteral("/lora"), QStringList{QStringLiteral("lora"), QStringLiteral("2")}},
                                        std::pair{QStringLiteral("/lora-base"), QStringList{QStringLiteral("lora-merge")}}}) {
            QProcess p;
            p.setProcessChannelMode(QProcess::MergedChannels);
            p.start(QStringLiteral("/usr/bin/python3"), QStringList{script, tmp.path() + dir} + kind);
            if (!p.waitForFinished(300000) || p.exitCode() != 0) {
                qWarning("%s", p.readAll().constData());
                return false;
            }
        }
        m_lora = tmp.path() + QStringLiteral("/lora");
        m_loraBase = tmp.path() + QStringLiteral("/lora-base");
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(tmp.isValid());
        m_dir = tmp.path() + QStringLiteral("/run");
        QVERIFY(python({m_dir, QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}));
    }

    // The one rule: beside what was chosen, never inside the shards, absolute, named for a re-shard's layout.
    void defaultOutput()
    {
        ConsolidationRequest r;
        QString error;
        QVERIFY2(r.findIn(m_dir, &error), qPrintable(error));
        QVERIFY(r.checkpoint());
        QCOMPARE(r.defaultOutput(), QFileInfo(m_dir).absoluteFilePath() + QStringLiteral("/consolidated"));
        QVERIFY2(r.findIn(m_dir + QStringLiteral("/shards"), &error), qPrintable(error));
        QCOMPARE(r.defaultOutput(), QFileInfo(m_dir).absoluteFilePath() + QStringLiteral("/consolidated"));
        QVERIFY2(r.findIn(m_dir + QStringLiteral("/shards/model"), &error), qPrintable(error));
        QCOMPARE(r.defaultOutput(), QFileInfo(m_dir).absoluteFilePath() + QStringLiteral("/consolidated"));
        r.mode = ConsolidationRequest::Mode::Reshard;
        r.reshardTp = 1;
        r.reshardPp = 2;
        QCOMPARE(r.defaultOutput(), QFileInfo(m_dir).absoluteFilePath() + QStringLiteral("/resharded-tp1-pp2"));
        QCOMPARE(r.defaultOutputName(), QStringLiteral("resharded-tp1-pp2"));
        // A relative folder gives an absolute output: the rule does not depend on where it is asked from.
        const QString here = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.path()));
        ConsolidationRequest rel;
        const bool found = rel.findIn(QStringLiteral("run"), &error);
        QDir::setCurrent(here);
        QVERIFY2(found, qPrintable(error));
        QCOMPARE(rel.defaultOutput(), QFileInfo(m_dir).absoluteFilePath() + QStringLiteral("/consolidated"));
    }

    // ingot-cli's default output is the request's (it had a rule of its own that kept a relative path relative).
    void theCommandLineTakesTheRequestsOutput()
    {
        ConsolidationRequest r;
        QString error;
        QVERIFY2(r.findIn(m_dir, &error), qPrintable(error));
        const CliRun run = cli(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("consolidate"), QStringLiteral("run"), QStringLiteral("--json")},
                               tmp.path());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject rep = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(rep.value(QLatin1String("output")).toString(), r.defaultOutput());
        QVERIFY(QFileInfo(r.defaultOutput() + QStringLiteral("/model.safetensors")).isFile());
        QVERIFY(QDir(r.defaultOutput()).removeRecursively());
    }

    // Too little room where the output goes: the words say how much is needed and free, and nothing is written.
    void theSpaceCheckRefusesBeforeWriting()
    {
        ConsolidationRequest r;
        QString error;
        QVERIFY2(r.findIn(m_dir, &error), qPrintable(error));
        r.options.output = tmp.path() + QStringLiteral("/small/consolidated");
        r.plan();
        QVERIFY(r.problems().isEmpty());
        const qint64 needed = r.bytesToWrite();
        QVERIFY(needed > 1000);
        r.setOutputProbe(freeSpace(needed - 1));
        const OutputSpace s = r.inspectOutput();
        QCOMPARE(s.bytesFree, needed - 1);
        QVERIFY2(r.outputProblem(s).startsWith(QStringLiteral("Not enough space for")), qPrintable(r.outputProblem(s)));
        QVERIFY2(r.outputText(s).contains(QStringLiteral("Not enough space.")), qPrintable(r.outputText(s)));
        const ConsolidationResult refused = r.run();
        QVERIFY(!refused.report.ok());
        QCOMPARE(refused.report.problems.size(), 1);
        QVERIFY2(refused.report.problems.first().contains(QStringLiteral("Not enough space")), qPrintable(refused.report.problems.first()));
        QVERIFY(refused.report.files.isEmpty());
        QVERIFY(!QFileInfo::exists(tmp.path() + QStringLiteral("/small")));
        // Exactly what it writes, and one byte more, fits.
        r.setOutputProbe(freeSpace(needed + 1));
        QVERIFY(r.outputProblem(r.inspectOutput()).isEmpty());
        const ConsolidationResult written = r.run();
        QVERIFY2(written.report.ok(), qPrintable(written.report.problems.join(QLatin1Char(' ')) + written.report.error));
        QVERIFY(QFileInfo(r.options.output + QStringLiteral("/model.safetensors")).isFile());
        QCOMPARE(written.fileSizes.size(), written.report.files.size());
    }

    // An adapter also merged into its base model: the merged model's bytes count in the space check (it ignored them,
    // so a disk that held the adapters but not the merged model failed half way), and a base model folder that holds
    // no model is refused before anything is written; the wizard and ingot-cli run this same request.
    void mergingCountsTheMergedModel()
    {
        QVERIFY(loraFixtures());
        ConsolidationRequest r;
        QString error;
        QVERIFY2(r.findIn(m_lora, &error), qPrintable(error));
        QVERIFY(r.isAdapter());
        r.baseModel = m_loraBase + QStringLiteral("/base");
        r.options.output = tmp.path() + QStringLiteral("/merge-small/out");
        r.plan();
        QVERIFY(r.problems().isEmpty());
        const qint64 adapters = r.bytesToWrite();
        const qint64 merged = planModelFolder(r.baseModel).bytes();
        QVERIFY(adapters > 1000 && merged > 1000);
        r.setOutputProbe(freeSpace(adapters + merged - 1));  // room for the adapters, not for the merged model too
        const QString problem = r.outputProblem(r.inspectOutput());
        QVERIFY2(problem.startsWith(QStringLiteral("Not enough space for")) && problem.contains(formatBytes(adapters + merged)),
                 qPrintable(problem));
        const ConsolidationResult refused = r.run();
        QVERIFY(!refused.report.ok());
        QVERIFY(refused.mergedOutput.isEmpty());
        QVERIFY(!QFileInfo::exists(tmp.path() + QStringLiteral("/merge-small")));
        r.setOutputProbe(freeSpace(adapters + merged + 1));
        QVERIFY(r.outputProblem(r.inspectOutput()).isEmpty());

        // A base model folder without a model: said before the run, nothing written.
        r.baseModel = m_loraBase + QStringLiteral("/adapter");
        const QString noModel = r.outputProblem(r.inspectOutput());
        QVERIFY2(noModel.contains(QStringLiteral("holds no model.safetensors")), qPrintable(noModel));
        QVERIFY(!r.run().report.ok());
        QVERIFY(!QFileInfo::exists(tmp.path() + QStringLiteral("/merge-small")));
    }

    // ingot-cli consolidate --merge-adapters on a real file system that holds the adapters but not the merged model
    // too: refused before writing, with the bytes both need (it wrote the adapters, then failed in the merge).
    void theCommandLineCountsTheMergedModel()
    {
        QVERIFY(loraFixtures());
        if (QProcess::execute(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                          QStringLiteral("mount -t tmpfs -o size=16k tmpfs \"$1\""), QStringLiteral("sh"),
                                                          tmp.path()}) != 0)
            QSKIP("cannot mount a small tmpfs in a mount namespace of its own here (needs root)");
        ConsolidationRequest r;
        QString error;
        QVERIFY2(r.findIn(m_lora, &error), qPrintable(error));
        r.plan();
        const qint64 adapters = r.bytesToWrite();
        const qint64 needed = adapters + planModelFolder(m_loraBase + QStringLiteral("/base")).bytes();
        const qint64 size = (needed - 1) / 4096 * 4096;  // whole pages, less than both need
        QVERIFY(size > adapters);
        const QString mount = tmp.path() + QStringLiteral("/tiny-merge");
        QVERIFY(QDir().mkpath(mount));
        const QString script = QStringLiteral("mount -t tmpfs -o size=%1 tmpfs \"$1\" || exit 99; m=$1; shift; \"$@\" \"$m/out\"; rc=$?; "
                                              "echo \"LEFT:$(ls -A \"$m\")\" >&2; exit $rc").arg(size);
        const CliRun run = cli(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                                                           QStringLiteral("sh"), mount, QStringLiteral(INGOT_CLI_PATH),
                                                           QStringLiteral("consolidate"), QStringLiteral("--merge-adapters"),
                                                           QStringLiteral("--base-model"), m_loraBase + QStringLiteral("/base"), m_lora});
        const QString err = QString::fromUtf8(run.err);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(err.contains(QStringLiteral("Not enough space for %1/out: it needs %2").arg(mount, formatBytes(needed))), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("LEFT:\n")), qPrintable(err));
    }

    // The command line refuses too, consolidate and reshard alike, on a real file system too small for the output: an
    // error that says so, exit code 1, and nothing left on it.
    void theCommandLineRefusesAFileSystemTooSmall_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addRow("consolidate") << QStringList{QStringLiteral("consolidate")};
        QTest::addRow("reshard") << QStringList{QStringLiteral("reshard"), QStringLiteral("--tensor-parallel-size=1")};
    }
    void theCommandLineRefusesAFileSystemTooSmall()
    {
        QFETCH(QStringList, command);
        if (QProcess::execute(QStringLiteral("unshare"), {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                          QStringLiteral("mount -t tmpfs -o size=16k tmpfs \"$1\""), QStringLiteral("sh"),
                                                          tmp.path()}) != 0)
            QSKIP("cannot mount a small tmpfs in a mount namespace of its own here (needs root)");
        const QString mount = tmp.path() + QStringLiteral("/tiny-") + command.first();
        QVERIFY(QDir().mkpath(mount));
        // The command, then what is left on the small file system, before the namespace (and the mount) ends.
        const QString script = QStringLiteral("mount -t tmpfs -o size=16k tmpfs \"$1\" || exit 99; m=$1; shift; \"$@\" \"$m/out\"; rc=$?; "
                                              "echo \"LEFT:$(ls -A \"$m\")\" >&2; exit $rc");
        const CliRun run = cli(QStringLiteral("unshare"), QStringList{QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"), script,
                                                                      QStringLiteral("sh"), mount, QStringLiteral(INGOT_CLI_PATH)}
                                                              + command + QStringList{m_dir});
        const QString err = QString::fromUtf8(run.err);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(err.contains(QStringLiteral("Not enough space for %1/out: it needs").arg(mount)), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("LEFT:\n")), qPrintable(err));
        QVERIFY(everything(mount).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestConsolidationRequest)
#include "tst_consolidationrequest.moc"
