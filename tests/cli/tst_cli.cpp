// ingot-cli as users run it: a real process, real caches, exit codes, stdout/stderr, JSON.
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <limits>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;

namespace {
struct Run {
    int code = -1;
    QString out, err;
    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

Run cli(const QStringList &args, const QStringList &env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("NEURON_CC_FLAGS"));
    e.remove(QStringLiteral("NEURON_COMPILE_CACHE_URL"));
    for (const QString &kv : env)
        e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(e);
    p.setStandardInputFile(QProcess::nullDevice());  // not a terminal, as in CI and scripts
    p.start(QStringLiteral(INGOT_CLI_PATH), args);
    p.waitForFinished(60000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

int countFiles(const QString &root)
{
    int n = 0;
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++n;
    }
    return n;
}
}  // namespace

class TestCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void usageAndErrors()
    {
        Run r = cli({});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("Usage: ingot-cli")));
        r = cli({QStringLiteral("cache"), QStringLiteral("frobnicate")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("unknown command")));
        QVERIFY(r.out.isEmpty());
        r = cli({QStringLiteral("--version")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("ingot-cli ")));
        r = cli({QStringLiteral("cache"), QStringLiteral("prune"), QStringLiteral("--max-size"), QStringLiteral("huge"), QStringLiteral("--cache-dir"), QStringLiteral("/tmp")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("--max-size")));
    }

    void missingCacheAndS3()
    {
        Run r = cli({QStringLiteral("cache"), QStringLiteral("status")}, {QStringLiteral("NEURON_CC_FLAGS=--cache_dir=/nonexistent/cache")});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains(QStringLiteral("/nonexistent/cache does not exist")));
        QVERIFY(r.err.contains(QStringLiteral("NEURON_CC_FLAGS")));
        // An S3 location is read as one (tests/s3 has the rest); with no AWS keys anywhere, words and exit 3.
        r = cli({QStringLiteral("cache"), QStringLiteral("list")},
                {QStringLiteral("NEURON_COMPILE_CACHE_URL=s3://bucket/prefix"), QStringLiteral("AWS_ACCESS_KEY_ID="),
                 QStringLiteral("AWS_SECRET_ACCESS_KEY="), QStringLiteral("AWS_PROFILE="), QStringLiteral("AWS_DEFAULT_PROFILE="),
                 QStringLiteral("AWS_CONFIG_FILE=/nonexistent/config"), QStringLiteral("AWS_SHARED_CREDENTIALS_FILE=/nonexistent/credentials"),
                 QStringLiteral("AWS_EC2_METADATA_DISABLED=true")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("No AWS keys")) && r.err.contains(QStringLiteral("s3://bucket/prefix")), qPrintable(r.err));
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--cache-dir"), QStringLiteral("s3://Bad_Bucket/x")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("not a bucket name")), qPrintable(r.err));
    }

    void listAndStatus()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        Run r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        const QJsonArray entries = r.json().value(QStringLiteral("entries")).toArray();
        int modules = 0, failed = 0;
        for (const auto &e : entries) {
            const QJsonObject o = e.toObject();
            if (o.value(QStringLiteral("kind")).toString().contains(QStringLiteral("module")))
                ++modules;
            if (o.value(QStringLiteral("state")).toString() == QLatin1String("FAILED"))
                ++failed;
            QVERIFY(o.contains(QStringLiteral("size")) && o.contains(QStringLiteral("last_used")));
        }
        QCOMPARE(modules, 84);  // 80 + 4 odd ones the sample always writes
        QVERIFY(failed > 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--state"), QStringLiteral("failed"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QVERIFY(lines.first().startsWith(QStringLiteral("STATE")));
        QCOMPARE(lines.size() - 1, failed);
        for (const QString &l : lines.mid(1))
            QVERIFY(l.startsWith(QStringLiteral("FAILED")));
        // status through the environment, as a user on a trn host would
        r = cli({QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--json")},
                {QStringLiteral("NEURON_CC_FLAGS=-O1 --cache_dir=") + root});
        QCOMPARE(r.code, 0);
        const QJsonObject st = r.json();
        QCOMPARE(st.value(QStringLiteral("location")).toObject().value(QStringLiteral("rule")).toString(), QStringLiteral("NEURON_CC_FLAGS --cache_dir"));
        QCOMPARE(st.value(QStringLiteral("entries")).toInt(), 84);
        QCOMPARE(st.value(QStringLiteral("states")).toObject().value(QStringLiteral("FAILED")).toObject().value(QStringLiteral("entries")).toInt(), failed);
        QVERIFY(st.value(QStringLiteral("warnings")).toArray().size() > 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--cache-dir"), root});
        QVERIFY(r.out.contains(QStringLiteral("COMPILER")));
        QVERIFY(r.out.contains(QStringLiteral("neuronxcc-2.15.128.0+56dc5a86")));
    }

    void destructiveCommandsPreviewAndNeedConsent()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        const int before = countFiles(root);
        Run r = cli({QStringLiteral("cache"), QStringLiteral("prune"), QStringLiteral("--dry-run"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("Dry run")));
        QCOMPARE(countFiles(root), before);
        // No terminal and no --yes: refused, nothing removed.
        r = cli({QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 4);
        QVERIFY(r.err.contains(QStringLiteral("--yes")));
        QCOMPARE(countFiles(root), before);
        r = cli({QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        const QJsonObject res = r.json().value(QStringLiteral("result")).toObject();
        QVERIFY(res.value(QStringLiteral("done")).toInt() > 0);
        QCOMPARE(res.value(QStringLiteral("failed")).toInt(), 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--state"), QStringLiteral("FAILED"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.json().value(QStringLiteral("entries")).toArray().size(), 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--yes"), QStringLiteral("--cache-dir"), root, QStringLiteral("neuronxcc-9/MODULE_nope")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("no entry")));
    }

    void pruneRemovesExpiredEntries()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        Run r = cli({QStringLiteral("cache"), QStringLiteral("prune"), QStringLiteral("--ttl-days"), QStringLiteral("60"), QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        const int planned = r.json().value(QStringLiteral("items")).toArray().size();
        QVERIFY(planned > 0);
        QCOMPARE(r.json().value(QStringLiteral("result")).toObject().value(QStringLiteral("done")).toInt(), planned);
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--cache-dir"), root});
        const qint64 cutoff = QDateTime::currentMSecsSinceEpoch() - 61LL * 86400000;
        for (const auto &e : r.json().value(QStringLiteral("entries")).toArray()) {
            const QJsonObject o = e.toObject();
            if (!o.value(QStringLiteral("kind")).toString().contains(QStringLiteral("module")) || o.value(QStringLiteral("state")).toString() == QLatin1String("LOCKED"))
                continue;
            QVERIFY2(QDateTime::fromString(o.value(QStringLiteral("last_used")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch() > cutoff,
                     qPrintable(o.value(QStringLiteral("key")).toString()));
        }
    }

    // Issue 39: cache list --filter/--sort/--format csv, and cache rm --filter removing exactly what list selects
    // (locked entries kept), previewed and refused without --yes like every removal.
    void filterListAndRemove()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        const QStringList dir{QStringLiteral("--cache-dir"), root};
        Run all = cli(QStringList{QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json")} + dir);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QStringList expected, locked;
        for (const auto &e : all.json().value(QStringLiteral("entries")).toArray()) {
            const QJsonObject o = e.toObject();
            const qint64 used = QDateTime::fromString(o.value(QStringLiteral("last_used")).toString(), Qt::ISODateWithMs).toMSecsSinceEpoch();
            if (o.value(QStringLiteral("kind")).toString().contains(QStringLiteral("module")) && o.value(QStringLiteral("size")).toInteger() > 100'000'000
                && now - used > 30LL * 86'400'000)
                (o.value(QStringLiteral("state")).toString() == QLatin1String("LOCKED") ? locked : expected) << o.value(QStringLiteral("key")).toString();
        }
        QVERIFY(expected.size() >= 3);
        Run r = cli(QStringList{QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--filter"), QStringLiteral("size>100MB"),
                                QStringLiteral("--filter"), QStringLiteral("used>30d"), QStringLiteral("--sort"), QStringLiteral("size"),
                                QStringLiteral("--format"), QStringLiteral("csv")} + dir);
        QCOMPARE(r.code, 0);
        QStringList lines = r.out.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QStringLiteral("key,compiler,name,state,size,last_used,file_count"));
        lines.removeFirst();
        QCOMPARE(lines.size(), expected.size() + locked.size());
        QStringList listed;
        qint64 previous = std::numeric_limits<qint64>::max();
        for (const QString &l : lines) {
            const QStringList f = l.split(QLatin1Char(','));
            listed << f.at(0);
            QVERIFY(f.at(4).toLongLong() <= previous);  // largest first
            previous = f.at(4).toLongLong();
        }
        QStringList want = expected + locked;
        want.sort();
        listed.sort();
        QCOMPARE(listed, want);
        // A bad expression: refused with words, exit 2.
        r = cli(QStringList{QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--filter"), QStringLiteral("age>3d")} + dir);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is not a filter")), qPrintable(r.err));
        // rm: no filter refused; no --yes refused; then exactly what list selected, locked ones kept.
        r = cli(QStringList{QStringLiteral("cache"), QStringLiteral("rm")} + dir);
        QCOMPARE(r.code, 2);
        const int before = countFiles(root);
        r = cli(QStringList{QStringLiteral("cache"), QStringLiteral("rm"), QStringLiteral("--filter"), QStringLiteral("size>100MB"),
                            QStringLiteral("--filter"), QStringLiteral("used>30d")} + dir);
        QCOMPARE(r.code, 4);
        QCOMPARE(countFiles(root), before);
        r = cli(QStringList{QStringLiteral("cache"), QStringLiteral("rm"), QStringLiteral("--filter"), QStringLiteral("size>100MB"),
                            QStringLiteral("--filter"), QStringLiteral("used>30d"), QStringLiteral("--yes"), QStringLiteral("--json")} + dir);
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().value(QStringLiteral("result")).toObject().value(QStringLiteral("done")).toInt(), expected.size());
        QCOMPARE(r.json().value(QStringLiteral("kept")).toArray().size(), locked.size());
        for (const QString &k : expected)
            QVERIFY2(!QFileInfo::exists(root + QLatin1Char('/') + k), qPrintable(k));
        for (const QString &k : locked)
            QVERIFY2(QFileInfo::exists(root + QLatin1Char('/') + k), qPrintable(k));
    }

    // Issue 39: a named policy saved (cache policy set), listed, applied (cache gc --policy: previewed, consent, only
    // what the preview listed), refused with words when it does not exist.
    void policiesSavedAndApplied()
    {
        QTemporaryDir tmp, config;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        const QStringList env{QStringLiteral("XDG_CONFIG_HOME=") + config.path()};
        Run r = cli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("team"),
                     QStringLiteral("--unused-days"), QStringLiteral("60"), QStringLiteral("--failed"), QStringLiteral("--json")}, env);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("unused_days")).toInt(), 60);
        r = cli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("set"), QStringLiteral("bad name")}, env);
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("list")}, env);
        QVERIFY2(r.out.startsWith(QStringLiteral("team  ")), qPrintable(r.out));
        const QStringList gc{QStringLiteral("cache"), QStringLiteral("gc"), QStringLiteral("--policy"), QStringLiteral("team"),
                             QStringLiteral("--cache-dir"), root, QStringLiteral("--json")};
        const int before = countFiles(root);
        r = cli(gc + QStringList{QStringLiteral("--dry-run")}, env);
        QCOMPARE(r.code, 0);
        QStringList planned;
        for (const QJsonValue &i : r.json().value(QStringLiteral("items")).toArray())
            planned << i[QStringLiteral("key")].toString();
        QVERIFY(planned.size() >= 3);
        QCOMPARE(countFiles(root), before);
        r = cli(gc, env);  // no terminal, no --yes
        QCOMPARE(r.code, 4);
        QCOMPARE(countFiles(root), before);
        r = cli(gc + QStringList{QStringLiteral("--yes")}, env);
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().value(QStringLiteral("result")).toObject().value(QStringLiteral("done")).toInt(), planned.size());
        for (const QString &k : planned)
            QVERIFY2(!QFileInfo::exists(root + QLatin1Char('/') + k), qPrintable(k));
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--filter"), QStringLiteral("state=failed"),
                 QStringLiteral("--cache-dir"), root, QStringLiteral("--format"), QStringLiteral("csv")}, env);
        QCOMPARE(r.out.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts).size(), 1);  // the header only
        r = cli({QStringLiteral("cache"), QStringLiteral("gc"), QStringLiteral("--policy"), QStringLiteral("nope"), QStringLiteral("--cache-dir"), root}, env);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("no policy nope")));
        r = cli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("rm"), QStringLiteral("team")}, env);
        QCOMPARE(r.code, 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("policy"), QStringLiteral("list"), QStringLiteral("--json")}, env);
        QCOMPARE(r.json().value(QStringLiteral("policies")).toArray().size(), 0);
    }

    // Names from disk never reach the terminal as control sequences, never split a table row, and a name that is
    // not UTF-8 can still be named (as shown) and removed.
    void hostileNamesAreEscaped()
    {
        QTemporaryDir tmp;
        const QByteArray v = QFile::encodeName(tmp.path()) + "/neuronxcc-2.15.128.0+56dc5a86";
        QVERIFY(QDir().mkpath(QFile::decodeName(v)));
        const QList<QByteArray> names{"MODULE_\x1b]0;owned\x07+aa", "MODULE_a\nb+aa", "MODULE_\x1b[2J+aa", "MODULE_x\xff"};
        for (const QByteArray &n : names) {
            QVERIFY(::mkdir(QByteArray(v + '/' + n).constData(), 0755) == 0);
            const QByteArray log = v + '/' + n + "/model.log";
            const int fd = ::open(log.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        const QStringList dir{QStringLiteral("--cache-dir"), tmp.path()};
        for (const QStringList &args : {QStringList{QStringLiteral("cache"), QStringLiteral("list")},
                                        QStringList{QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--dry-run")},
                                        QStringList{QStringLiteral("cache"), QStringLiteral("status")}}) {
            const Run r = cli(args + dir);
            QCOMPARE(r.code, 0);
            QVERIFY2(!r.out.contains(QChar(0x1b)) && !r.err.contains(QChar(0x1b)), qPrintable(args.join(QLatin1Char(' '))));
            QVERIFY(!r.out.contains(QChar(0x07)));
            QVERIFY(r.out.contains(QStringLiteral("MODULE_\\x1b]0;owned\\x07+aa")));
            QVERIFY(r.out.contains(QStringLiteral("MODULE_x\\xff")));
        }
        const Run list = cli(QStringList{QStringLiteral("cache"), QStringLiteral("list")} + dir);
        QCOMPARE(list.out.trimmed().split(QLatin1Char('\n')).size(), 1 + names.size());  // a header and one row each
        const Run js = cli(QStringList{QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json")} + dir);
        QCOMPARE(js.json().value(QStringLiteral("entries")).toArray().size(), names.size());
        // The entry that is not UTF-8, named as it is shown, goes; the others stay.
        const Run rm = cli(QStringList{QStringLiteral("cache"), QStringLiteral("clean-failed"), QStringLiteral("--yes"),
                                       QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_x\\xff")} + dir);
        QCOMPARE(rm.code, 0);
        struct stat st {};
        QVERIFY(::stat(QByteArray(v + "/MODULE_x\xff").constData(), &st) != 0);
        QVERIFY(::stat(QByteArray(v + "/MODULE_a\nb+aa").constData(), &st) == 0);
    }

    void clearLocksRefusedWhileCompiling()
    {
        QTemporaryDir tmp;
        const QString root = test::makeSampleCache(tmp, 80, 4);
        {
            test::FakeCompilerProcess compiler(tmp);
            const Run r = cli({QStringLiteral("cache"), QStringLiteral("clear-locks"), QStringLiteral("--yes"), QStringLiteral("--cache-dir"), root});
            QCOMPARE(r.code, 4);
            QVERIFY(r.err.contains(QStringLiteral("neuronx-cc is running")));
        }
        Run r = cli({QStringLiteral("cache"), QStringLiteral("clear-locks"), QStringLiteral("--yes"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.code, 0);
        r = cli({QStringLiteral("cache"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("--state"), QStringLiteral("LOCKED"), QStringLiteral("--cache-dir"), root});
        QCOMPARE(r.json().value(QStringLiteral("entries")).toArray().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
