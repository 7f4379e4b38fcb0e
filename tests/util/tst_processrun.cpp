// runProcess with real programs (/bin/sh, printf, cat, head, sleep): exit codes and signals, arguments and the
// environment handed over byte for byte, each stream's limit (kept start, kept end, or the run ended), the time
// limit (SIGTERM, then SIGKILL after the grace), the stop flag, a program that does not exist, stdin written whole or
// refused without a SIGPIPE, a child left behind holding the pipes. Then its callers' limits: the local shell.
#include "services/util/names.h"
#include "services/util/processrun.h"
#include "services/util/remoteshell.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>
#include <thread>

using namespace ingot;

namespace {

ProcessRequest sh(const QString &script, const QStringList &args = {})
{
    ProcessRequest r;
    r.program = QStringLiteral("/bin/sh");
    r.arguments = QStringList{QStringLiteral("-c"), script, QStringLiteral("sh")} + args;
    return r;
}

}  // namespace

class TestProcessRun : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exitCodesAndSignals()
    {
        ProcessResult r = runProcess(sh(QStringLiteral("echo out; echo err >&2; exit 3")));
        QVERIFY(r.started && r.ranToEnd());
        QCOMPARE(r.exitCode, 3);
        QVERIFY(!r.crashed);
        QCOMPARE(r.out, QByteArray("out\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        QVERIFY(processProblem(sh({}), r).isEmpty());

        r = runProcess(sh(QStringLiteral("kill -SEGV $$")));
        QVERIFY(r.started && r.crashed);
        QCOMPARE(r.exitCode, -1);
        QVERIFY(processProblem(sh({}), r).contains(QStringLiteral("was killed")));
    }

    void argumentsAreHandedOverExactly()
    {
        // Spaces, quotes, a newline, shell words, an empty one, a leading dash, and bytes that are not UTF-8 (a name
        // kept by nameFromBytes): each arrives as it was, one argument each.
        const QList<QByteArray> want{"two words", "it's \"quoted\"", "a\nnewline", "$HOME `id` *", "", "-n",
                                     "\xff\xfe caf\xc3\xa9"};
        ProcessRequest r;
        r.program = QStringLiteral("printf");  // looked up on the PATH
        r.arguments << QStringLiteral("%s|");
        for (const QByteArray &a : want)
            r.arguments << nameFromBytes(a);
        const ProcessResult p = runProcess(r);
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.exitCode, 0);
        QCOMPARE(p.out, want.join('|') + '|');
    }

    void environmentAndFolder()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QByteArray folder = nameToBytes(dir.path()) + "/odd \xff name";
        QCOMPARE(::mkdir(folder.constData(), 0700), 0);
        ProcessRequest r = sh(QStringLiteral("printf '%s|%s|' \"$ONLY\" \"${HOME-unset}\"; pwd"));
        r.environment.insert(QStringLiteral("ONLY"), nameFromBytes("value \xfe"));
        r.workingDirectory = nameFromBytes(folder);
        const ProcessResult p = runProcess(r);
        ::rmdir(folder.constData());  // QTemporaryDir cannot name it
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.out, "value \xfe|unset|" + folder + '\n');  // only what was given, nothing of this process's

        // An empty environment is this process's.
        qputenv("INGOT_TST_PROCESSRUN", "inherited");
        QCOMPARE(runProcess(sh(QStringLiteral("printf %s \"$INGOT_TST_PROCESSRUN\""))).out, QByteArray("inherited"));
    }

    void outputPastTheLimitIsDroppedAndFlagged()
    {
        // The start kept, the rest read and dropped: the program runs to its end.
        ProcessRequest r = sh(QStringLiteral("head -c 3000000 /dev/zero; echo end >&2"));
        r.stdoutLimit = OutputLimit{1000, OutputLimit::Over::KeepStart};
        ProcessResult p = runProcess(r);
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.exitCode, 0);
        QCOMPARE(p.out, QByteArray(1000, '\0'));
        QVERIFY(p.outTruncated);
        QVERIFY(!p.errTruncated);
        QCOMPARE(p.err, QByteArray("end\n"));

        // The end kept (a log).
        r = sh(QStringLiteral("i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); echo $i; done"));
        r.stdoutLimit = OutputLimit{12, OutputLimit::Over::KeepEnd};
        p = runProcess(r);
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.out, QByteArray("\n19999\n20000\n").right(12));
        QVERIFY(p.outTruncated);

        // stderr has a limit of its own, and merged it counts as stdout.
        r = sh(QStringLiteral("head -c 100000 /dev/zero >&2; echo out"));
        r.stderrLimit = OutputLimit{10, OutputLimit::Over::KeepStart};
        p = runProcess(r);
        QCOMPARE(p.err.size(), 10);
        QVERIFY(p.errTruncated);
        QCOMPARE(p.out, QByteArray("out\n"));
        r.mergeStderr = true;
        r.stdoutLimit = OutputLimit{100004, OutputLimit::Over::KeepStart};
        p = runProcess(r);
        QCOMPARE(p.out, QByteArray(100000, '\0') + "out\n");
        QVERIFY(p.err.isEmpty() && !p.outTruncated);

        // Stop: an answer too big ends a program that would print for ever.
        ProcessRequest endless;
        endless.program = QStringLiteral("yes");
        endless.stdoutLimit = OutputLimit{1 << 20, OutputLimit::Over::Stop};
        endless.timeoutMs = 60000;
        p = runProcess(endless);
        QVERIFY(p.tooMuchOutput && p.outTruncated && !p.timedOut);
        QCOMPARE(p.out.size(), 1 << 20);
        QVERIFY(p.out.startsWith("y\ny\n"));
        QVERIFY(!p.ranToEnd());
        QVERIFY2(processProblem(endless, p).contains(QStringLiteral("more than 1048576 bytes")),
                 qPrintable(processProblem(endless, p)));
    }

    void theTimeLimitEndsIt()
    {
        ProcessRequest r;
        r.program = QStringLiteral("sleep");
        r.arguments << QStringLiteral("60");
        r.timeoutMs = 200;
        QElapsedTimer t;
        t.start();
        ProcessResult p = runProcess(r);
        QVERIFY(p.started && p.timedOut && p.crashed && !p.ranToEnd());
        QVERIFY2(t.elapsed() < 30000, qPrintable(QString::number(t.elapsed())));
        QVERIFY2(processProblem(r, p).contains(QStringLiteral("sleep did not end within 1 s")),
                 qPrintable(processProblem(r, p)));

        // One that ignores SIGTERM gets SIGKILL once the grace has passed, not before.
        r = sh(QStringLiteral("trap '' TERM; echo ready; exec sleep 60"));
        r.timeoutMs = 200;
        r.graceMs = 700;
        t.restart();
        p = runProcess(r);
        QVERIFY(p.timedOut && p.crashed);
        QCOMPARE(p.out, QByteArray("ready\n"));
        QVERIFY2(t.elapsed() >= 900 && t.elapsed() < 30000, qPrintable(QString::number(t.elapsed())));
    }

    void theStopFlagEndsIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString marker = dir.filePath(QStringLiteral("started"));
        ProcessRequest r = sh(QStringLiteral(": > \"$1\"; exec sleep 60"), {marker});
        r.timeoutMs = 120000;
        std::atomic_bool stop{false};
        r.stop = &stop;
        ProcessResult p;
        std::atomic_bool done{false};
        std::thread worker([&] {
            p = runProcess(r);
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 30000);
        QVERIFY(!done);
        stop = true;
        QTRY_VERIFY_WITH_TIMEOUT(done.load(), 30000);
        worker.join();
        QVERIFY(p.stopped && !p.timedOut && p.crashed);
        QCOMPARE(processProblem(r, p), QStringLiteral("/bin/sh was stopped."));
    }

    void aProgramThatDoesNotExist()
    {
        ProcessRequest r;
        r.program = QStringLiteral("/nonexistent/ingot-no-such-program");
        ProcessResult p = runProcess(r);
        QVERIFY(!p.started && !p.ranToEnd());
        QVERIFY(!p.startError.isEmpty());
        QVERIFY2(processProblem(r, p).startsWith(QStringLiteral("Cannot run /nonexistent/ingot-no-such-program: ")),
                 qPrintable(processProblem(r, p)));
        r.program = QStringLiteral("ingot-no-such-program-on-the-path");
        QVERIFY(!runProcess(r).started);
        // A name with a control character is shown escaped.
        r.program = QStringLiteral("/nonexistent/\x1b[2Jclear");
        p = runProcess(r);
        QVERIFY(!processProblem(r, p).contains(QLatin1Char('\x1b')));
    }

    void stdinIsWrittenWholeOrRefusedQuietly()
    {
        QByteArray input;
        for (int i = 0; i < 300000; ++i)
            input += char('a' + i % 26);
        ProcessRequest r;
        r.program = QStringLiteral("cat");
        r.input = input;
        ProcessResult p = runProcess(r);
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.out, input);

        // A program that never reads it: no SIGPIPE here, its own status there.
        r = sh(QStringLiteral("exec 0<&-; exit 7"));
        r.input = QByteArray(4 << 20, 'x');
        p = runProcess(r);
        QVERIFY(p.ranToEnd());
        QCOMPARE(p.exitCode, 7);

        // No input: stdin is /dev/null, never this process's.
        QCOMPARE(runProcess(sh(QStringLiteral("wc -c"))).out.trimmed(), QByteArray("0"));

        // The program can open its stdin by name, as `aws s3api delete-objects --delete file:///dev/stdin` does (a
        // socket there cannot be opened: ENXIO).
        r = sh(QStringLiteral("cat /dev/stdin"));
        r.input = QByteArray("{\"Objects\": []}");
        p = runProcess(r);
        QVERIFY2(p.ranToEnd() && p.exitCode == 0, p.err.constData());
        QCOMPARE(p.out, r.input);
    }

    void aChildLeftBehindDoesNotHoldTheRun()
    {
        // The background sleep keeps stdout open; the run ends with the shell, and what it printed is all there.
        ProcessRequest r = sh(QStringLiteral("sleep 60 & echo $!; echo done"));
        r.timeoutMs = 60000;
        const ProcessResult p = runProcess(r);
        QVERIFY(p.ranToEnd() && !p.timedOut);
        const QList<QByteArray> lines = p.out.split('\n');
        QCOMPARE(lines.value(1), QByteArray("done"));
        const int pid = lines.value(0).toInt();
        QVERIFY(pid > 1);
        ::kill(pid, SIGKILL);
    }

    void theLocalShellKeepsItsLimits()
    {
        // stderr is words: its first 64 KiB, however much the script prints there, and however it comes (here in
        // pieces between lines of stdout).
        const auto shell = makeLocalShell();
        ShellResult r = shell->run("i=0; while [ $i -lt 40 ]; do head -c 30000 /dev/zero >&2; echo x; i=$((i + 1)); done\n"
                                   "printf '%b' \"$1\"",
                                   {QByteArray("ok \xff")}, {}, 1 << 20, 60000);
        QVERIFY2(r.ran(), qPrintable(r.error));
        QCOMPARE(r.out, QByteArray("x\n").repeated(40) + "ok \xff");
        QCOMPARE(r.err.size(), qsizetype(1 << 16));
        QCOMPARE(r.err, QByteArray(1 << 16, '\0'));

        // stdout past maxOut is an error, and so is the time limit.
        r = shell->run("head -c 5000 /dev/zero", {}, {}, 4096, 60000);
        QVERIFY(!r.ran());
        QCOMPARE(r.error, QStringLiteral("more than 4096 bytes of output"));
        r = shell->run("sleep 60", {}, {}, 4096, 1000);
        QCOMPARE(r.error, QStringLiteral("no answer within 1 s"));
        r = shell->run("cat; exit 4", {}, "input", 4096, 60000);
        QVERIFY(r.ran());
        QCOMPARE(r.exitCode, 4);
        QCOMPARE(r.out, QByteArray("input"));
    }
};

QTEST_GUILESS_MAIN(TestProcessRun)
#include "tst_processrun.moc"
