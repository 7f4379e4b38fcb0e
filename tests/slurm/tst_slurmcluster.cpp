// SlurmCluster against a real private Slurm cluster (slurmctld + two slurmd on 127.0.0.1): detection and version,
// partitions and nodes with a drained node's reason, the queue and one job's details for a running and a pending
// job (Resources, its place in the queue, then running when the first ends), a submit Slurm rejects (its words,
// nothing queued), scancel --signal=TERM reaching the batch script, `ingot-cli cluster info local --json`, and the
// same listing on a login node over SSH (a real sshd).
#include "services/remote/remotehosts.h"
#include "services/slurm/slurmcluster.h"
#include "services/slurm/slurmparse.h"
#include "services/util/remoteshell.h"
#include "services/util/appsettings.h"
#include "tests/support/testslurm.h"
#include "tests/support/testsshd.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ingot;
using ingot::test::TestSlurm;
using ingot::test::TestSlurmOptions;

namespace {

const SlurmNode *findNode(const SlurmClusterInfo &info, const QByteArray &name)
{
    for (const SlurmNode &n : info.nodes)
        if (n.name == name)
            return &n;
    return nullptr;
}

const SlurmPartition *findPartition(const SlurmClusterInfo &info, const QByteArray &name)
{
    for (const SlurmPartition &p : info.partitions)
        if (p.name == name)
            return &p;
    return nullptr;
}

const SlurmQueueJob *findQueued(SlurmClusterInfo &&, const QByteArray &) = delete;  // it would point into a temporary
const SlurmQueueJob *findQueued(const SlurmClusterInfo &info, const QByteArray &id)
{
    for (const SlurmQueueJob &j : info.queue)
        if (j.id == id)
            return &j;
    return nullptr;
}

}  // namespace

