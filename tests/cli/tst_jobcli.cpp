// `ingot-cli job` as users run it: real torchrun jobs on CPU, exit codes, JSON, logs.
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

struct Run {
    int code = -1;
    QString out, err;
    QJsonDocument json() const { return QJsonDocument::fromJson(out.toUtf8()); }
};

class JobCli
{
public:
    QTemporaryDir data;
    Run operator()(const QStringList &args, int timeoutMs = 180000, const QString &backendDir = QString()) const
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        e.remove(QStringLiteral("INGOT_BACKEND_DIR"));
        if (!backendDir.isEmpty())
            e.insert(QStringLiteral("INGOT_BACKEND_DIR"), backendDir);
        p.setProcessEnvironment(e);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        p.waitForFinished(timeoutMs);
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }
};

const QStringList python = {QStringLiteral("--python"), QStringLiteral("/usr/bin/python3")};

}  // namespace

class TestJobCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // job backend: where the backend is (here the source tree's: the build tree has no installed one beside
    // ingot-cli; tests/packaging checks the installed package finds its own), and a clear error when it is missing.
    void backendFolder()
    {
        JobCli cli;
        Run r = cli({QStringLiteral("job"), QStringLiteral("backend")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral(INGOT_SOURCE_DIR "/resources/backend"));
        r = cli({QStringLiteral("job"), QStringLiteral("backend"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().object().value(QLatin1String("found")).toBool(), true);

        QTemporaryDir empty;
        r = cli({QStringLiteral("job"), QStringLiteral("backend"), QStringLiteral("--json")}, 60000, empty.path());
        QCOMPARE(r.code, 1);
        QCOMPARE(r.json().object().value(QLatin1String("backend_dir")).toString(), empty.path());
        QCOMPARE(r.json().object().value(QLatin1String("found")).toBool(), false);
        QVERIFY2(r.err.contains(QLatin1String("the training backend is missing")) && r.err.contains(empty.path()),
                 qPrintable(r.err));
    }

    void launchStatusWaitList()
    {
        JobCli cli;
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--nproc-per-node"),
                                QStringLiteral("2"), QStringLiteral("--name"), QStringLiteral("cli tp2")}
                    + python + QStringList{QStringLiteral("--"), QStringLiteral("--config_name"), QStringLiteral("tiny"),
                                           QStringLiteral("--tensor_parallel_size"), QStringLiteral("2"),
                                           QStringLiteral("--max_steps"), QStringLiteral("5")});
        QCOMPARE(r.code, 0);
        const QString id = r.out.trimmed();
        QVERIFY2(id.size() > 10 && !id.contains(QLatin1Char(' ')), qPrintable(r.out + r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QJsonObject st = r.json().object();
        QCOMPARE(st.value(QLatin1String("id")).toString(), id);
        QVERIFY(QStringList({QStringLiteral("starting"), QStringLiteral("compiling"), QStringLiteral("running"),
                             QStringLiteral("saving"), QStringLiteral("finished")})
                    .contains(st.value(QLatin1String("state")).toString()));
        QVERIFY(st.value(QLatin1String("pids")).toObject().value(QLatin1String("launcher")).toInteger() > 0);

        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("Finished")));

        r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        st = r.json().object();
        QCOMPARE(st.value(QLatin1String("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(st.value(QLatin1String("step")).toInt(), 5);
        QCOMPARE(st.value(QLatin1String("max_steps")).toInt(), 5);
        QVERIFY(st.value(QLatin1String("last_loss")).toDouble() > 0);
        QVERIFY(QFileInfo(st.value(QLatin1String("output_dir")).toString() + QStringLiteral("/trainer_state.json")).isFile());

        r = cli({QStringLiteral("job"), QStringLiteral("list")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(id));
        QVERIFY(r.out.contains(QLatin1String("cli tp2")));
        QVERIFY(r.out.contains(QLatin1String("1x2x1")));
        QVERIFY(r.out.contains(QLatin1String("finished")));

        r = cli({QStringLiteral("job"), QStringLiteral("logs"), id, QStringLiteral("--rank"), QStringLiteral("1")});
        QCOMPARE(r.code, 0);
        r = cli({QStringLiteral("job"), QStringLiteral("logs"), id});
        QVERIFY(r.out.contains(QLatin1String("INGOT_EVENT")));
        QVERIFY(r.out.contains(QLatin1String("\"finished\"")));
    }

    void stopThenWaitSaysStopped()
    {
        JobCli cli;
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--json")} + python
                    + QStringList{QStringLiteral("--"), QStringLiteral("--max_steps"), QStringLiteral("100000")});
        QCOMPARE(r.code, 0);
        const QString id = r.json().object().value(QLatin1String("id")).toString();
        QVERIFY(!id.isEmpty());
        // Wait for the first step, then stop.
        for (int i = 0; i < 600; ++i) {
            r = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
            if (r.json().object().value(QLatin1String("step")).toInt() >= 1)
                break;
            QTest::qWait(200);
        }
        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id, QStringLiteral("--wait")});
        QCOMPARE(r.code, 9);
        QVERIFY(r.out.contains(QLatin1String("checkpoint-")));
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 9);
        r = cli({QStringLiteral("job"), QStringLiteral("stop"), id});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("not running")));
    }

    void failuresAndBadInput()
    {
        JobCli cli;
        // Invalid settings: the field and the rule, nothing started.
        Run r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--nproc-per-node"),
                                QStringLiteral("2")} + python
                    + QStringList{QStringLiteral("--"), QStringLiteral("--tensor_parallel_size"), QStringLiteral("3")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("--tensor_parallel_size")), qPrintable(r.err));
        QVERIFY(r.err.contains(QLatin1String("does not divide")));
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 0);
        r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--"), QStringLiteral("--bogus")});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("job"), QStringLiteral("status"), QStringLiteral("../../etc")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains(QLatin1String("not a job id")));

        // A job that fails: wait exits 1 and says why.
        QTemporaryDir dir;
        test::writeFile(dir.filePath(QStringLiteral("bad.jsonl")), "{\"text\": \"ok\"}\nnot json\n");
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch")} + python
                + QStringList{QStringLiteral("--"), QStringLiteral("--train_file"), dir.filePath(QStringLiteral("bad.jsonl"))});
        QCOMPARE(r.code, 0);
        const QString id = r.out.trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains(QLatin1String("is not JSON")), qPrintable(r.out));

        // --dry-run starts nothing and prints the exact command.
        r = cli(QStringList{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--dry-run")} + python);
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QLatin1String("-m ingot_train.launch")));
        r = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QCOMPARE(r.json().array().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestJobCli)
#include "tst_jobcli.moc"
