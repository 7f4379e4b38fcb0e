// bench_remote ROOT [RUNS]: a host's compile cache listed over SSH, against a real sshd on 127.0.0.1 started here.
// Times, in the same run and through the same master connection, median of RUNS (default 3):
//   find:  `ssh HOST 'cd ROOT && find . -printf …'` alone (the listing's own find: the round-trip limit)
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

    QVector<qint64> findMs, ingotMs, sftpMs;
    qint64 bytes = 0;
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
        ShellCacheStore store(shell, sshd.alias(), root);
        CacheScanner scanner(store);
        const CacheSnapshot snap = scanner.scan(nullptr);
        ingotMs << t.elapsed();
        modules = snap.modules.size();
        if (!snap.fatalError.isEmpty()) {
            std::fprintf(stderr, "ingot: %s\n", qPrintable(snap.fatalError));
            return 1;
        }

        if (i == 0 || qEnvironmentVariableIsSet("BENCH_SFTP_EVERY_RUN")) {
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
    const qint64 f = median(findMs), g = median(ingotMs), s = median(sftpMs);
    std::printf("modules %d, folders %d, listing %.1f MB\n", modules, folders + 1, bytes / 1e6);
    std::printf("find over ssh   %6lld ms\n", f);
    std::printf("ingot ssh store %6lld ms  = %.2fx find (goal <= 1.5x)\n", g, double(g) / f);
    std::printf("sftp per folder %6lld ms  = %.2fx find (on loopback: each folder costs one more round trip on a real network)\n",
                s, double(s) / f);
    return 0;
}
