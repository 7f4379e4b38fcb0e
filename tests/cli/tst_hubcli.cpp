// ingot-cli's Hub commands as users run them, against the test Hub: outputs, JSON, exit codes, no token leaks.
#include "services/util/names.h"
#include "tests/support/testhub.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QMap>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {
const QString kToken = QStringLiteral("hf_alice_write");

// What a hostile Hub may send as a name: terminal escapes (a title change, clearing the screen), bells, line breaks,
// tabs and a bidi override that turns the rest of a line around.
const QString kEvilName = QStringLiteral("eve\x1b]0;owned\x07\u202Eevil\nsecond line");
const QString kEvilFile = QStringLiteral("\x1b[2Jclear.txt");
const QString kEvilLine = QStringLiteral("new\nline.txt");
const QString kEvilBidi = QStringLiteral("\u202Etxt.exe");
const QString kEvilTab = QStringLiteral("tab\tname.txt");
const QString kEvilDir = QStringLiteral("dir\x1b[31m");

// Text a terminal shows as it is: no control character but the line breaks, no bidi or zero-width character.
bool terminalClean(const QString &s)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != '\n') || (u >= 0x7f && u <= 0x9f) || (u >= 0x200b && u <= 0x200f) ||
            (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069))
            return false;
    }
    return true;
}

QString shown(const QString &name)
{
    return ingot::displayName(name);
}
}

class TestHubCli : public QObject
{
    Q_OBJECT

    test::TestHub *hub = nullptr;
    QTemporaryDir home;

    struct Run {
        int code = -1;
        QString out, err;
        QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
    };

