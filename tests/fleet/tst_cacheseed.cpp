// Bringing compiled graphs first (issue 39). The service's rules on caches on disk (what the job's cache has is never
// overwritten, a FAILED entry is never copied, a graph no place has is said), then the done-when with real backend
// runs (torchrun on CPU, the stand-in compiler wrapper of tests/support/compile_standin, as tst_runcompare runs them):
// run 1 compiles its graphs into cache A, which becomes the team's S3 cache (the test S3 server, seeded from A); run 2
// with the same settings on an empty cache B, launched by `ingot-cli job launch --seed-cache s3://…`, compiles
// nothing: `job graphs` says every graph is a hit, the stand-in logged each as the wrapper logs a cached NEFF, and
// `job status` says what was brought.
#include "services/cache/cachescanner.h"
#include "services/fleet/cacheseed.h"
#include "services/neuron/launchseed.h"
#include "services/stores/storefactory.h"
#include "services/s3/s3cachestore.h"

#include "tests/s3/pythonserver.h"
#include "tests/fleet/seedsupport.h"
#include "tests/support/comparesupport.h"
#include "tests/support/testhub.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
using Run = test::ProgramRun;

const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");


void writeEntry(const QString &root, const QString &key, bool finished, const QByteArray &neff = "neff")
{
    const QString d = root + QLatin1Char('/') + key;
    test::writeFile(d + QStringLiteral("/model.hlo_module.pb"), "hlo");
    test::writeFile(d + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]");
    if (finished) {
        test::writeFile(d + QStringLiteral("/model.neff"), neff);
        test::writeFile(d + QStringLiteral("/model.done"), "");
    } else {
        test::writeFile(d + QStringLiteral("/model.log"), "ERROR: compilation failed");
    }
}

ModuleState stateIn(const QString &root, const QString &key)
{
    const std::unique_ptr<CacheStore> store = makeStore(StoreLocation::local(root));
    if (!store || !store->open(nullptr))
        return ModuleState::Unknown;
    CacheScanner scanner(*store);
    bool vanished = false;
    QString error;
    const CacheModule m = scanner.scanModule(key.section(QLatin1Char('/'), 0, 0), key.section(QLatin1Char('/'), 1), &vanished, &error);
    return vanished ? ModuleState::Empty : m.state;
}

FleetPlace folderPlace(const QString &path)
{
    QString error;
    return *fleetPlaceFor(path, &error);
}

}  // namespace