class TestSlurmCluster : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestSlurm> m_slurm;
    QTemporaryDir m_tmp;

    SlurmCluster cluster() const { return SlurmCluster(makeLocalShell(), QFile::encodeName(m_slurm->confPath())); }

    QByteArray script(const QString &name, const QByteArray &body) const
    {
        const QString path = m_tmp.path() + QLatin1Char('/') + name;
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(body) != body.size())
            return {};
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        return QFile::encodeName(path);
    }

    // Submitted from the test's folder, Slurm's output there too (never in the current folder).
    QByteArray submit(const QByteArray &path, QVector<QByteArray> options, const QVector<QByteArray> &args = {})
    {
        options << "--chdir=" + QFile::encodeName(m_tmp.path());
        if (std::none_of(options.cbegin(), options.cend(), [](const QByteArray &o) { return o.startsWith("--output="); }))
            options << "--output=" + QFile::encodeName(m_tmp.path()) + "/slurm-%j.out";
        QByteArray id;
        QString error;
        if (!cluster().submit(path, args, options, &id, &error))
            qWarning("submit failed: %s", qPrintable(error));
        return id;
    }

    SlurmJobDetails details(const QByteArray &id) const
    {
        SlurmJobDetails j;
        QString error;
        cluster().job(id, &j, &error);
        return j;
    }

    SlurmClusterInfo info() const
    {
        SlurmClusterState s;
        QString error;
        if (!cluster().info(&s, &error))
            qWarning("info failed: %s", qPrintable(error));
        return s.info;
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("Ingot"));
        QCoreApplication::setApplicationName(QStringLiteral("ingot"));
        if (!TestSlurm::available())
            QSKIP("slurmctld/slurmd/slurm-client are not installed (packaging/install-deps.sh --test)");
        TestSlurmOptions o;
        o.features = QStringLiteral("trn1.32xlarge");
        o.gres = QStringLiteral("neuron:2");
        o.extraPartitions = {QStringLiteral("short Nodes=n1 MaxTime=00:10:00 State=UP")};
        m_slurm = std::make_unique<TestSlurm>(o);
        QString error;
        QVERIFY2(m_slurm->start(&error), qPrintable(error));
    }

    // Every test leaves the cluster as it found it: no job, every node idle.
    void cleanup()
    {
        if (!m_slurm)
            return;
        const TestSlurm::Run all = m_slurm->client(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")});
        for (const QByteArray &id : all.out.split('\n'))
            if (!id.trimmed().isEmpty())
                m_slurm->client(QStringLiteral("scancel"), {QString::fromLatin1(id.trimmed())});
        QVERIFY(m_slurm->waitQueueEmpty(60000));
        m_slurm->resume(QStringLiteral("n1"));
        m_slurm->resume(QStringLiteral("n2"));
        QVERIFY2(m_slurm->waitIdle(60000), qPrintable(m_slurm->log()));
    }

    void cleanupTestCase() { m_slurm.reset(); }

    void detectsTheClusterAndItsVersion()
    {
        SlurmClusterState s;
        QString error;
        QVERIFY2(cluster().info(&s, &error), qPrintable(error));
        QVERIFY(s.found);
        const TestSlurm::Run v = m_slurm->client(QStringLiteral("sinfo"), {QStringLiteral("--version")});
        QCOMPARE(v.code, 0);
        QVERIFY(!s.info.version.isEmpty());
        QVERIFY2(v.out.contains(s.info.version.toLatin1()), v.out.constData());
        QCOMPARE(s.info.clusterName, QByteArray("ingottest"));
    }

    void noSlurmWhereTheClientsAreMissing()
    {
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent-ingot-test");
        SlurmClusterState s;
        QString error;
        const bool ok = cluster().info(&s, &error);
        SlurmJobDetails j;
        QString jobError;
        const bool jobOk = cluster().job("1", &j, &jobError);
        qputenv("PATH", path);
        QVERIFY2(ok, qPrintable(error));
        QVERIFY(!s.found);
        QVERIFY(!jobOk);
        QVERIFY2(jobError.contains(QStringLiteral("No Slurm")), qPrintable(jobError));
    }

    void aControllerThatDoesNotAnswerIsAnError()
    {
        QTemporaryDir d;
        QFile f(d.path() + QStringLiteral("/slurm.conf"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("ClusterName=nowhere\nSlurmctldHost=nowhere(127.0.0.1)\nSlurmctldPort=1\nAuthType=auth/none\n"
                "CredType=cred/none\nNodeName=x CPUs=1 State=UNKNOWN\nPartitionName=p Nodes=x\n");
        f.close();
        SlurmClusterState s;
        QString error;
        QVERIFY(!SlurmCluster(makeLocalShell(), QFile::encodeName(f.fileName())).info(&s, &error));
        QVERIFY2(error.contains(QStringLiteral("did not answer")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("controller")) || error.contains(QStringLiteral("Unable")), qPrintable(error));
    }

    // Clients with no configuration to read (a workstation with slurm-client, a SLURM_CONF naming nothing): said at
    // once, without running clients that would look for a controller for a minute per command.
    void clientsWithoutAConfigurationAreNotRun()
    {
        QElapsedTimer t;
        t.start();
        SlurmClusterState s;
        QString error;
        const QByteArray missing = QFile::encodeName(m_tmp.path()) + "/none/slurm.conf";
        QVERIFY(!SlurmCluster(makeLocalShell(), missing).info(&s, &error));
        QVERIFY(!s.found);
        QVERIFY2(error.contains(QStringLiteral("is not there")), qPrintable(error));
        QVector<SlurmQueueJob> queue;
        QVERIFY(!SlurmCluster(makeLocalShell(), missing).queue(&queue, &error));
        QVERIFY2(error.contains(QStringLiteral("is not there")), qPrintable(error));
        QVERIFY2(t.elapsed() < 20000, qPrintable(QString::number(t.elapsed())));
    }

    void partitionsAndNodesWithADrainedNode()
    {
        SlurmClusterInfo i = info();
        QCOMPARE(i.partitions.size(), 2);
        const SlurmPartition *debug = findPartition(i, "debug");
        const SlurmPartition *shortPart = findPartition(i, "short");
        QVERIFY(debug && shortPart);
        QVERIFY(debug->isDefault);
        QVERIFY(!shortPart->isDefault);
        QCOMPARE(debug->maxTime, QByteArray("UNLIMITED"));
        QCOMPARE(shortPart->maxTime, QByteArray("00:10:00"));
        QCOMPARE(debug->state, QByteArray("UP"));
        QCOMPARE(debug->totalNodes, 2);
        QCOMPARE(debug->totalCpus, 4);
        QCOMPARE(debug->idle, 2);
        QCOMPARE(shortPart->idle, 1);
        QCOMPARE(i.nodes.size(), 2);
        const SlurmNode *n1 = findNode(i, "n1");
        QVERIFY(n1);
        QCOMPARE(n1->kind, SlurmNodeState::Idle);
        QCOMPARE(n1->cpus, 2);
        QCOMPARE(n1->memoryMb, qint64(4000));
        QCOMPARE(n1->addr, QByteArray("127.0.0.1"));
        QCOMPARE(n1->features, QByteArray("trn1.32xlarge"));
        QCOMPARE(n1->gres, QByteArray("neuron:2"));
        QVector<QByteArray> n1Parts = n1->partitions;  // in sinfo's order, which varies
        std::sort(n1Parts.begin(), n1Parts.end());
        QCOMPARE(n1Parts, (QVector<QByteArray>{"debug", "short"}));
        QCOMPARE(findNode(i, "n2")->partitions, (QVector<QByteArray>{"debug"}));

        QString error;
        QVERIFY2(m_slurm->drain(QStringLiteral("n2"), QStringLiteral("disk full | x=1"), &error), qPrintable(error));
        i = info();
        const SlurmNode *n2 = findNode(i, "n2");
        QVERIFY(n2);
        QCOMPARE(n2->kind, SlurmNodeState::Drained);
        QCOMPARE(n2->reason, QByteArray("disk full | x=1"));
        QCOMPARE(findPartition(i, "debug")->drained, 1);
        QCOMPARE(findPartition(i, "debug")->idle, 1);
        QCOMPARE(findNode(i, "n1")->reason, QByteArray());
        // The summary the Remote hosts page and the launcher show: CPUs, the kinds of nodes with their GRES and
        // instance type, and the drained node with Slurm's reason.
        SlurmClusterState state;
        QVERIFY2(cluster().info(&state, &error), qPrintable(error));
        const QString summary = slurmClusterSummary(state);
        QVERIFY2(summary.contains(QLatin1String("debug: 2 node(s) (1 idle, 0 mixed, 0 allocated, 1 drained, 0 down), 4 CPU(s)")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Nodes: 2 × 2 CPU(s), 3.9 GiB, neuron:2, trn1.32xlarge")), qPrintable(summary));
        QVERIFY2(summary.contains(QLatin1String("n2 drained: disk full | x=1")), qPrintable(summary));
    }

    // A job holding both nodes runs; a second one waits on Resources, first in its partition's queue, and runs
    // once the first is cancelled.
    void queueShowsRunningAndPendingJobs()
    {
        const QByteArray sleeper = script(QStringLiteral("sleeper.sh"), "#!/bin/sh\nsleep 300\n");
        const QByteArray out = QFile::encodeName(m_tmp.path()) + "/hog-%j.out";
        const QByteArray hog = submit(sleeper, {"--nodes=2", "--exclusive", "--job-name=hog job", "--output=" + out});
        QVERIFY(isSlurmJobId(hog));
        QTRY_COMPARE_WITH_TIMEOUT(details(hog).state, QByteArray("RUNNING"), 60000);
        // Its name holds the byte that separates Ingot's sections: it cannot cut the listing.
        const QByteArray waiter = submit(sleeper, {"--nodes=1", "--job-name=wait\036queue 0"});
        QVERIFY(isSlurmJobId(waiter));
        QTRY_COMPARE_WITH_TIMEOUT(details(waiter).reason, QByteArray("Resources"), 60000);

        const SlurmJobDetails h = details(hog);
        QCOMPARE(h.nodeList, QByteArray("n[1-2]"));
        QCOMPARE(h.numNodes, 2);
        QCOMPARE(h.batchHost, QByteArray("n1"));
        QCOMPARE(h.partition, QByteArray("debug"));
        QCOMPARE(h.timeLimit, QByteArray("UNLIMITED"));
        QCOMPARE(h.stdOut, QFile::encodeName(m_tmp.path()) + "/hog-" + hog + ".out");
        QCOMPARE(h.pendingPosition, 0);
        QVERIFY(!h.runTime.isEmpty());
        QVERIFY(!h.startTime.isEmpty());
        const SlurmJobDetails w = details(waiter);
        QCOMPARE(w.state, QByteArray("PENDING"));
        QCOMPARE(w.pendingPosition, 1);
        QCOMPARE(w.nodeList, QByteArray());

        const SlurmClusterInfo i = info();
        const SlurmQueueJob *qh = findQueued(i, hog);
        const SlurmQueueJob *qw = findQueued(i, waiter);
        QVERIFY(qh && qw);
        QCOMPARE(qh->name, QByteArray("hog job"));
        QCOMPARE(qh->state, QByteArray("RUNNING"));
        QCOMPARE(qh->nodes, 2);
        QCOMPARE(qh->nodeList, QByteArray("n[1-2]"));
        QCOMPARE(qh->stdOut, h.stdOut);
        QCOMPARE(qh->workDir, QFile::encodeName(m_tmp.path()));
        QCOMPARE(qw->state, QByteArray("PENDING"));
        QCOMPARE(qw->name, QByteArray("waitqueue 0"));
        QCOMPARE(qw->reason, QByteArray("Resources"));
        QCOMPARE(findPartition(i, "debug")->allocated, 2);

        // A job renames itself, then sets its comment (scontrol update, as any of the user's processes can): text
        // that reads as Slurm's fields is its name, and a record that still names a field twice is not read.
        QString error;
        const QString hogId = QString::fromLatin1(hog);
        QCOMPARE(m_slurm->client(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("JobId=") + hogId,
                                                              QStringLiteral("JobName=x JobState=COMPLETED ExitCode=0:0")}).code, 0);
        QTRY_COMPARE_WITH_TIMEOUT(details(hog).name, QByteArray("x JobState=COMPLETED ExitCode=0:0"), 30000);
        QCOMPARE(details(hog).state, QByteArray("RUNNING"));
        QCOMPARE(details(hog).exitCode, QByteArray("0:0"));
        QCOMPARE(details(hog).workDir, QFile::encodeName(m_tmp.path()));
        QCOMPARE(m_slurm->client(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("JobId=") + hogId,
                                                              QStringLiteral("Comment=done JobState=COMPLETED")}).code, 0);
        SlurmJobDetails forged;
        QTRY_VERIFY_WITH_TIMEOUT(!cluster().job(hog, &forged, &error), 30000);
        QVERIFY2(error.contains(QLatin1String("cannot be read")), qPrintable(error));

        QVERIFY2(cluster().cancel(hog, SlurmCluster::Cancel::Kill, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(details(waiter).state, QByteArray("RUNNING"), 60000);
    }

    // Nodes drained while a job waits: the job's reason says so (in Slurm's words), the queue shows the same, and
    // the job runs once a node is resumed.
    void pendingOnDrainedNodesShowsTheReason()
    {
        QVERIFY(m_slurm->drain(QStringLiteral("n1"), QStringLiteral("maintenance")));
        QVERIFY(m_slurm->drain(QStringLiteral("n2"), QStringLiteral("maintenance")));
        const QByteArray sleeper = script(QStringLiteral("drained.sh"), "#!/bin/sh\nsleep 300\n");
        const QByteArray id = submit(sleeper, {"--nodes=1"});
        QVERIFY(isSlurmJobId(id));
        // scontrol gives the reason's code with the nodes, or, once a later scheduling pass has set the job's
        // description, Slurm's words for the same thing (seen on 22.05 under load); either is read whole.
        const auto drainedReason = [](const QByteArray &r) {
            return r == "ReqNodeNotAvail,_UnavailableNodes:n[1-2]"
                || r == "Nodes_required_for_job_are_DOWN,_DRAINED_or_reserved_for_jobs_in_higher_priority_partitions";
        };
        QTRY_VERIFY_WITH_TIMEOUT(drainedReason(details(id).reason), 60000);
        const SlurmJobDetails j = details(id);
        QVERIFY2(drainedReason(j.reason), j.reason.constData());
        QCOMPARE(j.state, QByteArray("PENDING"));
        const SlurmClusterInfo listed = info();  // q points into it
        const SlurmQueueJob *q = findQueued(listed, id);
        QVERIFY(q);
        // squeue prints the reason's code with the nodes, or (once the scheduler has set the job's description) its
        // words for the same thing; both are Slurm's (seen on 22.05 under load).
        QVERIFY2((q->reason.startsWith("ReqNodeNotAvail") && q->reason.contains("n[1-2]"))
                     || q->reason.startsWith("Nodes required for job are DOWN, DRAINED"),
                 q->reason.constData());
        // A pending job cannot be signalled (scancel would retry for minutes): a stop cancels it outright.
        const QByteArray second = submit(sleeper, {"--nodes=1"});
        QTRY_VERIFY_WITH_TIMEOUT(details(second).reason.startsWith("ReqNodeNotAvail"), 60000);
        QString error;
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(cluster().cancel(second, SlurmCluster::Cancel::TermSteps, &error), qPrintable(error));
        QVERIFY(timer.elapsed() < 30000);
        QTRY_COMPARE_WITH_TIMEOUT(details(second).state, QByteArray("CANCELLED"), 60000);
        QCOMPARE(details(id).state, QByteArray("PENDING"));
        QVERIFY(m_slurm->resume(QStringLiteral("n1")));
        QTRY_COMPARE_WITH_TIMEOUT(details(id).state, QByteArray("RUNNING"), 60000);
        QCOMPARE(details(id).nodeList, QByteArray("n1"));
    }

    void submitRejectedInSlurmsWords()
    {
        const QByteArray sleeper = script(QStringLiteral("quick.sh"), "#!/bin/sh\ntrue\n");
        QByteArray id;
        QString error;
        QVERIFY(!cluster().submit(sleeper, {}, {"--nodes=3"}, &id, &error));
        QVERIFY2(error.startsWith(QStringLiteral("sbatch: error:")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("Node count specification invalid")), qPrintable(error));
        QVERIFY(id.isEmpty());
        QVERIFY(!cluster().submit(sleeper, {}, {"--partition=nope"}, &id, &error));
        QVERIFY2(error.contains(QStringLiteral("invalid partition")), qPrintable(error));
        QVERIFY(!cluster().submit(QFile::encodeName(m_tmp.path()) + "/missing.sh", {}, {}, &id, &error));
        QVERIFY2(error.contains(QStringLiteral("sbatch:")), qPrintable(error));
        QVERIFY(!cluster().submit("--wrap=true", {}, {}, &id, &error));  // no option as a script
        QVERIFY(!cluster().submit(sleeper, {}, {"nodes=1"}, &id, &error));
        const TestSlurm::Run q = m_slurm->client(QStringLiteral("squeue"), {QStringLiteral("-h")});
        QCOMPARE(q.code, 0);
        QCOMPARE(q.out, QByteArray());
    }

    void cancelWithTermReachesTheBatchScript()
    {
        const QByteArray body = "#!/bin/bash\n"
                                "trap 'echo term >\"$1/terminated\"; exit 0' TERM\n"
                                "sleep 300 &\n"
                                "touch \"$1/started\"\n"
                                "wait\n";
        const QByteArray s = script(QStringLiteral("trap.sh"), body);
        const QByteArray id = submit(s, {"--nodes=1"}, {QFile::encodeName(m_tmp.path())});
        QVERIFY(isSlurmJobId(id));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_tmp.path() + QStringLiteral("/started")), 60000);
        QString error;
        QVERIFY2(cluster().cancel(id, SlurmCluster::Cancel::TermAll, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_tmp.path() + QStringLiteral("/terminated")), 60000);
        QVERIFY(m_slurm->waitQueueEmpty(60000));

        QVERIFY(!cluster().cancel("1;touch /tmp/x", SlurmCluster::Cancel::TermSteps, &error));
        QVERIFY(error.contains(QStringLiteral("not a Slurm job id")));
        SlurmJobDetails j;
        bool gone = false;
        QVERIFY(!cluster().job("99999", &j, &error, &gone));
        QVERIFY2(error.contains(QStringLiteral("Invalid job id")), qPrintable(error));
        QVERIFY(gone);
        QVERIFY(cluster().job(id, &j, &error, &gone));  // ended, still known (MinJobAge)
        QVERIFY(!gone);
        QVERIFY2(j.state == "CANCELLED" || j.state == "COMPLETED", j.state.constData());
    }

    // Issue 37: job launch --ask-node asks the job's Python on a compute node (srun --immediate) before the engine
    // is chosen; the engine's note then does not say the login node answered. Without --slurm: refused.
    void cliAsksAComputeNodeOnRequest()
    {
        const QString out = m_tmp.path() + QStringLiteral("/ask-node-out");
        const QStringList common{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--python"), QStringLiteral("/usr/bin/python3"),
                                 QStringLiteral("--engine"), QStringLiteral("auto"), QStringLiteral("--output-dir"), out,
                                 QStringLiteral("--dry-run"), QStringLiteral("--json")};
        QProcess p;
        QProcessEnvironment env = m_slurm->environment();
        env.insert(QStringLiteral("INGOT_LANGUAGE"), QStringLiteral("en"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(INGOT_CLI_PATH), common + QStringList{QStringLiteral("--slurm"), QStringLiteral("local")});
        QVERIFY(p.waitForFinished(180000));
        const QByteArray loginErr = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(loginErr.contains("asked on the login node"), loginErr.constData());
        p.start(QStringLiteral(INGOT_CLI_PATH), common + QStringList{QStringLiteral("--slurm"), QStringLiteral("local"), QStringLiteral("--ask-node")});
        QVERIFY(p.waitForFinished(180000));
        const QByteArray nodeErr = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 0);
        QVERIFY2(nodeErr.contains("note: --engine:") && !nodeErr.contains("asked on the login node"), nodeErr.constData());
        QVERIFY(m_slurm->waitQueueEmpty(60000));  // the probe's allocation ended with it
        p.start(QStringLiteral(INGOT_CLI_PATH), common + QStringList{QStringLiteral("--ask-node")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--ask-node is for a Slurm job"));
    }

    void cliClusterInfoLocal()
    {
        const QByteArray sleeper = script(QStringLiteral("cli.sh"), "#!/bin/sh\nsleep 300\n");
        const QByteArray id = submit(sleeper, {"--nodes=1", "--job-name=cli-job"});
        QTRY_COMPARE_WITH_TIMEOUT(details(id).state, QByteArray("RUNNING"), 60000);

        QProcess p;
        p.setProcessEnvironment(m_slurm->environment());  // SLURM_CONF honoured
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cluster"), QStringLiteral("info"), QStringLiteral("local"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(o.value(QStringLiteral("found")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("cluster")).toString(), QStringLiteral("ingottest"));
        const QJsonArray parts = o.value(QStringLiteral("partitions")).toArray();
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("debug"));
        QCOMPARE(parts[0].toObject().value(QStringLiteral("default")).toBool(), true);
        const QJsonObject byState = parts[0].toObject().value(QStringLiteral("nodes_by_state")).toObject();
        QCOMPARE(byState.value(QStringLiteral("idle")).toInt() + byState.value(QStringLiteral("allocated")).toInt()
                     + byState.value(QStringLiteral("mixed")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("nodes")).toArray().size(), 2);
        const QJsonArray queue = o.value(QStringLiteral("queue")).toArray();
        QCOMPARE(queue.size(), 1);
        QCOMPARE(queue[0].toObject().value(QStringLiteral("id")).toString(), QString::fromLatin1(id));
        QCOMPARE(queue[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("cli-job"));
        QCOMPARE(queue[0].toObject().value(QStringLiteral("state")).toString(), QStringLiteral("RUNNING"));

        // The table, with no place named (local), and without SLURM_CONF: the machine's own (none here) fails.
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cluster"), QStringLiteral("info")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString table = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(table.contains(QStringLiteral("debug*")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("cli-job")), qPrintable(table));
        QVERIFY2(table.contains(QStringLiteral("trn1.32xlarge")), qPrintable(table));

        // No Slurm clients there: exit 5, said in words (and found: false in JSON).
        QProcessEnvironment none = m_slurm->environment();
        none.insert(QStringLiteral("PATH"), QStringLiteral("/nonexistent-ingot-test"));
        p.setProcessEnvironment(none);
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cluster"), QStringLiteral("info"), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 5);
        QCOMPARE(QJsonDocument::fromJson(p.readAllStandardOutput()).object().value(QStringLiteral("found")).toBool(true), false);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("No Slurm on this machine")));
    }

    // A login node over SSH: the same listing through a real sshd, SLURM_CONF given explicitly (a non-login ssh
    // session reads no profile).
    void overSsh()
    {
        test::TestSshd sshd;
        QString error;
        QVERIFY2(sshd.start(&error), qPrintable(error));
        QVERIFY(sshd.trustHostKey());
        AppSettings::setSshConfigFile(sshd.sshConfigFile());
        RemoteHosts::instance().reset();
        std::shared_ptr<RemoteShell> shell = RemoteHosts::instance().shell(sshd.alias(), &error);
        QVERIFY2(shell, qPrintable(error));
        SlurmClusterState remote;
        QVERIFY2(SlurmCluster(shell, QFile::encodeName(m_slurm->confPath())).info(&remote, &error), qPrintable(error));
        QVERIFY(remote.found);
        const SlurmClusterInfo local = info();
        QCOMPARE(remote.info.clusterName, local.clusterName);
        QCOMPARE(remote.info.version, local.version);
        QCOMPARE(remote.info.partitions.size(), local.partitions.size());
        QCOMPARE(remote.info.nodes.size(), local.nodes.size());
        QCOMPARE(remote.info.nodes[0].name, local.nodes[0].name);

        QProcess p;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cluster"), QStringLiteral("info"), sshd.alias(),
                                                 QStringLiteral("--slurm-conf"), m_slurm->confPath(), QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(o.value(QStringLiteral("where")).toString(), sshd.alias());
        QCOMPARE(o.value(QStringLiteral("cluster")).toString(), QStringLiteral("ingottest"));
        QCOMPARE(o.value(QStringLiteral("partitions")).toArray().size(), 2);
        if (auto conn = RemoteHosts::instance().connection(sshd.alias()))
            conn->close();
    }
};

QTEST_GUILESS_MAIN(TestSlurmCluster)
#include "tst_slurmcluster.moc"