    Run cli(const QStringList &args, const QStringList &env = {}, const QByteArray &input = {})
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char *v : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "CUSTOM_CACHE_REPO", "HF_HUB_OFFLINE", "HF_TOKEN_PATH"})
            e.remove(QString::fromLatin1(v));
        e.insert(QStringLiteral("HF_ENDPOINT"), hub->url());
        e.insert(QStringLiteral("HF_HOME"), home.path());
        e.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
        for (const QString &kv : env)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        p.write(input);
        p.closeWriteChannel();
        p.waitForFinished(60000);
        Run r{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
        // Whatever happens, the token never shows.
        if (r.out.contains(kToken) || r.err.contains(kToken))
            qFatal("the token leaked into the output of ingot-cli %s", qPrintable(args.join(QLatin1Char(' '))));
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        hub = new test::TestHub;
        QString error;
        QVERIFY2(hub->start(&error, 4), qPrintable(error));
        hub->makeRepo(QStringLiteral("neuronorg/team-cache"), true, test::registryFixture(QStringLiteral("meta-llama/Llama-2-7b-hf"), 6));
    }
    void cleanupTestCase() { delete hub; }
    void cleanup() { QVERIFY(hub->clearFaults()); }

    void whoamiAndLogin()
    {
        Run r = cli({QStringLiteral("hub"), QStringLiteral("whoami")});
        QCOMPARE(r.code, 7);
        QVERIFY(r.err.contains(QStringLiteral("No Hugging Face token")));
        r = cli({QStringLiteral("hub"), QStringLiteral("whoami"), QStringLiteral("--json")}, {QStringLiteral("HF_TOKEN=") + kToken});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().value(QStringLiteral("name")).toString(), QStringLiteral("alice"));
        QCOMPARE(r.json().value(QStringLiteral("token_source")).toString(), QStringLiteral("HF_TOKEN"));
        // Login reads the token from stdin (never argv) and, with no keychain, writes the 0600 token file.
        r = cli({QStringLiteral("hub"), QStringLiteral("login")}, {}, kToken.toUtf8() + '\n');
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("Logged in as alice")));
        QCOMPARE(QFile::permissions(home.path() + QStringLiteral("/token")) & (QFile::ReadOther | QFile::ReadGroup), QFileDevice::Permissions());
        r = cli({QStringLiteral("hub"), QStringLiteral("whoami")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("alice")));
        r = cli({QStringLiteral("hub"), QStringLiteral("login")}, {}, "hf_not_valid\n");
        QCOMPARE(r.code, 7);
        r = cli({QStringLiteral("hub"), QStringLiteral("whoami")}, {QStringLiteral("HF_HUB_OFFLINE=1")});
        QCOMPARE(r.code, 8);
        QVERIFY(r.err.contains(QStringLiteral("HF_HUB_OFFLINE")));
    }

    // cache explain with a Hub cache repo as another cache: the key there is named, with the repo.
    void explainFindsTheKeyInAHubRepo()
    {
        const QString key = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_8827361+4497a662");
        hub->makeRepo(QStringLiteral("neuronorg/compiled"), true,
                      {{key + QStringLiteral("/model.neff"), QByteArray(2048, 'n')},
                       {key + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]"},
                       {key + QStringLiteral("/model.done"), QByteArray()}});
        QTemporaryDir local;
        const QStringList args = {QStringLiteral("cache"), QStringLiteral("explain"), QStringLiteral("--json"), QStringLiteral("--cache-dir"),
                                  local.path(), QStringLiteral("--other"), QStringLiteral("hub:neuronorg/compiled"), key};
        Run r = cli(args, {QStringLiteral("HF_TOKEN=") + kToken});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.json().value(QStringLiteral("verdict")).toString(), QStringLiteral("other-cache"));
        QCOMPARE(r.json().value(QStringLiteral("other_cache")).toString(), QStringLiteral("hub:neuronorg/compiled"));
        // Another key is not there: a new graph.
        QString other = key;
        other.replace(QStringLiteral("8827361"), QStringLiteral("1111111"));
        QStringList a2 = args;
        a2.last() = other;
        r = cli(a2, {QStringLiteral("HF_TOKEN=") + kToken});
        QCOMPARE(r.json().value(QStringLiteral("verdict")).toString(), QStringLiteral("new-graph"));
        // Without access (a private repo, no token: not even the file an earlier login wrote) the repo cannot be
        // asked: the notes say so.
        r = cli(args, {QStringLiteral("HF_TOKEN_PATH=") + home.path() + QStringLiteral("/no-token-here")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json().value(QStringLiteral("verdict")).toString(), QStringLiteral("new-graph"));
        QVERIFY2(r.out.contains(QStringLiteral("hub:neuronorg/compiled could not be asked")), qPrintable(r.out));
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("explain"), QStringLiteral("--other"), QStringLiteral("hub:not a repo"), key}).code, 2);
        QCOMPARE(cli({QStringLiteral("cache"), QStringLiteral("explain"), QStringLiteral("MODULE_1+2")}).code, 2);
    }

    void ls()
    {
        Run r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/team-cache")}, {QStringLiteral("HF_TOKEN=") + kToken});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("registry.json")));
        QVERIFY(r.out.contains(QStringLiteral("0_REGISTRY")));
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/team-cache"), QStringLiteral("0_REGISTRY"), QStringLiteral("-R"), QStringLiteral("--json")},
                {QStringLiteral("HF_TOKEN=") + kToken});
        QCOMPARE(r.code, 0);
        QVERIFY(r.json().value(QStringLiteral("entries")).toArray().size() >= 8);
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/team-cache")},
                {QStringLiteral("HF_TOKEN_PATH=") + home.path() + QStringLiteral("/no-token-here")});
        QCOMPARE(r.code, 7);
        QVERIFY(r.err.contains(QStringLiteral("not found, or it is private")));
    }

    // hub ls --marks: the repo's entries against a local cache holding some of them, by the Hub page's rule.
    void lsMarksAgainstTheLocalCache()
    {
        const QString v15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        const QString v16 = QStringLiteral("neuronxcc-2.16.372.0+4a9b2326");
        // On the Hub: two entries of 2.15, as optimum-neuron's cache sync uploads a compiled module folder.
        QMap<QString, QByteArray> files;
        for (const char *m : {"MODULE_111+d41d8cd9", "MODULE_222+d41d8cd9"}) {
            const QString dir = v15 + QLatin1Char('/') + QLatin1String(m);
            files.insert(dir + QStringLiteral("/model.neff"), QByteArray(3000, 'n'));
            files.insert(dir + QStringLiteral("/compile_flags.json"), "[\"--model-type=transformer\"]");
            files.insert(dir + QStringLiteral("/model.done"), QByteArray());
        }
        hub->makeRepo(QStringLiteral("neuronorg/marks"), true, files);
        // Here: one of them, one the Hub lacks, and one of a compiler version the Hub has no folder of.
        QTemporaryDir local;
        const QStringList entry = {QStringLiteral("model.hlo_module.pb"), QStringLiteral("compile_flags.json"),
                                   QStringLiteral("model.neff"), QStringLiteral("model.done")};
        test::makeModule(local.path(), v15, QStringLiteral("MODULE_111+d41d8cd9"), entry);
        test::makeModule(local.path(), v15, QStringLiteral("MODULE_999+d41d8cd9"), entry);
        test::makeModule(local.path(), v16, QStringLiteral("MODULE_555+d41d8cd9"), entry);
        const QStringList token = {QStringLiteral("HF_TOKEN=") + kToken};
        Run r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/marks"), QStringLiteral("--marks"),
                     QStringLiteral("--json"), QStringLiteral("--cache-dir"), local.path()}, token);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QMap<QString, QString> where;
        for (const QJsonValue &m : r.json().value(QStringLiteral("marks")).toArray())
            where.insert(m[QStringLiteral("key")].toString(), m[QStringLiteral("where")].toString());
        const QMap<QString, QString> expected = {{v15 + QStringLiteral("/MODULE_111+d41d8cd9"), QStringLiteral("both")},
                                                 {v15 + QStringLiteral("/MODULE_222+d41d8cd9"), QStringLiteral("hub-only")},
                                                 {v15 + QStringLiteral("/MODULE_999+d41d8cd9"), QStringLiteral("local-only")},
                                                 {v16 + QStringLiteral("/MODULE_555+d41d8cd9"), QStringLiteral("local-only")}};
        QCOMPARE(where, expected);
        // As a table, and only below the folder named.
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/marks"), v15, QStringLiteral("--marks"),
                 QStringLiteral("--cache-dir"), local.path()}, token);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);  // the header and three entries of 2.15
        auto line = [&](const QString &module) {
            for (const QString &l : lines)
                if (l.endsWith(v15 + QLatin1Char('/') + module))
                    return l;
            return QString();
        };
        QVERIFY2(line(QStringLiteral("MODULE_111+d41d8cd9")).startsWith(QStringLiteral("Hub and local")), qPrintable(r.out));
        QVERIFY2(line(QStringLiteral("MODULE_222+d41d8cd9")).startsWith(QStringLiteral("Hub only")), qPrintable(r.out));
        QVERIFY2(line(QStringLiteral("MODULE_999+d41d8cd9")).startsWith(QStringLiteral("Local only")), qPrintable(r.out));
        // A cache folder that is not there: said, nothing asked of the Hub.
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/marks"), QStringLiteral("--marks"),
                 QStringLiteral("--cache-dir"), local.path() + QStringLiteral("/missing")}, token);
        QCOMPARE(r.code, 3);
        // No access to the repo: the Hub's exit code.
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("neuronorg/marks"), QStringLiteral("--marks"),
                 QStringLiteral("--cache-dir"), local.path()},
                {QStringLiteral("HF_TOKEN_PATH=") + home.path() + QStringLiteral("/no-token-here")});
        QCOMPARE(r.code, 7);
    }

    // Issue 39: cache verify, like hf cache verify: local entries against the cache repo, file by file, by the
    // sha256 the Hub keeps for an LFS file and the git blob id of another; nothing downloaded.
    void verifyAgainstTheHub()
    {
        test::TestHub lfsHub;  // files of 1000 bytes and more in LFS, as a cache repo's NEFFs are
        QString error;
        QVERIFY2(lfsHub.start(&error, 1000, 1000), qPrintable(error));
        const QString v15 = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
        const QByteArray neff(3000, 'n'), flags("[\"--model-type=transformer\"]");
        QMap<QString, QByteArray> files;
        for (const char *m : {"MODULE_111+d41d8cd9", "MODULE_222+d41d8cd9"}) {
            const QString dir = v15 + QLatin1Char('/') + QLatin1String(m);
            files.insert(dir + QStringLiteral("/model.neff"), neff);
            files.insert(dir + QStringLiteral("/compile_flags.json"), flags);
            files.insert(dir + QStringLiteral("/model.done"), QByteArray());
        }
        lfsHub.makeRepo(QStringLiteral("neuronorg/verify"), true, files);
        QTemporaryDir local;
        auto put = [&](const QString &module, const QByteArray &neffBytes, const QByteArray &flagBytes) {
            const QString dir = local.path() + QLatin1Char('/') + v15 + QLatin1Char('/') + module;
            test::writeFile(dir + QStringLiteral("/model.neff"), neffBytes);
            test::writeFile(dir + QStringLiteral("/compile_flags.json"), flagBytes);
            test::writeFile(dir + QStringLiteral("/model.done"), QByteArray());
        };
        put(QStringLiteral("MODULE_111+d41d8cd9"), neff, flags);
        QByteArray otherNeff = neff;
        otherNeff[1500] = 'x';  // the same size, one byte changed
        QByteArray otherFlags = flags;
        otherFlags[3] = 'M';
        put(QStringLiteral("MODULE_222+d41d8cd9"), otherNeff, otherFlags);
        put(QStringLiteral("MODULE_333+d41d8cd9"), neff, flags);  // never pushed
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const char *v : {"HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "CUSTOM_CACHE_REPO", "HF_HUB_OFFLINE", "HF_TOKEN_PATH"})
            e.remove(QString::fromLatin1(v));
        e.insert(QStringLiteral("HF_ENDPOINT"), lfsHub.url());
        e.insert(QStringLiteral("HF_HOME"), home.path());
        e.insert(QStringLiteral("INGOT_KEYCHAIN"), QStringLiteral("none"));
        e.insert(QStringLiteral("HF_TOKEN"), kToken);
        p.setProcessEnvironment(e);
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("verify"), QStringLiteral("--repo_id"),
                                                QStringLiteral("neuronorg/verify"), QStringLiteral("--cache-dir"), local.path(),
                                                QStringLiteral("--json")});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray out = p.readAllStandardOutput();
        QCOMPARE(p.exitCode(), 1);
        const QJsonObject doc = QJsonDocument::fromJson(out).object();
        QCOMPARE(doc.value(QStringLiteral("checked")).toInt(), 3);
        QCOMPARE(doc.value(QStringLiteral("differ")).toInt(), 2);
        QMap<QString, QJsonObject> by;
        for (const QJsonValue &v : doc.value(QStringLiteral("entries")).toArray())
            by.insert(v[QStringLiteral("key")].toString().section(QLatin1Char('/'), 1), v.toObject());
        QCOMPARE(by.value(QStringLiteral("MODULE_111+d41d8cd9")).value(QStringLiteral("verdict")).toString(), QStringLiteral("same"));
        QCOMPARE(by.value(QStringLiteral("MODULE_333+d41d8cd9")).value(QStringLiteral("verdict")).toString(), QStringLiteral("missing"));
        const QJsonObject differs = by.value(QStringLiteral("MODULE_222+d41d8cd9"));
        QCOMPARE(differs.value(QStringLiteral("verdict")).toString(), QStringLiteral("differs"));
        QMap<QString, QString> why;
        for (const QJsonValue &f : differs.value(QStringLiteral("files")).toArray())
            why.insert(f[QStringLiteral("name")].toString(), f[QStringLiteral("verdict")].toString() + QLatin1Char(' ') + f[QStringLiteral("why")].toString());
        QVERIFY2(why.value(QStringLiteral("model.neff")).startsWith(QStringLiteral("differs sha256")), qPrintable(why.value(QStringLiteral("model.neff"))));
        QVERIFY2(why.value(QStringLiteral("compile_flags.json")).startsWith(QStringLiteral("differs git blob")),
                 qPrintable(why.value(QStringLiteral("compile_flags.json"))));
        QCOMPARE(why.value(QStringLiteral("model.done")), QStringLiteral("same "));
        // One entry named, the same one: exit 0, said in words.
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("verify"), QStringLiteral("--repo_id"),
                                                QStringLiteral("neuronorg/verify"), QStringLiteral("--cache-dir"), local.path(),
                                                v15 + QStringLiteral("/MODULE_111+d41d8cd9")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("all the same"));
        // A repo that is not there: the Hub's exit code.
        p.start(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("cache"), QStringLiteral("verify"), QStringLiteral("--repo_id"),
                                                QStringLiteral("neuronorg/nope"), QStringLiteral("--cache-dir"), local.path()});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 7);
    }

    void createSetLookup()
    {
        const QString env = QStringLiteral("HF_TOKEN=") + kToken;
        Run r = cli({QStringLiteral("cache"), QStringLiteral("create")}, {env});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("Neuron cache created on the Hugging Face Hub: alice/optimum-neuron-cache [private].")));
        QFile f(home.path() + QStringLiteral("/optimum_neuron_custom_cache"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("alice/optimum-neuron-cache"));
        f.close();
        r = cli({QStringLiteral("cache"), QStringLiteral("set"), QStringLiteral("neuronorg/missing")}, {env});
        QCOMPARE(r.code, 7);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("alice/optimum-neuron-cache"));  // unchanged when the repo does not exist
        f.close();
        r = cli({QStringLiteral("cache"), QStringLiteral("set"), QStringLiteral("neuronorg/team-cache")}, {env});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("Neuron cache name set locally to neuronorg/team-cache")));
        // lookup uses the repo just set
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf")}, {env});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith(QStringLiteral("Cached entries for meta-llama/Llama-2-7b-hf")));
        QCOMPARE(r.out.trimmed().split(QLatin1Char('\n')).size(), 2 + 10);
        QVERIFY(r.err.contains(QStringLiteral("unknown shape")));
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf"), QStringLiteral("--instance_type"),
                 QStringLiteral("trn1"), QStringLiteral("--batch_size"), QStringLiteral("4"), QStringLiteral("--json")}, {env});
        QCOMPARE(r.code, 0);
        const QJsonArray entries = r.json().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries[0].toObject().value(QStringLiteral("raw")).toObject().value(QStringLiteral("_model_id")).toString(),
                 QStringLiteral("meta-llama/Llama-2-7b-hf"));
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf"), QStringLiteral("--batch_size"), QStringLiteral("x")}, {env});
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("nobody/none")}, {env, QStringLiteral("CUSTOM_CACHE_REPO=neuronorg/team-cache")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("No cached entries found for nobody/none."));
    }

    void lookupTableLooksLikeOptimumCli()
    {
        const Run r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf"),
                           QStringLiteral("--repo_id"), QStringLiteral("neuronorg/team-cache")}, {QStringLiteral("HF_TOKEN=") + kToken});
        QCOMPARE(r.code, 0);
        QStringList lines = r.out.split(QLatin1Char('\n'));
        QCOMPARE(lines.takeLast(), QString());  // the output ends with a newline
        QCOMPARE(lines.size(), 2 + 10);
        QCOMPARE(lines[0], QStringLiteral("Cached entries for meta-llama/Llama-2-7b-hf"));
        for (const char *column : {"batch size", "sequence length", "tensor parallel", "dtype", "instance type",
                                   "compiler version", "checkpoint revision"})
            QVERIFY2(lines[1].contains(QLatin1String(column)), column);
        // Centered columns of at least 16 characters: each row as wide as the header.
        QVERIFY(lines[1].size() >= 7 * 16);
        for (int i = 2; i < lines.size(); ++i)
            QCOMPARE(lines[i].size(), lines[1].size());
    }

    // A registry folder that keeps failing: the table of what was read, an error naming the folder, exit 6
    // (README: the Hub could not be reached or answered wrongly), never a quiet "not cached".
    void lookupThatCouldNotReadEverything()
    {
        QVERIFY(hub->failPersistently(QStringLiteral("tree/main/0_REGISTRY/0.0.18?")));
        const QStringList env{QStringLiteral("HF_TOKEN=") + kToken};
        const QStringList args{QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf"),
                               QStringLiteral("--repo_id"), QStringLiteral("neuronorg/team-cache")};
        Run r = cli(args, env);
        QCOMPARE(r.code, 6);
        QVERIFY(r.out.startsWith(QStringLiteral("Cached entries for meta-llama/Llama-2-7b-hf")));
        QCOMPARE(r.out.trimmed().split(QLatin1Char('\n')).size(), 2 + 8);
        QVERIFY2(r.err.contains(QStringLiteral("error: Incomplete")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("0_REGISTRY/0.0.18: ")));
        QVERIFY(r.err.contains(QStringLiteral("neuronorg/team-cache")));
        r = cli(args + QStringList{QStringLiteral("--json")}, env);
        QCOMPARE(r.code, 6);
        QCOMPARE(r.json().value(QStringLiteral("entries")).toArray().size(), 8);
        const QJsonArray incomplete = r.json().value(QStringLiteral("incomplete")).toArray();
        QCOMPARE(incomplete.size(), 1);
        QCOMPARE(incomplete[0].toObject().value(QStringLiteral("path")).toString(), QStringLiteral("0_REGISTRY/0.0.18"));
        QCOMPARE(incomplete[0].toObject().value(QStringLiteral("status")).toInt(), 503);
        QVERIFY(r.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("0_REGISTRY/0.0.18")));
        QVERIFY(hub->clearFaults());
        r = cli(args + QStringList{QStringLiteral("--json")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY(!r.json().contains(QStringLiteral("incomplete")));
    }

    // A malformed id is a usage error (exit 2) saying what is wrong, not "not found" (7) or a bad answer (6).
    void malformedIdsAreBadArguments()
    {
        const QStringList env{QStringLiteral("HF_TOKEN=") + kToken};
        hub->clearLog();
        Run r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("../etc"),
                     QStringLiteral("--repo_id"), QStringLiteral("neuronorg/team-cache")}, env);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("\"../etc\" is not a model id")), qPrintable(r.err));
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("meta-llama/Llama-2-7b-hf"),
                 QStringLiteral("--repo_id"), QStringLiteral("team cache")}, env);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("\"team cache\" is not a repo id")), qPrintable(r.err));
        r = cli({QStringLiteral("cache"), QStringLiteral("set"), QStringLiteral("noslash")}, env);
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains(QStringLiteral("\"noslash\" is not a repo id")));
        r = cli({QStringLiteral("cache"), QStringLiteral("create"), QStringLiteral("-n"), QStringLiteral("alice/bad name")}, env);
        QCOMPARE(r.code, 2);
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("a/b/c")}, env);
        QCOMPARE(r.code, 2);
        QCOMPARE(hub->requestLog().size(), size_t(0));  // nothing was sent for any of them
    }

    // A Hub whose account name, paths and registry values carry escapes, line breaks and bidi overrides: every
    // command prints them escaped, one row per entry, in text and in JSON, and its errors stay one line.
    void hostileNamesAreShownEscaped()
    {
        test::TestHub evil({QStringLiteral("hf_evil_read:") + kEvilName + QStringLiteral("::read")});
        QString error;
        QVERIFY2(evil.start(&error), qPrintable(error));
        const QByteArray entry = QByteArray::fromStdString(nlohmann::json{
            {"_model_id", "evil/model"},
            {"neuron", {{"batch_size", 1}, {"sequence_length", 2}, {"num_cores", 2}, {"auto_cast_type", "bf16\n\x1b[2Jfake row"},
                        {"compiler_version", u8"\u202E2.0"}, {"checkpoint_revision", "abc\x07"}}}}.dump());
        evil.makeRepo(QStringLiteral("evilorg/names"), false,
                      {{kEvilFile, "1"}, {kEvilLine, "2"}, {kEvilBidi, "3"}, {kEvilTab, "4"}, {kEvilDir + QStringLiteral("/inner.txt"), "5"},
                       {QStringLiteral("ok.txt"), "6"}, {QStringLiteral("0_REGISTRY/0.0.18/llama/evil/model/x.json"), entry}});
        const QStringList env{QStringLiteral("HF_ENDPOINT=") + evil.url(), QStringLiteral("HF_TOKEN=hf_evil_read")};

        Run r = cli({QStringLiteral("hub"), QStringLiteral("whoami")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);  // name, token, hub: the name's line break does not make a line
        QCOMPARE(lines[0], shown(kEvilName));
        QVERIFY(lines[1].contains(QStringLiteral("read")));
        r = cli({QStringLiteral("hub"), QStringLiteral("whoami"), QStringLiteral("--json")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        QCOMPARE(r.json().value(QStringLiteral("name")).toString(), shown(kEvilName));

        const QStringList ls{QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("evilorg/names"), QStringLiteral("-R")};
        r = cli(ls, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        lines = r.out.trimmed().split(QLatin1Char('\n'));
        // The header, then one row per entry: 7 files (one in the registry) and 6 folders (5 of the registry).
        QCOMPARE(lines.size(), 1 + 13);
        for (const QString &name : QStringList{kEvilFile, kEvilLine, kEvilBidi, kEvilTab, kEvilDir + QStringLiteral("/inner.txt")})
            QVERIFY2(r.out.contains(shown(name)), qPrintable(shown(name)));
        r = cli(ls + QStringList{QStringLiteral("--json")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        QStringList paths;
        for (const auto &v : r.json().value(QStringLiteral("entries")).toArray())
            paths << v.toObject().value(QStringLiteral("path")).toString();
        QCOMPARE(paths.size(), 13);
        for (const QString &name : QStringList{kEvilFile, kEvilLine, kEvilBidi, kEvilTab, kEvilDir})
            QVERIFY2(paths.contains(shown(name)), qPrintable(shown(name)));

        // A registry entry whose values break lines and clear the screen: still one row.
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("evil/model"), QStringLiteral("--repo_id"),
                 QStringLiteral("evilorg/names")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2 + 1);
        QVERIFY2(lines[2].contains(QStringLiteral("bf16\\x0a\\x1b[2jfake row")), qPrintable(lines[2]));  // dtypes are lower-cased
        r = cli({QStringLiteral("cache"), QStringLiteral("lookup"), QStringLiteral("evil/model"), QStringLiteral("--repo_id"),
                 QStringLiteral("evilorg/names"), QStringLiteral("--json")}, env);
        QCOMPARE(r.code, 0);
        QVERIFY2(terminalClean(r.out), qPrintable(r.out));
        const QJsonObject found = r.json().value(QStringLiteral("entries")).toArray().first().toObject();
        QCOMPARE(found.value(QStringLiteral("dtype")).toString(), shown(QStringLiteral("bf16\n\x1b[2jfake row")));
        QCOMPARE(found.value(QStringLiteral("compiler_version")).toString(), shown(QStringLiteral("\u202E2.0")));

        // An error naming such a path is one line.
        r = cli({QStringLiteral("hub"), QStringLiteral("ls"), QStringLiteral("evilorg/names"), QStringLiteral("no\nsuch\x1b[2J")}, env);
        QCOMPARE(r.code, 7);
        QVERIFY2(terminalClean(r.err), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().split(QLatin1Char('\n')).size(), 1);
        QVERIFY2(r.err.contains(QStringLiteral("no\\x0asuch\\x1b[2J")), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestHubCli)
#include "tst_hubcli.moc"