class TestCacheSeed : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QByteArray m_launchErr;  // the last launch's notes and progress

    Run cli(const QStringList &args, const QString &cache) const
    {
        return test::runProgram(QStringLiteral(INGOT_CLI_PATH), args,
                                test::seedCliEnvironment(QProcessEnvironment::systemEnvironment(), m_dir.path(), cache), 240000);
    }

    // A tiny backend run through the CLI with the stand-in compiler wrapper, into `cache`; its id once it finished.
    QString runBackend(const QString &cache, const QStringList &seedFrom)
    {
        QStringList args{QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--env"),
                         QStringLiteral("PYTHONPATH=" INGOT_SOURCE_DIR "/tests/support/compile_standin"), QStringLiteral("--env"),
                         QStringLiteral("INGOT_STANDIN_HLO=") + m_dir.path() + QStringLiteral("/hlo")};
        for (const QString &p : seedFrom)
            args << QStringLiteral("--seed-cache") << p;
        args << QStringLiteral("--") << QStringLiteral("--max_steps") << QStringLiteral("2") << QStringLiteral("--block_size")
             << QStringLiteral("32");
        Run r = cli(args, cache);
        if (r.code != 0) {
            qWarning("job launch: %s", r.err.constData());
            return {};
        }
        const QString id = QString::fromUtf8(r.out).trimmed();
        m_launchErr = r.err;
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id, QStringLiteral("--timeout"), QStringLiteral("200")}, cache);
        if (r.code != 0) {
            qWarning("job wait: %s%s", r.out.constData(), r.err.constData());
            return {};
        }
        return id;
    }

    // `job graphs ID --json`'s counts by verdict.
    QJsonObject graphCounts(const QString &id, const QString &cache) const
    {
        const Run r = cli({QStringLiteral("job"), QStringLiteral("graphs"), id, QStringLiteral("--json")}, cache);
        return QJsonDocument::fromJson(r.out).object().value(QLatin1String("counts")).toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        s3::registerS3Store();
        test::writeStandInHlo(m_dir.path() + QStringLiteral("/hlo"));
    }

    // The rules, on caches on disk: the team folder has one finished graph the job needs, one FAILED, and one the
    // job's cache has already (FAILED there: left as it is, never overwritten); one graph is nowhere.
    void theServiceCopiesOnlyWhatIsMissingAndFinished()
    {
        const QString team = m_dir.path() + QStringLiteral("/rules/team"), job = m_dir.path() + QStringLiteral("/rules/job");
        const QString fresh = V + QStringLiteral("/MODULE_1+aaaa"), failed = V + QStringLiteral("/MODULE_2+bbbb"),
                      there = V + QStringLiteral("/MODULE_3+cccc"), nowhere = V + QStringLiteral("/MODULE_4+dddd");
        writeEntry(team, fresh, true, "neff-bytes-of-1");
        writeEntry(team, failed, false);
        writeEntry(team, there, true);
        writeEntry(job, there, false);
        SeedRequest req;
        req.keys = {fresh, failed, there, nowhere, fresh};
        req.places = {folderPlace(team)};
        req.into = StoreLocation::local(job);
        // A dry run only looks.
        req.dryRun = true;
        SeedResult r = seedCache(req, {}, nullptr);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.places.size(), 1);
        QCOMPARE(r.places[0].found, 1);
        QCOMPARE(stateIn(job, fresh), ModuleState::Empty);
        // The step.
        req.dryRun = false;
        QStringList progress;
        r = seedCache(req, [&](int copied, int toCopy, const QString &place) { progress << seedProgressText(copied, toCopy, place); }, nullptr);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.wanted, 4);
        QCOMPARE(r.copied, 1);
        QCOMPARE(r.blocked, 1);
        QCOMPARE(r.present, 0);
        QCOMPARE(r.notFound, 2);
        QCOMPARE(r.notFoundKeys, (QStringList{failed, nowhere}));
        QCOMPARE(r.places[0].copied, 1);
        QCOMPARE(progress, QStringList{QStringLiteral("Bringing compiled graphs: 1 of 1 copied from ") + QDir::cleanPath(team)});
        QCOMPARE(stateIn(job, fresh), ModuleState::Success);
        QCOMPARE(test::readFile(job + QLatin1Char('/') + fresh + QStringLiteral("/model.neff")), QByteArray("neff-bytes-of-1"));
        QCOMPARE(stateIn(job, there), ModuleState::Failed);  // not overwritten
        QVERIFY(!QFileInfo::exists(job + QLatin1Char('/') + there + QStringLiteral("/model.neff")));
        QCOMPARE(stateIn(job, failed), ModuleState::Empty);  // a failed compile never travels
        QVERIFY2(r.text().contains(QStringLiteral("1 copied")) && r.text().contains(QStringLiteral("2 not found")), qPrintable(r.text()));
        // Again: it is there now; nothing is copied twice. A bare module name finds the entry of that name.
        req.keys = {fresh.section(QLatin1Char('/'), 1)};
        r = seedCache(req, {}, nullptr);
        QCOMPARE(r.present, 1);
        QCOMPARE(r.copied, 0);
        // A place that is not there is said, and the next place is asked.
        req.keys = {V + QStringLiteral("/MODULE_5+eeee")};
        writeEntry(team, req.keys.first(), true);
        req.places = {folderPlace(m_dir.path() + QStringLiteral("/rules/missing")), folderPlace(team)};
        r = seedCache(req, {}, nullptr);
        QCOMPARE(r.copied, 1);
        QCOMPARE(r.places.size(), 2);
        QVERIFY(!r.places[0].error.isEmpty());
        QCOMPARE(r.places[1].copied, 1);
        // An entry with a link that leads out of the cache (a planted one) keeps the whole entry where it is: push's
        // link rule holds for a copy between two folders too, and nothing of it lands.
        const QString linked = V + QStringLiteral("/MODULE_6+ffff");
        writeEntry(team, linked, true);
        const QString secret = m_dir.path() + QStringLiteral("/rules/secret");
        test::writeFile(secret, "not a cache file");
        QVERIFY(QFile::link(secret, team + QLatin1Char('/') + linked + QStringLiteral("/extra.bin")));
        req.keys = {linked};
        req.places = {folderPlace(team)};
        r = seedCache(req, {}, nullptr);
        QCOMPARE(r.copied, 0);
        QCOMPARE(r.failed, 1);
        QVERIFY(!r.places[0].error.isEmpty());
        QCOMPARE(stateIn(job, linked), ModuleState::Empty);
        QVERIFY(QDir(job + QLatin1Char('/') + V).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).filter(QStringLiteral("MODULE_6")).isEmpty());
    }

    // A stop (the launcher's Stop, Ctrl-C) before or while the places are looked at copies nothing and says it
    // stopped, so a launch waiting on the step does not start.
    void aStopCopiesNothingAndSaysSo()
    {
        const QString team = m_dir.path() + QStringLiteral("/stop/team"), job = m_dir.path() + QStringLiteral("/stop/job");
        const QString key = V + QStringLiteral("/MODULE_7+abab");
        writeEntry(team, key, true);
        QDir().mkpath(job);
        SeedRequest req;
        req.keys = {key};
        req.places = {folderPlace(team)};
        req.into = StoreLocation::local(job);
        const std::atomic_bool stop{true};
        const SeedResult r = seedCache(req, {}, &stop);
        QVERIFY(r.stopped);
        QCOMPARE(r.copied, 0);
        QCOMPARE(stateIn(job, key), ModuleState::Empty);
        QVERIFY2(r.text().contains(QStringLiteral("stopped")), qPrintable(r.text()));
    }

    // JOB/seed.json as `job status` and the monitor read it: what keepSeedResult writes reads back as one line; a file
    // of another shape (truncated, the wrong type, huge, a link) says nothing.
    void theKeptResultReadsBackAndHostileOnesDoNot()
    {
        const QString jobsRoot = m_dir.path() + QStringLiteral("/kept");
        QVERIFY(QDir().mkpath(jobsRoot + QStringLiteral("/job")));
        const std::shared_ptr<JobRunner> runner = makeLocalJobRunner(jobsRoot);
        const JobPaths paths{jobsRoot + QStringLiteral("/job")};
        QVERIFY(seedStatusLine(*runner, paths).isEmpty());  // no step: nothing said
        SeedResult r;
        r.wanted = 3;
        r.present = 1;
        r.copied = 2;
        r.places = {{QStringLiteral("s3://team/cache"), 2, 2, QString()}};
        QString error;
        QVERIFY2(keepSeedResult(*runner, paths, r, &error), qPrintable(error));
        QCOMPARE(seedStatusLine(*runner, paths),
                 QStringLiteral("Compiled graphs brought first: ") + r.text());
        const QString file = paths.file("seed.json");
        for (const QByteArray &bad : QList<QByteArray>{QByteArray("{\"text\": \"trunc"), QByteArray("[\"text\"]"), QByteArray("{\"text\": 42}"),
                                                      QByteArray(QByteArray("{\"text\": \"") + QByteArray(5 << 20, 'x') + "\"}")}) {
            QFile::remove(file);
            test::writeFile(file, bad);
            QVERIFY2(seedStatusLine(*runner, paths).isEmpty(), bad.left(40).constData());
        }
        QFile::remove(file);
        const QString elsewhere = m_dir.path() + QStringLiteral("/kept/elsewhere.json");
        test::writeFile(elsewhere, "{\"text\": \"planted\"}");
        QVERIFY(QFile::link(elsewhere, file));
        QVERIFY(seedStatusLine(*runner, paths).isEmpty());
    }

    // The same step as a command of its own (what a node of an allocation can run): `cache seed`.
    void theSeedCommand()
    {
        const QString team = m_dir.path() + QStringLiteral("/cmd/team"), node = m_dir.path() + QStringLiteral("/cmd/node-cache");
        const QString key = V + QStringLiteral("/MODULE_9+aaaa");
        writeEntry(team, key, true, "neff of 9");
        QVERIFY(QDir().mkpath(m_dir.path() + QStringLiteral("/cmd")));
        Run r = cli({QStringLiteral("cache"), QStringLiteral("seed"), QStringLiteral("--cache-dir"), node, QStringLiteral("--from"), team,
                     QStringLiteral("--json"), key, V + QStringLiteral("/MODULE_10+aaaa")}, node);
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QLatin1String("copied")).toInt(), 1);
        QCOMPARE(o.value(QLatin1String("not_found")).toInt(), 1);
        QVERIFY2(r.err.contains("Bringing compiled graphs: 1 of 1 copied from"), r.err.constData());
        QCOMPARE(test::readFile(node + QLatin1Char('/') + key + QStringLiteral("/model.neff")), QByteArray("neff of 9"));
        // Again: there already; a place that is none is refused.
        r = cli({QStringLiteral("cache"), QStringLiteral("seed"), QStringLiteral("--cache-dir"), node, QStringLiteral("--from"), team, key}, node);
        QVERIFY2(r.code == 0 && r.out.contains("1 there already"), r.out.constData());
        r = cli({QStringLiteral("cache"), QStringLiteral("seed"), QStringLiteral("--cache-dir"), node, QStringLiteral("--from"),
                 QStringLiteral("ftp://x/y"), key}, node);
        QCOMPARE(r.code, 2);
    }

    // A Hub cache repo is a place too (the test Hub): what its listing names is pulled, whole, into the job's cache;
    // a graph it lacks is said.
    void aHubRepoIsAPlace()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error), qPrintable(error));
        const QString key = V + QStringLiteral("/MODULE_7+abcd"), missing = V + QStringLiteral("/MODULE_8+abcd");
        hub.makeRepo(QStringLiteral("neuronorg/team-cache"), false,
                     {{key + QStringLiteral("/model.neff"), "neff from the hub"}, {key + QStringLiteral("/model.done"), ""},
                      {key + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]"},
                      {key + QStringLiteral("/model.hlo_module.pb"), "hlo"}});
        qputenv("HF_ENDPOINT", hub.url().toUtf8());
        qunsetenv("HF_HUB_OFFLINE");
        qunsetenv("HF_TOKEN");
        const QString job = m_dir.path() + QStringLiteral("/hub-job");
        SeedRequest req;
        req.keys = {key, missing};
        QString why;
        const std::optional<FleetPlace> place = fleetPlaceFor(QStringLiteral("hub:neuronorg/team-cache"), &why);
        QVERIFY2(place, qPrintable(why));
        req.places = {*place};
        req.into = StoreLocation::local(job);
        const SeedResult r = seedCache(req, {}, nullptr);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.places.size(), 1);
        QVERIFY2(r.places[0].error.isEmpty(), qPrintable(r.places[0].error));
        QCOMPARE(r.copied, 1);
        QCOMPARE(r.notFoundKeys, QStringList{missing});
        QCOMPARE(stateIn(job, key), ModuleState::Success);
        QCOMPARE(test::readFile(job + QLatin1Char('/') + key + QStringLiteral("/model.neff")), QByteArray("neff from the hub"));
        qunsetenv("HF_ENDPOINT");
    }

    // The done-when, on this machine: the second run on an empty cache brings run 1's graphs from the team's S3 cache
    // and compiles nothing.
    void aSecondRunOnAnEmptyCacheHitsEveryGraph()
    {
        const QString a = m_dir.path() + QStringLiteral("/cache-a"), b = m_dir.path() + QStringLiteral("/cache-b");
        const QString first = runBackend(a, {});
        QVERIFY(!first.isEmpty());
        QCOMPARE(graphCounts(first, a).value(QLatin1String("new-graph")).toInt(), 2);  // it compiled both graphs
        // The team's S3 cache holds what run 1 compiled.
        test::PythonServer s3("tests/s3/tests3.py", {QStringLiteral("--access"), QStringLiteral("AKIDINGOT"), QStringLiteral("--secret"),
                                                   QStringLiteral("s3cr3t"), QStringLiteral("--bucket"), QStringLiteral("team-cache"),
                                                   QStringLiteral("--seed"), QStringLiteral("team-cache=") + a});
        qputenv("AWS_ENDPOINT_URL", s3.url().toUtf8());
        qputenv("AWS_EC2_METADATA_DISABLED", "true");
        qputenv("AWS_ACCESS_KEY_ID", "AKIDINGOT");
        qputenv("AWS_SECRET_ACCESS_KEY", "s3cr3t");
        qputenv("AWS_CONFIG_FILE", "/nonexistent");
        qputenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent");
        qputenv("AWS_REGION", "us-east-1");
        const QString second = runBackend(b, {QStringLiteral("s3://team-cache/")});
        QVERIFY(!second.isEmpty());
        const QJsonObject counts = graphCounts(second, b);
        QVERIFY2(counts.value(QLatin1String("hit")).toInt() == 2, m_launchErr.constData());
        QVERIFY2(m_launchErr.contains("Bringing compiled graphs: 2 of 2 copied from s3://team-cache/"), m_launchErr.constData());
        for (auto it = counts.begin(); it != counts.end(); ++it)
            QVERIFY2(it.key() == QLatin1String("hit") || it.value().toInt() == 0, qPrintable(it.key()));
        // The stand-in (as the wrapper) logged a cached NEFF for each graph and called no compiler.
        JobManager jobs(makeLocalJobRunner(m_dir.path() + QStringLiteral("/data/Ingot/ingot/jobs")));
        const QByteArray log = test::rankStdout(jobs.paths(second), 0);
        const QByteArray hit = QByteArray("Using a cached neff at ") + b.toUtf8();
        QCOMPARE(log.count(hit), 2);
        QVERIFY2(!log.contains("Call compiler"), log.constData());
        const Run status = cli({QStringLiteral("job"), QStringLiteral("status"), second}, b);
        QVERIFY2(status.out.contains("Compiled graphs brought first: 2 graph") && status.out.contains("2 copied (2 from s3://team-cache/)"),
                 status.out.constData());
        // A place that is none is refused before anything starts.
        const Run bad = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--seed-cache"), QStringLiteral("host:nosuchhost"),
                             QStringLiteral("--dry-run")}, b);
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("nosuchhost"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCacheSeed)
#include "tst_cacheseed.moc"
