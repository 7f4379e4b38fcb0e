// Real training jobs for UI and model tests: tiny backend runs with torchrun on CPU, in a test's own jobs folder.
#pragma once

#include "services/jobs/jobmanager.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QTest>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringList>
#include <QThread>

#include <functional>

namespace ingot::test {

// Launches the backend with `args` (its flags) on `nproc` processes; "" and `error` set when it does not start.
inline QString launchJob(JobManager &jobs, const QStringList &args, int nproc, QString *error,
                         const QString &outputDir = QString(), JobSpec *specOut = nullptr)
{
    JobSpec spec;
    spec.nprocPerNode = nproc;
    if (!spec.parseTrainingArguments(args, error))
        return {};
    spec.outputDir = outputDir;
    if (specOut)
        *specOut = spec;
    LaunchPlan plan;
    QVector<JobProblem> problems;
    if (!jobs.plan(spec, &plan, &problems, error)) {
        for (const JobProblem &p : problems)
            *error += QStringLiteral(" --%1: %2").arg(p.field, p.message);
        return {};
    }
    if (!jobs.launch(plan, error))
        return {};
    return plan.record.id;
}

inline QString launchSpec(JobManager &jobs, const JobSpec &spec, QString *error)
{
    LaunchPlan plan;
    QVector<JobProblem> problems;
    if (!jobs.plan(spec, &plan, &problems, error))
        return {};
    return jobs.launch(plan, error) ? plan.record.id : QString();
}

// Blocks until the job has ended (or `timeoutMs`), reading its files as the CLI's `job wait` does.
inline JobStatus waitForEnd(JobManager &jobs, const QString &id, int timeoutMs = 120000)
{
    QString error;
    for (int waited = 0; waited < timeoutMs; waited += 200) {
        const JobSummary s = jobs.summary(id, false, &error);
        if (isFinal(s.status.state) && !s.status.alive)
            return s.status;
        QThread::msleep(200);
    }
    return jobs.summary(id, false, &error).status;
}

// A rank's stdout.log as torchrun wrote it (logs/<run>/attempt_N/<rank>/stdout.log).
// Polls `f` until `until` is true or the job ended and was read to the end (or `timeoutMs`); its final status.
inline JobStatus followJob(JobFollower &f, int timeoutMs, const std::function<bool(const JobFollower &)> &until = {})
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        const JobFollower::Update u = f.poll();
        if (until && until(f))
            break;
        if (u.caughtUp && isFinal(f.status().state))
            break;
        QTest::qWait(100);
    }
    return f.status();
}

inline QByteArray rankLog(const JobPaths &paths, int rank, const QString &name)
{
    QDirIterator it(paths.logsDir(), {name}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString f = it.next();
        if (f.endsWith(QStringLiteral("/%1/%2").arg(rank).arg(name))) {
            QFile file(f);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }
    }
    return {};
}

inline QByteArray rankStdout(const JobPaths &paths, int rank)
{
    return rankLog(paths, rank, QStringLiteral("stdout.log"));
}

// A sharded checkpoint large enough to still be consolidating a second after its consolidation started (its first
// progress line): neuronx-distributed's layout, tp 2, widths x64, written by tests/fixtures/make_sharded_fixtures.py.
inline bool writeLargeCheckpoint(const QString &dir)
{
    QProcess gen;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("FIXTURE_SCALE"), QStringLiteral("64"));
    env.insert(QStringLiteral("FIXTURE_NO_FULL"), QStringLiteral("1"));
    gen.setProcessEnvironment(env);
    gen.setProcessChannelMode(QProcess::MergedChannels);
    gen.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py"), dir,
                                                  QStringLiteral("nxd"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")});
    if (!gen.waitForFinished(300000) || gen.exitCode() != 0) {
        qWarning("%s", gen.readAll().constData());
        return false;
    }
    return true;
}

// The folder of an ingot-cli run on a host (ShellJobRunner::runIngotCli, below the host's jobs folder `jobsRoot`)
// once it started (its pid written) and, with `progressed`, printed its first progress line; "" before.
inline QString startedCliFolder(const QString &jobsRoot, bool progressed = false)
{
    for (const QString &d : QDir(jobsRoot).entryList({QStringLiteral(".ingot-cli-*")}, QDir::Dirs | QDir::Hidden)) {
        const QString dir = jobsRoot + QLatin1Char('/') + d;
        QFile out(dir + QStringLiteral("/out"));
        if (QFileInfo::exists(dir + QStringLiteral("/pid"))
            && (!progressed || (out.open(QIODevice::ReadOnly) && out.readAll().contains('['))))
            return dir;
    }
    return {};
}

// The TorchTitan stand-in (tests/support/torchtitan_standin) as a user runs TorchTitan: *Run a command* with
// `-m torchtitan.train --job.config_file CONFIG`, 2 ranks, on `python` (the suite's PyTorch 2,
// tests/support/torch2/python3, which gets the backend and the stand-in bound). "" and `error` when it does not start.
inline QString launchTorchTitanStandIn(JobManager &jobs, JobRunner &runner, const QString &python, const QString &standin,
                                       const QString &config, QString *error)
{
    JobSpec spec;
    spec.program = JobProgram::Module;
    spec.module = QStringLiteral("torchtitan.train");
    spec.passSettings = false;
    spec.extraArgs = {QStringLiteral("--job.config_file"), config};
    spec.python = python;
    spec.nprocPerNode = 2;
    const QString paths = runner.backendDir() + QLatin1Char(':') + standin;
    spec.env << qMakePair(QStringLiteral("PYTHONPATH"), paths) << qMakePair(QStringLiteral("INGOT_TORCH2_BIND"), paths);
    return launchSpec(jobs, spec, error);
}

}  // namespace ingot::test
