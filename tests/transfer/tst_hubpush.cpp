// Push to the test Hub: what goes (only SUCCESS entries and the compiler's files), checked with the official
// @huggingface/hub client; a moved branch (412), a dropped upload and 5xx bursts end in complete commits; an
// interrupted push resumes without sending again; multipart LFS; no access and offline send nothing.
#include "services/hub/hubclient.h"
#include "services/transfer/hubpush.h"
#include "tests/support/testhub.h"
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <functional>
#include <mutex>

using namespace ingot;
using nlohmann::json;

namespace {
using test::randomBytes;
const QString V = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
const QString Repo = QStringLiteral("alice/cache");

QString sha256(const QByteArray &b)
{
    return QString::fromLatin1(QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex());
}

// Records what an engine reports; can raise the stop flag after the first entry is done.
class Recorder final : public TransferReporter
{
public:
    std::atomic_bool *stopAfterFirstDone = nullptr;
    std::mutex m;
    QStringList notes;
    int done = 0;
    void itemStarted(int, qint64) override {}
    void itemProgress(int, qint64) override {}
    void itemFinished(int, TransferItem::State s, const QString &) override
    {
        std::lock_guard lock(m);
        if (s == TransferItem::State::Done && ++done == 1 && stopAfterFirstDone)
            stopAfterFirstDone->store(true);
    }
    void note(const QString &t) override
    {
        std::lock_guard lock(m);
        notes << t;
    }
};
}  // namespace

