// Fidelity of the test Hub: the official @huggingface/hub client (npm, lockfile committed) creates a repo, uploads
// (regular and LFS), lists across pages, asks paths-info and downloads; Ingot's client then reads the same server
// and must see exactly what the official client saw.
#include "services/hub/hubclient.h"
#include "tests/support/testhub.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;
using nlohmann::json;

class TestHubConformance : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void officialClientAndIngotAgree()
    {
        test::TestHub hub;
        QString error;
        QVERIFY2(hub.start(&error, 7, 100 * 1000), qPrintable(error));
        QTemporaryDir tmp;
        const QString out = tmp.path() + QStringLiteral("/js.json");
        QProcess node;
        node.setProcessChannelMode(QProcess::MergedChannels);
        node.setWorkingDirectory(QStringLiteral(INGOT_SOURCE_DIR "/tests/hub/conformance"));
        node.start(QStringLiteral(INGOT_NODE), {QStringLiteral("conformance.mjs"), hub.url(), QStringLiteral("hf_alice_write"),
                                                QStringLiteral("alice/conformance"), out});
        QVERIFY(node.waitForFinished(120000));
        QVERIFY2(node.exitCode() == 0, node.readAll().constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const json js = json::parse(f.readAll().toStdString());

        HubClient ingot(hub.url(), QStringLiteral("hf_alice_write"));
        HubError e;
        const WhoAmI me = ingot.whoami(&e);
        QVERIFY(e.ok());
        QCOMPARE(me.name.toStdString(), js["whoami"]["name"].get<std::string>());
        QCOMPARE(me.role.toStdString(), js["whoami"]["role"].get<std::string>());

        // The listing: same entries, field by field, across pages of 7.
        QVector<TreeEntry> listed = ingot.listTree(QStringLiteral("alice/conformance"), QStringLiteral("main"), QString(), true, &e);
        QVERIFY2(e.ok(), qPrintable(e.message));
        std::sort(listed.begin(), listed.end(), [](const TreeEntry &a, const TreeEntry &b) { return a.path < b.path; });
        const json &jl = js["listed"];
        QCOMPARE(size_t(listed.size()), jl.size());
        QVERIFY(listed.size() > 7 * 3);  // really paged
        std::map<std::string, json> byPath;
        for (const auto &x : jl)
            byPath[x["path"].get<std::string>()] = x;
        int lfs = 0;
        for (const TreeEntry &t : listed) {
            const json &x = byPath.at(t.path.toStdString());
            QCOMPARE(t.isDir, x["type"] == "directory");
            QCOMPARE(t.size, x["size"].get<qint64>());
            QCOMPARE(t.oid.toStdString(), x["oid"].get<std::string>());
            QCOMPARE(t.lfsOid.isEmpty(), x["lfs"].is_null());
            if (!t.lfsOid.isEmpty()) {
                QCOMPARE(t.lfsOid.toStdString(), x["lfs"].get<std::string>());
                ++lfs;
            }
        }
        QCOMPARE(lfs, 1);  // the binary model.neff went through LFS

        const QVector<TreeEntry> info = ingot.pathsInfo(QStringLiteral("alice/conformance"), QStringLiteral("main"),
                                                        {QStringLiteral("registry.json"),
                                                         QStringLiteral("neuronxcc-2.15.128.0+56dc5a86/MODULE_1+abcd1234/model.neff"),
                                                         QStringLiteral("missing.txt")}, &e);
        QVERIFY(e.ok());
        QCOMPARE(size_t(info.size()), js["pathsInfo"].size());
        for (const TreeEntry &t : info)
            QCOMPARE(t.oid.toStdString(), byPath.at(t.path.toStdString())["oid"].get<std::string>());

        // Downloads: the same bytes.
        for (const auto &[path, d] : js["downloads"].items()) {
            const QString dest = tmp.path() + QStringLiteral("/dl");
            const DownloadResult r = ingot.download(QStringLiteral("alice/conformance"), QString(), QString::fromStdString(path), dest, &e);
            QVERIFY2(e.ok(), qPrintable(e.message));
            QFile got(dest);
            QVERIFY(got.open(QIODevice::ReadOnly));
            QCOMPARE(QCryptographicHash::hash(got.readAll(), QCryptographicHash::Sha256).toHex().toStdString(), d["sha256"].get<std::string>());
            QCOMPARE(r.size, d["size"].get<qint64>());
        }
        // And the official client's createRepo made a private repo, as asked.
        QVERIFY(ingot.repoInfo(QStringLiteral("alice/conformance"), QString(), &e).isPrivate);
        HubClient anonymous(hub.url(), QString());
        anonymous.repoInfo(QStringLiteral("alice/conformance"), QString(), &e);
        QCOMPARE(e.kind, HubError::Kind::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestHubConformance)
#include "tst_hubconformance.moc"
