// `ingot-cli job import DIR` as users run it (issue 38): a NeuronTrainer-style folder and a TensorBoard-only folder
// (tests/fixtures/make_run_folders.py) adopted as read-only jobs, what was found said in JSON and words, the job then
// listed and shown by its id like every job, a second import of the same folder the same job, a folder that holds no
// run refused with words and nothing recorded.
#include "tests/support/testsupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kGenerator = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_run_folders.py");

struct Run {
    int code = -1;
    QByteArray out, err;
    QJsonObject object() const { return QJsonDocument::fromJson(out).object(); }
    QJsonArray array() const { return QJsonDocument::fromJson(out).array(); }
};

}  // namespace

class TestJobImportCli : public QObject
{
    Q_OBJECT
    QTemporaryDir m_data;
    QTemporaryDir m_runs;

    Run cli(const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_DATA_HOME"), m_data.path());
        e.insert(QStringLiteral("XDG_CACHE_HOME"), m_data.path() + QStringLiteral("/cache"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), m_data.path() + QStringLiteral("/config"));
        e.remove(QStringLiteral("INGOT_LANGUAGE"));
        p.setProcessEnvironment(e);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        Run r;
        if (!p.waitForFinished(120000))
            return r;
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = p.readAllStandardError();
        return r;
    }

private Q_SLOTS:
    void aTrainerFolderIsImportedListedAndShown()
    {
        const QString run = m_runs.filePath(QStringLiteral("neuron-run"));
        QCOMPARE(ingot::test::runProgram(QStringLiteral("/usr/bin/python3"), {kGenerator, QStringLiteral("trainer"), run}).code, 0);
        const Run imported = cli({QStringLiteral("job"), QStringLiteral("import"), run, QStringLiteral("--json")});
        QVERIFY2(imported.code == 0, imported.err.constData());
        const QJsonObject o = imported.object();
        const QString id = o.value(QLatin1String("id")).toString();
        QVERIFY(!id.isEmpty());
        QCOMPARE(o.value(QLatin1String("kind")).toString(), QStringLiteral("trainer"));
        QCOMPARE(o.value(QLatin1String("points")).toInt(), 8);
        QCOMPARE(o.value(QLatin1String("last_step")).toInt(), 8);
        QCOMPARE(o.value(QLatin1String("existing")).toBool(), false);
        QCOMPARE(o.value(QLatin1String("origin")).toString(), QStringLiteral("imported"));
        QCOMPARE(o.value(QLatin1String("checkpoints")).toArray().size(), 2);
        QCOMPARE(o.value(QLatin1String("checkpoints")).toArray().last().toString(), run + QStringLiteral("/checkpoint-8"));

        const Run status = cli({QStringLiteral("job"), QStringLiteral("status"), id, QStringLiteral("--json")});
        QVERIFY2(status.code == 0, status.err.constData());
        QCOMPARE(status.object().value(QLatin1String("state")).toString(), QStringLiteral("finished"));
        QCOMPARE(status.object().value(QLatin1String("step")).toInt(), 8);
        QCOMPARE(status.object().value(QLatin1String("origin")).toString(), QStringLiteral("imported"));
        QCOMPARE(status.object().value(QLatin1String("imported_from")).toString(), run);

        const Run list = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY2(list.code == 0, list.err.constData());
        QCOMPARE(list.array().size(), 1);
        QCOMPARE(list.array().first().toObject().value(QLatin1String("id")).toString(), id);

        // In words: the kind, the steps, the checkpoints, the id.
        const Run again = cli({QStringLiteral("job"), QStringLiteral("import"), run});
        QVERIFY2(again.code == 0, again.err.constData());
        const QString words = QString::fromUtf8(again.out);
        QVERIFY2(words.contains(QStringLiteral("Refreshed job %1").arg(id)), qPrintable(words));
        QVERIFY2(words.contains(QLatin1String("Hugging Face / NeuronTrainer output")), qPrintable(words));
        QVERIFY2(words.contains(QLatin1String("8 points, the last at step 8")), qPrintable(words));
        QVERIFY2(words.contains(QLatin1String("checkpoint-8")), qPrintable(words));
        QCOMPARE(cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")}).array().size(), 1);
    }

    void aTensorBoardFolderAndNotARun()
    {
        const QString run = m_runs.filePath(QStringLiteral("tb-run"));
        QCOMPARE(ingot::test::runProgram(QStringLiteral("/usr/bin/python3"), {kGenerator, QStringLiteral("tensorboard"), run}).code, 0);
        const Run imported = cli({QStringLiteral("job"), QStringLiteral("import"), run, QStringLiteral("--json")});
        QVERIFY2(imported.code == 0, imported.err.constData());
        QCOMPARE(imported.object().value(QLatin1String("kind")).toString(), QStringLiteral("tensorboard"));
        QCOMPARE(imported.object().value(QLatin1String("points")).toInt(), 8);

        const QString empty = m_runs.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        const int before = cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")}).array().size();
        const Run refused = cli({QStringLiteral("job"), QStringLiteral("import"), empty});
        QCOMPARE(refused.code, 4);
        QVERIFY2(refused.err.contains("no training run"), refused.err.constData());
        QCOMPARE(cli({QStringLiteral("job"), QStringLiteral("list"), QStringLiteral("--json")}).array().size(), before);
    }

    // Imported runs compare like any (job compare): their curves; a setting only Ingot's defaults could fill is "not
    // recorded", never the default (an imported run's job spec holds Ingot's defaults, not what it used).
    void importedRunsCompare()
    {
        const QString a = m_runs.filePath(QStringLiteral("cmp-a")), b = m_runs.filePath(QStringLiteral("cmp-b"));
        QCOMPARE(ingot::test::runProgram(QStringLiteral("/usr/bin/python3"), {kGenerator, QStringLiteral("trainer"), a}).code, 0);
        QCOMPARE(ingot::test::runProgram(QStringLiteral("/usr/bin/python3"), {kGenerator, QStringLiteral("tensorboard"), b}).code, 0);
        const QString idA = cli({QStringLiteral("job"), QStringLiteral("import"), a, QStringLiteral("--json")}).object().value(QLatin1String("id")).toString();
        const QString idB = cli({QStringLiteral("job"), QStringLiteral("import"), b, QStringLiteral("--json")}).object().value(QLatin1String("id")).toString();
        QVERIFY(!idA.isEmpty() && !idB.isEmpty());
        const Run cmp = cli({QStringLiteral("job"), QStringLiteral("compare"), idA, idB, QStringLiteral("--json")});
        QVERIFY2(cmp.code == 0, cmp.err.constData());
        const QJsonObject doc = cmp.object();
        QCOMPARE(doc.value(QLatin1String("runs")).toArray().size(), 2);
        for (const QJsonValue &r : doc.value(QLatin1String("runs")).toArray())
            QVERIFY2(r[QLatin1String("steps")].toInt() > 0, cmp.out.constData());
        for (const QJsonValue &row : doc.value(QLatin1String("settings")).toArray()) {
            const QString key = row[QLatin1String("key")].toString();
            if (key == QLatin1String("batch") || key == QLatin1String("sequence_length") || key == QLatin1String("env.NEURON_CC_FLAGS")
                || key == QLatin1String("compile_cache"))
                for (const QJsonValue &v : row[QLatin1String("values")].toArray())
                    QVERIFY2(v.toString().isEmpty() || v.toString() == QLatin1String("not recorded"),
                             qPrintable(key + QLatin1String(": ") + v.toString()));
        }
    }
};

QTEST_GUILESS_MAIN(TestJobImportCli)
#include "tst_jobimportcli.moc"