class TestHubPush : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_root;
    QMap<QString, QByteArray> m_pushable;  // repo path -> bytes: exactly what must reach the Hub

    void file(const QString &rel, const QByteArray &bytes, bool pushable)
    {
        test::writeFile(m_root + QLatin1Char('/') + rel, bytes);
        if (pushable)
            m_pushable.insert(rel, bytes);
    }

    // A SUCCESS entry with a large (LFS) neff, regular small files and an unknown file.
    void success(const QString &name, quint32 seed, int neffBytes = 300 * 1000)
    {
        const QString k = V + QLatin1Char('/') + name + QLatin1Char('/');
        file(k + QStringLiteral("model.neff"), randomBytes(neffBytes, seed), true);
        file(k + QStringLiteral("model.done"), QByteArray(), true);
        file(k + QStringLiteral("compile_flags.json"), QByteArray("[\"--model-type=transformer\"]"), true);
        file(k + QStringLiteral("model.hlo_module.pb"), QByteArray("hlo ").repeated(500) + QByteArray::number(seed), true);
        file(k + QStringLiteral("notes.txt"), "not the compiler's", false);
    }

    struct Run {
        QVector<TransferItem> items;
        PushPlan plan;
        HubError planErr, pushErr;
    };
    Run push(const HubClient &hub, const QString &repo, const PushLimits &limits = PushLimits(),
             std::atomic_bool *stop = nullptr, Recorder *rec = nullptr)
    {
        Run r;
        r.plan = planPush(hub, repo, QStringLiteral("main"), m_root, {}, &r.planErr, nullptr, limits);
        if (!r.planErr.ok())
            return r;
        r.items = pushItems(r.plan);
        Recorder local;
        if (rec && stop)
            rec->stopAfterFirstDone = stop;
        pushEntries(hub, repo, QStringLiteral("main"), m_root, r.plan, r.items, rec ? *rec : local, TransferOptions(),
                    &r.pushErr, stop);
        return r;
    }

    static HubClient client(const test::TestHub &hub, const QString &token = QStringLiteral("hf_alice_write"))
    {
        HubClient c(hub.url(), token);
        c.setRetryPolicy({5, 10, 50, 1000});
        return c;
    }

    // path -> sha256 of what the Hub holds for `repo` (read with Ingot's client).
    static QMap<QString, QString> hubFiles(const test::TestHub &hub, const QString &repo)
    {
        const HubClient c = client(hub);
        HubError e;
        QMap<QString, QString> out;
        for (const TreeEntry &t : c.listTree(repo, QStringLiteral("main"), QString(), true, &e))
            if (!t.isDir)
                out.insert(t.path, sha256(c.readFile(repo, QStringLiteral("main"), t.path, 1 << 24, &e)));
        return out;
    }

    QMap<QString, QString> expected(const QString &onlyEntry = QString()) const
    {
        QMap<QString, QString> out;
        for (auto it = m_pushable.cbegin(); it != m_pushable.cend(); ++it)
            if (onlyEntry.isEmpty() || it.key().startsWith(onlyEntry + QLatin1Char('/')))
                out.insert(it.key(), sha256(it.value()));
        return out;
    }

    static int count(const json &log, const QString &method, const QString &pathPart)
    {
        int n = 0;
        for (const json &r : log)
            n += r["method"] == method.toStdString() && QString::fromStdString(r["path"].get<std::string>()).contains(pathPart);
        return n;
    }

    // The repo's commits, newest first (the endpoint @huggingface/hub's listCommits reads).
    static json commits(test::TestHub &hub, const QString &repo)
    {
        HttpRequest req;
        req.url = hub.url() + QStringLiteral("/api/models/%1/commits/main").arg(repo);
        req.bearer = QStringLiteral("hf_alice_write");
        const HttpResponse r = HttpClient().send(req);
        const json j = json::parse(r.body.toStdString(), nullptr, false);
        return j.is_array() ? j : json::array();
    }

    int cli(const test::TestHub &hub, const QStringList &args, const QStringList &env, QByteArray *out)
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HF_ENDPOINT"), hub.url());
        e.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_alice_write"));
        e.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
        e.insert(QStringLiteral("HF_HOME"), m_tmp.path() + QStringLiteral("/hfhome"));
        e.remove(QStringLiteral("HF_HUB_OFFLINE"));
        for (const QString &kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        if (!p.waitForFinished(120000))
            return -1;
        *out = p.readAllStandardOutput();
        return p.exitCode();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_root = m_tmp.path() + QStringLiteral("/cache");
        success(QStringLiteral("MODULE_1001+d41d8cd9"), 1);
        success(QStringLiteral("MODULE_1002+d41d8cd9"), 2);
        success(QStringLiteral("MODULE_1003+d41d8cd9"), 3, 150 * 1000);
        // Never pushed: a failed compile, a running one, an incomplete one, an entry whose neff links outside the
        // cache into something that is not a hub blob, a stray file at the top.
        file(V + QStringLiteral("/MODULE_2001+d41d8cd9/model.log"), "error: compile failed", false);
        file(V + QStringLiteral("/MODULE_2001+d41d8cd9/model.hlo_module.pb"), "hlo", false);
        file(V + QStringLiteral("/MODULE_2002+d41d8cd9/model.neff"), randomBytes(2000, 9), false);
        file(V + QStringLiteral("/MODULE_2002+d41d8cd9/model.done"), QByteArray(), false);
        file(V + QStringLiteral("/MODULE_2002+d41d8cd9/model.hlo_module.pb.lock"), QByteArray(), false);
        file(V + QStringLiteral("/MODULE_2003+d41d8cd9/compile_flags.json"), "[]", false);
        test::writeFile(m_tmp.path() + QStringLiteral("/elsewhere/secret.neff"), "not a blob");
        file(V + QStringLiteral("/MODULE_2004+d41d8cd9/model.done"), QByteArray(), false);
        QVERIFY(QFile::link(m_tmp.path() + QStringLiteral("/elsewhere/secret.neff"),
                            m_root + QLatin1Char('/') + V + QStringLiteral("/MODULE_2004+d41d8cd9/model.neff")));
        file(QStringLiteral("stray.txt"), "stray", false);
        // Pulled by optimum-neuron: files are links into the HF hub blob cache, read through the link.
        const QString blobs = m_tmp.path() + QStringLiteral("/hf/hub/models--org--cache/blobs/");
        const QByteArray neff = randomBytes(120 * 1000, 5), done;
        test::writeFile(blobs + sha256(neff), neff);
        test::writeFile(blobs + QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), done);
        const QString linked = V + QStringLiteral("/MODULE_3001+d41d8cd9/");
        QDir().mkpath(m_root + QLatin1Char('/') + linked);
        QVERIFY(QFile::link(blobs + sha256(neff), m_root + QLatin1Char('/') + linked + QStringLiteral("model.neff")));
        QVERIFY(QFile::link(blobs + QStringLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
                            m_root + QLatin1Char('/') + linked + QStringLiteral("model.done")));
        m_pushable.insert(linked + QStringLiteral("model.neff"), neff);
        m_pushable.insert(linked + QStringLiteral("model.done"), done);
    }

    // The dry run (CLI, --json) lists exactly what the push then commits; the official client downloads every
    // pushed file byte-identical, finds nothing else, and one commit.
    void pushSeenByOfficialClient()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        QByteArray out;
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache-dir"), m_root, QStringLiteral("--dry-run"), QStringLiteral("--json")}, {}, &out), 0);
        const json dry = json::parse(out.toStdString());
        QSet<QString> dryFiles;
        for (const json &e : dry["entries"])
            for (const json &f : e["files"])
                dryFiles.insert(QString::fromStdString(f["path"].get<std::string>()));
        QCOMPARE(dry["entries"].size(), size_t(4));
        QCOMPARE(dry["skipped"].size(), size_t(4));  // failed, locked, incomplete, the foreign link
        QCOMPARE(count(hub.requestLog(), QStringLiteral("POST"), QStringLiteral("/commit/")), 0);

        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache-dir"), m_root}, {}, &out), 0);
        QTemporaryDir tmp;
        const QString result = tmp.path() + QStringLiteral("/check.json");
        QProcess node;
        node.setProcessChannelMode(QProcess::MergedChannels);
        node.setWorkingDirectory(QStringLiteral(INGOT_SOURCE_DIR "/tests/hub/conformance"));
        node.start(QStringLiteral(INGOT_NODE), {QStringLiteral("pushcheck.mjs"), hub.url(), QStringLiteral("hf_alice_write"), Repo, result});
        QVERIFY(node.waitForFinished(120000));
        QVERIFY2(node.exitCode() == 0, node.readAll().constData());
        const json js = json::parse(test::readFile(result).toStdString());
        QMap<QString, QString> seen;
        int lfs = 0;
        for (auto it = js["files"].begin(); it != js["files"].end(); ++it) {
            seen.insert(QString::fromStdString(it.key()), QString::fromStdString((*it)["sha256"].get<std::string>()));
            lfs += (*it)["lfs"].get<bool>();
        }
        QCOMPARE(seen, expected());  // every pushed file byte-identical, and nothing else
        QCOMPARE(QSet<QString>(seen.keyBegin(), seen.keyEnd()), dryFiles);
        QVERIFY(lfs >= 4);  // the neffs went as LFS objects
        QCOMPARE(js["commits"].size(), size_t(1));
        QCOMPARE(js["commits"][0]["author"].get<std::string>(), std::string("alice"));

        // Again: everything is there, nothing is sent.
        hub.clearLog();
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("synchronize"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache_dir"), m_root, QStringLiteral("--json")}, {}, &out), 0);
        QCOMPARE(json::parse(out.toStdString())["entries"].size(), size_t(0));
        QCOMPARE(count(hub.requestLog(), QStringLiteral("POST"), QStringLiteral("/commit/")), 0);
        QCOMPARE(count(hub.requestLog(), QStringLiteral("PUT"), QString()), 0);
    }

    // A commit landing between preupload and commit: the 412 is retried on the new head, in one complete commit.
    void movedBranchIsRetried()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        QVERIFY(hub.fault({{"kind", "movehead"}, {"path", "/commit/"}, {"count", 1}}));
        const Run r = push(client(hub), Repo);
        QVERIFY2(r.planErr.ok() && r.pushErr.ok(), qPrintable(r.planErr.message + r.pushErr.message));
        for (const TransferItem &i : r.items)
            QCOMPARE(i.state, TransferItem::State::Done);
        QCOMPARE(count(hub.requestLog(), QStringLiteral("POST"), QStringLiteral("/commit/")), 2);
        const json c = commits(hub, Repo);
        QCOMPARE(c.size(), size_t(2));  // the other client's, then Ingot's one commit
        QCOMPARE(c[1]["title"].get<std::string>(), std::string("concurrent commit (test fault)"));
        QCOMPARE(hubFiles(hub, Repo), expected());
    }

    // A connection dropped during an LFS upload, then a burst of 5xx: retried, complete commits only.
    void droppedUploadAnd5xxBurst()
    {
        for (const json &fault : {json{{"kind", "drop"}, {"path", "/lfs/objects/upload/"}, {"count", 1}},
                                  json{{"kind", "error5xx"}, {"status", 503}, {"retry_after", 0}, {"count", 3}}}) {
            test::TestHub hub;
            QString error;
            QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
            hub.makeRepo(Repo, true, {});
            QVERIFY(hub.fault(fault));
            const Run r = push(client(hub), Repo);
            QVERIFY2(r.planErr.ok() && r.pushErr.ok(), qPrintable(r.planErr.message + r.pushErr.message));
            for (const TransferItem &i : r.items)
                QCOMPARE(i.state, TransferItem::State::Done);
            QCOMPARE(hubFiles(hub, Repo), expected());
            QCOMPARE(commits(hub, Repo).size(), size_t(1));
        }
    }

    // Stopped after the first commit: the Hub holds that entry whole and nothing of the others; the next run sends
    // none of the first entry's objects again and completes.
    void interruptedPushResumes()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        PushLimits oneEntryPerCommit;
        oneEntryPerCommit.filesPerCommit = 4;
        std::atomic_bool stop{false};
        Recorder rec;
        const Run first = push(client(hub), Repo, oneEntryPerCommit, &stop, &rec);
        QVERIFY(first.planErr.ok());
        QCOMPARE(first.pushErr.kind, HubError::Kind::Cancelled);
        QCOMPARE(first.items[0].state, TransferItem::State::Done);
        for (int i = 1; i < first.items.size(); ++i)
            QCOMPARE(first.items[i].state, TransferItem::State::Pending);
        QCOMPARE(hubFiles(hub, Repo), expected(first.items[0].key));
        const QString firstNeff = sha256(m_pushable.value(first.items[0].key + QStringLiteral("/model.neff")));

        hub.clearLog();
        const Run second = push(client(hub), Repo, oneEntryPerCommit);
        QVERIFY(second.planErr.ok() && second.pushErr.ok());
        QCOMPARE(second.items.size(), first.items.size() - 1);
        QVERIFY(second.plan.skipped.join(QLatin1Char('\n')).contains(first.items[0].key + QStringLiteral(": already on the Hub")));
        QCOMPARE(count(hub.requestLog(), QStringLiteral("PUT"), firstNeff), 0);
        QCOMPARE(count(hub.requestLog(), QStringLiteral("PUT"), QStringLiteral("/lfs/objects/upload/")), 3);
        QCOMPARE(hubFiles(hub, Repo), expected());
        QCOMPARE(commits(hub, Repo).size(), size_t(4));  // one entry per commit
    }

    // The server's multipart form (chunk size, a URL per part, completion with the parts' ETags).
    void multipartUpload()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        QVERIFY(hub.config({{"multipart_chunk", 64 * 1000}}));
        const Run r = push(client(hub), Repo);
        QVERIFY2(r.planErr.ok() && r.pushErr.ok(), qPrintable(r.planErr.message + r.pushErr.message));
        const json log = hub.requestLog();
        QCOMPARE(count(log, QStringLiteral("PUT"), QStringLiteral("/lfs/objects/upload/")), 0);
        QCOMPARE(count(log, QStringLiteral("PUT"), QStringLiteral("/lfs/objects/part/")), 5 + 5 + 3 + 2);  // 300, 300, 150, 120 kB
        QCOMPARE(count(log, QStringLiteral("POST"), QStringLiteral("/lfs/objects/complete/")), 4);
        QCOMPARE(hubFiles(hub, Repo), expected());
    }

    // A read-only token: exit 7 and no preupload, batch or commit; HF_HUB_OFFLINE: exit 8 and no request.
    void noAccessAndOfflineSendNothing()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        QByteArray out;
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache-dir"), m_root}, {QStringLiteral("HF_TOKEN=hf_bob_read")}, &out), 7);
        const json log = hub.requestLog();
        QCOMPARE(count(log, QStringLiteral("POST"), QStringLiteral("/preupload/")), 0);
        QCOMPARE(count(log, QStringLiteral("POST"), QStringLiteral("/commit/")), 0);
        QCOMPARE(count(log, QStringLiteral("POST"), QStringLiteral("/batch")), 0);
        // Another user's namespace, with a write token: refused the same way.
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--repo_id"), QStringLiteral("bob/cache"),
                           QStringLiteral("--cache-dir"), m_root}, {}, &out), 7);
        hub.clearLog();
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("synchronize"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache_dir"), m_root}, {QStringLiteral("HF_HUB_OFFLINE=1")}, &out), 8);
        QCOMPARE(hub.requestLog().size(), size_t(0));
        QVERIFY(hubFiles(hub, Repo).isEmpty());
        // --host with a host that cannot be reached: exit 10 (pushing from a real host: tst_hosthub).
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--host"), QStringLiteral("trn1.invalid")}, {}, &out), 10);
    }

    // An entry that became LOCKED between plan and push stays here.
    void entryLockedAfterPlanIsSkipped()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        const HubClient c = client(hub);
        HubError e;
        const PushPlan plan = planPush(c, Repo, QStringLiteral("main"), m_root, {}, &e);
        QVERIFY(e.ok());
        const QString lock = m_root + QLatin1Char('/') + plan.entries[1].key + QStringLiteral("/model.hlo_module.pb.lock");
        test::writeFile(lock, QByteArray());
        QVector<TransferItem> items = pushItems(plan);
        NullTransferReporter rep;
        pushEntries(c, Repo, QStringLiteral("main"), m_root, plan, items, rep, TransferOptions(), &e);
        QFile::remove(lock);
        QVERIFY(e.ok());
        QCOMPARE(items[1].state, TransferItem::State::Skipped);
        QVERIFY(items[1].message.contains(QStringLiteral("LOCKED")));
        QCOMPARE(items[0].state, TransferItem::State::Done);
        const QMap<QString, QString> files = hubFiles(hub, Repo);
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY(!it.key().startsWith(plan.entries[1].key));
        QCOMPARE(files.size(), expected().size() - 4);
    }

    // Issue 35: a FAILED entry named to `cache push` is skipped, said so in the words `cache copy` uses and counted
    // as skipped in the summary; exit 0, as `cache copy` exits for it.
    void aFailedEntryIsSkippedAsCopySkipsIt()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        const QString good = V + QStringLiteral("/MODULE_1003+d41d8cd9"), failed = V + QStringLiteral("/MODULE_2001+d41d8cd9");
        QByteArray out;
        QCOMPARE(cli(hub, {QStringLiteral("cache"), QStringLiteral("push"), QStringLiteral("--repo_id"), Repo,
                           QStringLiteral("--cache-dir"), m_root, good, failed}, {}, &out), 0);
        QVERIFY2(out.contains(QStringLiteral("skipped %1: %2").arg(failed, notSuccessWhy(ModuleState::Failed)).toUtf8()),
                 out.constData());
        QVERIFY2(out.contains(QStringLiteral("Pushed 1 of 2 entries to %1; 1 skipped, 0 failed.").arg(Repo).toUtf8()),
                 out.constData());
        for (const QString &path : hubFiles(hub, Repo).keys())
            QVERIFY2(!path.startsWith(failed), qPrintable(path));
    }

    // Issue 21 #3: the owner of an entry in a shared cache swaps its files for links to secrets of the same size
    // after the push checked them (here: when the push reports the entry started, before preupload, hashing, upload
    // and commit). What was checked is what goes: the Hub gets the original bytes, never the secrets.
    void filesSwappedForLinksAfterTheCheckAreNeverRead()
    {
        const QString root = m_tmp.path() + QStringLiteral("/swapcache");
        const QString key = V + QStringLiteral("/MODULE_7001+d41d8cd9");
        const QString dir = root + QLatin1Char('/') + key + QLatin1Char('/');
        const QByteArray neff = randomBytes(200 * 1000, 71), flags("[\"--model-type=transformer\"]");
        test::writeFile(dir + QStringLiteral("model.neff"), neff);
        test::writeFile(dir + QStringLiteral("model.done"), QByteArray());
        test::writeFile(dir + QStringLiteral("compile_flags.json"), flags);
        const QString secrets = m_tmp.path() + QStringLiteral("/victim/");
        const QByteArray secretNeff = randomBytes(neff.size(), 72), secretFlags = QByteArray("S").repeated(flags.size());
        test::writeFile(secrets + QStringLiteral("id_neff"), secretNeff);
        test::writeFile(secrets + QStringLiteral("id_rsa"), secretFlags);

        class Swapper final : public TransferReporter
        {
        public:
            std::function<void()> swap;
            void itemStarted(int, qint64) override { swap(); }
            void itemProgress(int, qint64) override {}
            void itemFinished(int, TransferItem::State, const QString &) override {}
            void note(const QString &) override {}
        } swapper;
        bool swapped = false;
        swapper.swap = [&] {
            swapped = QFile::remove(dir + QStringLiteral("compile_flags.json")) &&
                      QFile::link(secrets + QStringLiteral("id_rsa"), dir + QStringLiteral("compile_flags.json")) &&
                      QFile::remove(dir + QStringLiteral("model.neff")) &&
                      QFile::link(secrets + QStringLiteral("id_neff"), dir + QStringLiteral("model.neff"));
        };

        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        const HubClient c = client(hub);
        HubError e;
        const PushPlan plan = planPush(c, Repo, QStringLiteral("main"), root, {}, &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        QCOMPARE(plan.entries.size(), 1);
        QVector<TransferItem> items = pushItems(plan);
        pushEntries(c, Repo, QStringLiteral("main"), root, plan, items, swapper, TransferOptions(), &e);
        QVERIFY(swapped);
        const QMap<QString, QString> files = hubFiles(hub, Repo);
        for (const QString &s : files)
            QVERIFY2(s != sha256(secretFlags) && s != sha256(secretNeff), "a secret reached the Hub");
        QVERIFY(!count(hub.requestLog(), QStringLiteral("PUT"), sha256(secretNeff)));
        // Either the entry went whole with the bytes that were checked, or it stayed here.
        if (items[0].state == TransferItem::State::Done) {
            QCOMPARE(files.value(key + QStringLiteral("/compile_flags.json")), sha256(flags));
            QCOMPARE(files.value(key + QStringLiteral("/model.neff")), sha256(neff));
        } else {
            QVERIFY(files.isEmpty());
        }
        QVERIFY2(items[0].state == TransferItem::State::Done, qPrintable(items[0].message));
    }

    // A file replaced between plan and push (another file of the same size in its place): the entry stays here.
    void aFileReplacedSinceThePlanKeepsTheEntry()
    {
        const QString root = m_tmp.path() + QStringLiteral("/replacedcache");
        const QString key = V + QStringLiteral("/MODULE_7002+d41d8cd9");
        const QString dir = root + QLatin1Char('/') + key + QLatin1Char('/');
        test::writeFile(dir + QStringLiteral("model.neff"), randomBytes(5000, 73));
        test::writeFile(dir + QStringLiteral("model.done"), QByteArray());
        test::writeFile(dir + QStringLiteral("compile_flags.json"), "[\"--a\"]");
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {});
        const HubClient c = client(hub);
        HubError e;
        const PushPlan plan = planPush(c, Repo, QStringLiteral("main"), root, {}, &e);
        QVERIFY2(e.ok() && plan.entries.size() == 1, qPrintable(e.message));
        test::writeFile(dir + QStringLiteral("compile_flags.json.new"), "[\"--b\"]");
        QVERIFY(::rename(QFile::encodeName(dir + QStringLiteral("compile_flags.json.new")).constData(),
                         QFile::encodeName(dir + QStringLiteral("compile_flags.json")).constData()) == 0);
        QVector<TransferItem> items = pushItems(plan);
        NullTransferReporter rep;
        pushEntries(c, Repo, QStringLiteral("main"), root, plan, items, rep, TransferOptions(), &e);
        QVERIFY(e.ok());
        QCOMPARE(items[0].state, TransferItem::State::Skipped);
        QVERIFY2(items[0].message.contains(QStringLiteral("changed since the plan")), qPrintable(items[0].message));
        QVERIFY(hubFiles(hub, Repo).isEmpty());
    }

    // A compiler folder that would hold more entries than the Hub allows: a warning in the plan.
    void folderLimitWarns()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 1000, 100 * 1000), qPrintable(error));
        hub.makeRepo(Repo, true, {{V + QStringLiteral("/MODULE_9+d41d8cd9/model.done"), QByteArray()}});
        HubError e;
        QVERIFY(planPush(client(hub), Repo, QStringLiteral("main"), m_root, {}, &e).warnings.isEmpty());
        PushLimits small;
        small.folderEntries = 4;  // 1 on the Hub + 4 planned
        const PushPlan plan = planPush(client(hub), Repo, QStringLiteral("main"), m_root, {}, &e, nullptr, small);
        QVERIFY(e.ok());
        QCOMPARE(plan.warnings.size(), 1);
        QVERIFY(plan.warnings[0].contains(V) && plan.warnings[0].contains(QStringLiteral("5 entries")));
    }
};

QTEST_GUILESS_MAIN(TestHubPush)
#include "tst_hubpush.moc"
