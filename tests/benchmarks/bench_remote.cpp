// bench_remote ROOT [RUNS]: a host's compile cache listed over SSH, against a real sshd on 127.0.0.1 started here.
// Times, in the same run and through the same master connection, median of RUNS (default 3):
//   find:  `ssh HOST 'cd ROOT && find . -printf …'` alone, with paths (%P: the baseline of issue 26), and with the
//          listing's own records (depth and name: the same information in fewer bytes)
//   ingot: the SSH store + CacheScanner (one round trip, parsed, classified into modules)
//   sftp:  a per-folder SFTP walk (`sftp -b`: one `ls -la` per folder, what a naive client does)
// and prints each with its ratio to find. Figures only, never asserted.
#include "services/cache/cachescanner.h"
#include "services/remote/sshshell.h"
#include "services/stores/shellcachestore.h"
#include "tests/support/testsshd.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace ingot;

namespace {

qint64 median(QVector<qint64> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? -1 : v.at(v.size() / 2);
}

}  // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        std::fprintf(stderr, "usage: bench_remote ROOT [RUNS]\n");
        return 2;
    }
    const QString root = QDir(args.at(1)).absolutePath();
    const int runs = args.size() > 2 ? args.at(2).toInt() : 3;
    test::TestSshd sshd(QStringLiteral("ingot-bench"));
    QString error;
    if (!sshd.start(&error) || !sshd.trustHostKey()) {
        std::fprintf(stderr, "sshd: %s\n", qPrintable(error));
        return 1;
    }
    SshClientConfig client;
    client.configFile = sshd.sshConfigFile();
    SshHost host;
    parseSshHost(sshd.alias(), &host, &error);
    auto conn = std::make_shared<SshConnection>(host, client, 120);
    if (!conn->connect()) {
        std::fprintf(stderr, "connect: %s\n", qPrintable(conn->errorText()));
        return 1;
    }
    auto shell = std::make_shared<SshShell>(conn);

    // The per-folder walk's batch: every folder of the tree, listed one request each.
    QTemporaryDir tmp;
    const QString batch = tmp.path() + QStringLiteral("/walk.sftp");
    int folders = 0;
    {
        QFile b(batch);
        b.open(QIODevice::WriteOnly);
        b.write("ls -la \"" + QFile::encodeName(root) + "\"\n");
        QDirIterator it(root, QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            b.write("ls -la \"" + QFile::encodeName(it.next()) + "\"\n");
            ++folders;
        }
    }

    QVector<qint64> findMs, ownMs, ingotMs, sftpMs;
    qint64 bytes = 0, ownBytes = 0;
    const QString ownCmd = QStringLiteral("cd '%1' && find . -printf 'F\\0%y\\0%d\\0%f\\0%s\\0%b\\0%T@\\0%A@\\0%C@\\0'").arg(root);
    int modules = 0;
    const QString findCmd = QStringLiteral("cd '%1' && find . -printf 'F\\0%y\\0%P\\0%s\\0%b\\0%T@\\0%A@\\0%C@\\0'").arg(root);
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const SshResult f = conn->run(findCmd, {}, 600000, qint64(1) << 31);
        findMs << t.elapsed();
        bytes = f.out.size();
        if (!f.succeeded()) {
            std::fprintf(stderr, "find: %s\n", qPrintable(f.errorText));
            return 1;
        }

        t.restart();
        const SshResult o = conn->run(ownCmd, {}, 600000, qint64(1) << 31);
        ownMs << t.elapsed();
        ownBytes = o.out.size();

        t.restart();
        ShellCacheStore store(shell, sshd.alias(), root);
        CacheScanner scanner(store);
        const CacheSnapshot snap = scanner.scan(nullptr);
        ingotMs << t.elapsed();
        modules = snap.modules.size();
        if (!snap.fatalError.isEmpty()) {
            std::fprintf(stderr, "ingot: %s\n", qPrintable(snap.fatalError));
            return 1;
        }

        if ((i == 0 && !qEnvironmentVariableIsSet("BENCH_NO_SFTP")) || qEnvironmentVariableIsSet("BENCH_SFTP_EVERY_RUN")) {
            QProcess sftp;
            sftp.setStandardOutputFile(QProcess::nullDevice());
            sftp.setStandardErrorFile(QProcess::nullDevice());
            t.restart();
            sftp.start(QStringLiteral("sftp"), {QStringLiteral("-F"), client.configFile, QStringLiteral("-o"),
                                                QStringLiteral("ControlPath=") + conn->controlPath(), QStringLiteral("-o"),
                                                QStringLiteral("ControlMaster=no"), QStringLiteral("-b"), batch, sshd.alias()});
            sftp.waitForFinished(-1);
            sftpMs << t.elapsed();
            if (sftp.exitCode() != 0) {
                std::fprintf(stderr, "sftp walk failed (exit %d)\n", sftp.exitCode());
                return 1;
            }
        }
    }
    conn->close();
    const qint64 f = median(findMs), fo = median(ownMs), g = median(ingotMs), s = median(sftpMs);
    std::printf("modules %d, folders %d, find's records with paths %.1f MB, with depth and name %.1f MB, median of %d\n",
                modules, folders + 1, bytes / 1e6, ownBytes / 1e6, runs);
    std::printf("find over ssh, paths (%%P)      %6lld ms\n", f);
    std::printf("find over ssh, depth and name  %6lld ms\n", fo);
    std::printf("ingot ssh store %6lld ms  = %.2fx find with paths (goal <= 1.3x), %.2fx find with depth and name\n", g,
                double(g) / f, double(g) / fo);
    std::printf("sftp per folder %6lld ms  = %.2fx find (on loopback: each folder costs one more round trip on a real network)\n",
                s, double(s) / f);
    return 0;
}
