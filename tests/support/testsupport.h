// Shared helpers for Ingot's tests: real folders on disk, sample caches, and running as an unprivileged user.
#pragma once

#include "services/cache/cachetypes.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QModelIndex>
#include <QVector>

#include <functional>

namespace ingot {
class CacheStore;
}

namespace ingot::test {

// A Neuron SDK environment for tests, with stand-ins for what cannot run here (tests/support/standins: they print
// the documented formats; each says so in its header): `<dir>/neuron-venv/bin` holding `python3` (this machine's)
// and the stand-ins. Returns the bin folder.
QString neuronStandIns(const QString &dir);

// Writes a sample cache into <dir>/cache with a fixed clock; returns the root.
QString makeSampleCache(const QTemporaryDir &dir, int modules = 48, quint64 seed = 42, qint64 nowMs = 0);

// A module folder with the given files (name -> apparent size) and mtime/atime `ageDays` ago.
void makeModule(const QString &root, const QString &version, const QString &name, const QStringList &files,
                double ageDays = 0, qint64 neffBytes = 1000);
void setAge(const QString &path, double ageDays);
void writeFile(const QString &path, const QByteArray &content);
// A file's bytes; empty when it cannot be read.
QByteArray readFile(const QString &path);

// `n` deterministic pseudo-random bytes (the same for the same seed): file contents no compressor or dedup helps.
QByteArray randomBytes(qint64 n, quint32 seed);

// A program run to its end with no terminal on stdin (nothing may be asked), in this process's environment.
struct ProgramRun {
    int code = -1;  // -1: it crashed or did not end in time
    QByteArray out;
    QByteArray err;
};
ProgramRun runProgram(const QString &program, const QStringList &args, int timeoutMs = 180000);
// The same with `env` as the program's environment (stdin /dev/null: no terminal, so nothing can prompt).
ProgramRun runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 180000);

// Reads every folder below `root` once (not following links), so that the first read's atime update (relatime)
// has happened before two listings are compared.
void readEveryFolder(const QString &root);
// Removes a tree whatever its names (QTemporaryDir cannot remove a name that is not UTF-8); never follows links.
void removeTree(const QString &root);
// Every folder of `expected` below `rel`, compared (QCOMPARE) with `actual`'s answer for it: the entries with all
// their metadata and each folder's own. Adds the folders compared to *folders.
void compareStores(CacheStore &expected, CacheStore &actual, const QString &rel, int *folders);

// True when the test runs as root: permission tests then re-run themselves as an unprivileged user.
bool isRoot();
// Runs this test executable's function `testFunction` as user "nobody" (setpriv); returns its exit code.
// The child sees INGOT_TEST_UNPRIVILEGED=1 and the given extra environment.
int runSelfAsNobody(const QString &testFunction, const QStringList &env, QString *output);
bool isUnprivilegedChild();
// Runs the current test function again as "nobody" in a world-writable temporary folder (INGOT_TEST_DIR) and
// reports its verdict here: skipped when the user cannot be switched.
void rerunUnprivileged(const char *testFunction);

}  // namespace ingot::test

// Root reads and deletes everything: permission tests call this first, and run for real as "nobody".
#define INGOT_RUN_UNPRIVILEGED()                                                  \
    do {                                                                          \
        if (ingot::test::isRoot() && !ingot::test::isUnprivilegedChild()) {      \
            ingot::test::rerunUnprivileged(QTest::currentTestFunction());         \
            return;                                                               \
        }                                                                         \
    } while (0)

namespace ingot::test {

// A peak-memory bound of a test, in KiB: as given, or 512 MiB more under AddressSanitizer, which keeps freed
// memory in quarantine (256 MiB) and a shadow of what is used. The plain build is the one that checks the bound.
constexpr qint64 memoryBoundKb(qint64 kb)
{
#if defined(__SANITIZE_ADDRESS__)
    return kb + 512 * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return kb + 512 * 1024;
#else
    return kb;
#endif
#else
    return kb;
#endif
}

// Ports on 127.0.0.1 that no one listens on now, all different (each held until all are chosen); 0 where none
// could be had. For the test servers (sshd, Slurm's daemons).
QVector<int> freeLoopbackPorts(int count);

// Delivers what is posted (layout requests, queued calls, zero-delay timers, deferred deletes) until nothing is left:
// a window is laid out before it is measured or grabbed, and what an object scheduled "at once" has happened, without
// a fixed wait.
void deliverPostedEvents();

// The first row under a top-level row of `model` whose `role` holds `value` (a tree of groups and entries: the first
// FAILED entry, say); invalid when there is none.
QModelIndex firstChildWith(const QAbstractItemModel *model, int role, int value);

// A file size limit for this process while it lives: writes past it fail (EFBIG) instead of raising SIGXFSZ.
// It stands in for a disk that fills up.
class FileSizeLimit
{
public:
    explicit FileSizeLimit(unsigned long long bytes);
    ~FileSizeLimit();

private:
    unsigned long long m_old = 0;
};

// A real process whose program name is neuronx-cc (a copy of sleep), for the "compiler running" checks.
class FakeCompilerProcess
{
public:
    explicit FakeCompilerProcess(const QTemporaryDir &dir);
    ~FakeCompilerProcess();
    qint64 pid() const { return m_pid; }

private:
    qint64 m_pid = -1;
};

// `work` run in a forked child whose address space may grow by limitMb at most (not under AddressSanitizer, whose
// shadow reserves terabytes of it: there the growth is what a test checks, with memoryBoundKb): how the child ended,
// what `work` returned, and how far its resident memory grew (VmHWM over its VmRSS when it began). For the memory
// bound of a parser on crafted input: going over ends the child (bad_alloc, abort), not the test.
struct LimitedRun {
    bool exited = false;  // normally, with code 0
    QString status;       // "exit N", "killed by signal N"
    QByteArray output;    // what `work` returned
    qint64 growthKb = -1;
};
LimitedRun runWithMemoryLimit(const std::function<QByteArray()> &work, qint64 limitMb);

}  // namespace ingot::test
