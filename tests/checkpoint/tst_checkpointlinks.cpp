// Checkpoint file I/O against a co-worker or a crafted checkpoint (issue 35, items 1, 2 and 4), on real checkpoints
// written by Debian's python3-torch: companion files behind links leading out of the checkpoint are refused and never
// copied (push's link rule); a staging folder swapped for a link mid-run makes consolidation, merging and re-sharding
// stop with words, with nothing written where the link leads; xser references naming one tensor file many times are
// held to the same output bound as plain files.
#include "services/checkpoint/consolidate.h"
#include "services/checkpoint/loramerge.h"
#include "services/checkpoint/reshard.h"
#include "services/checkpoint/shardreader.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace ingot;

namespace {
const QString kSharded = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_sharded_fixtures.py");
const QString kFormats = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_formats.py");
const QString kLinks = QStringLiteral(INGOT_SOURCE_DIR "/tests/fixtures/make_checkpoint_links.py");
const QByteArray kSecret = "-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n";

bool python(const QString &script, const QStringList &args, QString *out)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("/usr/bin/python3"), QStringList{script} + args);
    p.waitForFinished(300000);
    *out = QString::fromUtf8(p.readAll());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QString said(const ConsolidateReport &rep)
{
    return (rep.problems + rep.verifyProblems + QStringList{rep.error}).join(QLatin1Char('\n'));
}

// Every file under `dir` (links not followed) with its bytes.
std::map<QString, QByteArray> contents(const QString &dir)
{
    std::map<QString, QByteArray> out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        const QFileInfo fi(p);
        out[QDir(dir).relativeFilePath(p)] = fi.isSymLink() ? "link -> " + fi.symLinkTarget().toUtf8() : fi.isFile() ? test::readFile(p) : "folder";
    }
    return out;
}

// The staging folder a run made beside `output` (what a co-worker sees in a shared folder).
QString stagingOf(const QString &output)
{
    const QFileInfo out(output);
    const QStringList e = QDir(out.absolutePath()).entryList({stagingPrefix(out.fileName()) + QLatin1Char('*')},
                                                            QDir::AllEntries | QDir::Hidden | QDir::System);
    return e.size() == 1 ? out.absolutePath() + QLatin1Char('/') + e.first() : QString();
}

// The co-worker: moves the staging folder aside to `moved` and puts a link to `victim` under its name.
bool swapForLink(const QString &output, const QString &moved, const QString &victim)
{
    const QString staging = stagingOf(output);
    return !staging.isEmpty() && std::rename(QFile::encodeName(staging).constData(), QFile::encodeName(moved).constData()) == 0 &&
           ::symlink(QFile::encodeName(victim).constData(), QFile::encodeName(staging).constData()) == 0;
}

void writeSecret(const QString &path)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    test::writeFile(path, kSecret);
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

CheckpointCandidate onlyCheckpoint(const QString &dir)
{
    QString error;
    const QVector<CheckpointCandidate> found = findCheckpoints(dir, &error);
    return found.size() == 1 ? found.first() : CheckpointCandidate{};
}
}  // namespace

class TestCheckpointLinks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Item 1: a companion file (in the checkpoint or the training output folder above it) that leads out of its
    // folder, nowhere, or to something not a file is refused, naming it, and nothing is written.
    void companionLinksOutsideAreRefused_data()
    {
        QTest::addColumn<QString>("where");  // "checkpoint" or "parent"
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("words");
        QTest::addRow("absolute link to a key") << "checkpoint" << "tokenizer.json" << "absolute" << "outside";
        QTest::addRow("relative link out") << "checkpoint" << "vocab.json" << "relative" << "outside";
        QTest::addRow("link out, in the training folder") << "parent" << "tokenizer.model" << "relative" << "outside";
        QTest::addRow("config.json link out") << "checkpoint" << "config.json" << "absolute" << "outside";
        QTest::addRow("dangling link") << "checkpoint" << "merges.txt" << "dangling" << "broken link";
        QTest::addRow("link to a device") << "checkpoint" << "tokenizer.json" << "device" << "not a regular file";
        QTest::addRow("fifo") << "checkpoint" << "tokenizer.json" << "fifo" << "not a regular file";
    }
    void companionLinksOutsideAreRefused()
    {
        QFETCH(QString, where);
        QFETCH(QString, name);
        QFETCH(QString, kind);
        QFETCH(QString, words);
        QTemporaryDir tmp;
        const QString run = tmp.path() + QStringLiteral("/run"), dir = run + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python(kSharded, {dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out),
                 qPrintable(out));
        const QString secret = tmp.path() + QStringLiteral("/home/.ssh/id_rsa");
        writeSecret(secret);
        const CheckpointCandidate c = onlyCheckpoint(dir);
        QVERIFY(!c.root.isEmpty());
        const QString folder = where == QLatin1String("parent") ? QFileInfo(c.root).absolutePath() : c.root;
        const QString at = folder + QLatin1Char('/') + name;
        QFile::remove(at);
        const QByteArray link = QFile::encodeName(at);
        if (kind == QLatin1String("absolute"))
            QCOMPARE(::symlink(QFile::encodeName(secret).constData(), link.constData()), 0);
        else if (kind == QLatin1String("relative"))
            QCOMPARE(::symlink(QFile::encodeName(QDir(folder).relativeFilePath(secret)).constData(), link.constData()), 0);
        else if (kind == QLatin1String("dangling"))
            QCOMPARE(::symlink("no-such-file", link.constData()), 0);
        else if (kind == QLatin1String("device"))
            QCOMPARE(::symlink("/dev/zero", link.constData()), 0);
        else
            QCOMPARE(::mkfifo(link.constData(), 0600), 0);

        ConsolidateOptions o;
        o.output = tmp.path() + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(c, o);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.error.contains(name) && rep.error.contains(words), qPrintable(said(rep)));
        QVERIFY2(!rep.error.contains(QStringLiteral("id_rsa")), qPrintable(rep.error));  // where it leads is not echoed
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(stagingOf(o.output).isEmpty());
        for (const auto &[f, bytes] : contents(tmp.path()))
            QVERIFY2(f.startsWith(QLatin1String("home/")) || !bytes.contains("OPENSSH"), qPrintable(f));

        // Re-sharding copies the same files by the same rule (its planning reads config.json, and refuses one that
        // is not the model's config before anything is copied).
        ReshardOptions r;
        r.output = tmp.path() + QStringLiteral("/resharded");
        r.tpSize = 1;
        const ConsolidateReport back = reshard(planReshard(c, r), r);
        QVERIFY(!back.ok());
        QVERIFY2(said(back).contains(name) && (name == QLatin1String("config.json") || back.error.contains(words)), qPrintable(said(back)));
        QVERIFY(!QFileInfo::exists(r.output));
        QVERIFY(stagingOf(r.output).isEmpty());
    }

    // What push's rule allows is copied: a link that stays inside the checkpoint, and a link into the Hugging Face
    // hub cache (a base model in a hub snapshot); a private file stays private in the output.
    void companionLinksInsideAreCopied()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python(kSharded, {dir, QStringLiteral("ingot"), QStringLiteral("1"), QStringLiteral("1"), QStringLiteral("float32")}, &out),
                 qPrintable(out));
        const CheckpointCandidate c = onlyCheckpoint(dir);
        QVERIFY(!c.root.isEmpty());
        test::writeFile(c.root + QStringLiteral("/tok/tokenizer.json"), "{\"inside\": true}");
        QCOMPARE(::symlink("tok/tokenizer.json", QFile::encodeName(c.root + QStringLiteral("/tokenizer.json")).constData()), 0);
        const QString blob = tmp.path() + QStringLiteral("/hub/models--org--name/blobs/0123abcd");
        test::writeFile(blob, "{\"from\": \"the hub\"}");
        QCOMPARE(::symlink(QFile::encodeName(blob).constData(), QFile::encodeName(c.root + QStringLiteral("/vocab.json")).constData()), 0);
        writeSecret(c.root + QStringLiteral("/special_tokens_map.json"));  // 0600 in the checkpoint

        ConsolidateOptions o;
        o.output = tmp.path() + QStringLiteral("/out");
        const ConsolidateReport rep = consolidate(c, o);
        QVERIFY2(rep.ok(), qPrintable(said(rep)));
        QCOMPARE(test::readFile(o.output + QStringLiteral("/tokenizer.json")), QByteArray("{\"inside\": true}"));
        QCOMPARE(test::readFile(o.output + QStringLiteral("/vocab.json")), QByteArray("{\"from\": \"the hub\"}"));
        QVERIFY(!QFileInfo(o.output + QStringLiteral("/tokenizer.json")).isSymLink());
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(o.output + QStringLiteral("/special_tokens_map.json")).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600));  // never made readable by others
        QCOMPARE(::stat(QFile::encodeName(o.output + QStringLiteral("/config.json")).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0044, mode_t(0044));  // an ordinary file stays readable
    }

    // Merging an adapter: the base model's companions and the adapter's own files obey the same rule.
    void mergeAdapterLinksOutsideAreRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addRow("base tokenizer.json") << "base/tokenizer.json";
        QTest::addRow("adapter_config.json") << "adapter/adapter_config.json";
        QTest::addRow("adapter_model.safetensors") << "adapter/adapter_model.safetensors";
    }
    void mergeAdapterLinksOutsideAreRefused()
    {
        QFETCH(QString, file);
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/lm");
        QString out;
        QVERIFY2(python(kFormats, {dir, QStringLiteral("lora-merge"), QStringLiteral("float32")}, &out), qPrintable(out));
        // The file itself moved out of its folder (readable, the right format), a link left in its place.
        const QString at = dir + QLatin1Char('/') + file, away = tmp.path() + QStringLiteral("/elsewhere/") + QFileInfo(file).fileName();
        QDir().mkpath(QFileInfo(away).absolutePath());
        if (QFileInfo::exists(at))
            QVERIFY(QFile::rename(at, away));
        else
            writeSecret(away);
        QCOMPARE(::symlink(QFile::encodeName(away).constData(), QFile::encodeName(at).constData()), 0);

        const ConsolidationPlan plan = planAdapterMerge(dir + QStringLiteral("/base"), dir + QStringLiteral("/adapter"));
        ConsolidateOptions o;
        o.output = tmp.path() + QStringLiteral("/merged");
        const ConsolidateReport rep = consolidate(plan, o);
        QVERIFY(!rep.ok());
        QVERIFY2(said(rep).contains(QFileInfo(file).fileName()) && said(rep).contains(QStringLiteral("outside")), qPrintable(said(rep)));
        QVERIFY(!QFileInfo::exists(o.output));
    }

    // Item 2: the co-worker swaps the staging folder for a link to the victim's folder after the first tensor. The
    // run stops with words; the victim's folder is as it was; what the run wrote went into its own folder (moved
    // aside by the co-worker) and was removed from there.
    void stagingSwappedForALinkWritesNothingThere_data()
    {
        QTest::addColumn<bool>("pytorch");
        QTest::addRow("safetensors") << false;
        QTest::addRow("pytorch_model.bin") << true;
    }
    void stagingSwappedForALinkWritesNothingThere()
    {
        QFETCH(bool, pytorch);
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python(kSharded, {dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("1"), QStringLiteral("float32")}, &out),
                 qPrintable(out));
        const QString victim = tmp.path() + QStringLiteral("/victim"), moved = tmp.path() + QStringLiteral("/moved");
        test::writeFile(victim + QStringLiteral("/config.json"), "the victim's own config");
        const auto before = contents(victim);
        const ConsolidationPlan plan = planConsolidation(onlyCheckpoint(dir));
        QVERIFY2(plan.ok(), qPrintable(plan.problems.join(QLatin1Char('\n'))));

        ConsolidateOptions o;
        o.output = tmp.path() + QStringLiteral("/shared/out");
        o.maxShardBytes = 1;  // a file per tensor: most are created after the swap
        o.format = pytorch ? ConsolidateOptions::Format::PyTorch : ConsolidateOptions::Format::Safetensors;
        bool swapped = false;
        const ConsolidateReport rep = consolidate(plan, o, [&](const ConsolidateProgress &) {
            if (!swapped)
                swapped = swapForLink(o.output, moved, victim);
        });
        QVERIFY(swapped);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.error.contains(QStringLiteral("replaced")), qPrintable(said(rep)));
        QCOMPARE(contents(victim), before);
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(QFileInfo(moved).isDir());
        QVERIFY2(contents(moved).empty(), qPrintable(QDir(moved).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).join(QLatin1Char(' '))));
    }

    // Re-sharding the same: rank folders made after the swap (the second stage's) land in the run's own folder too.
    void reshardStagingSwappedForALinkWritesNothingThere()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/ck");
        QString out;
        QVERIFY2(python(kSharded, {dir, QStringLiteral("ingot"), QStringLiteral("2"), QStringLiteral("2"), QStringLiteral("float32"),
                                   QStringLiteral("optimizer")}, &out),
                 qPrintable(out));
        const QString victim = tmp.path() + QStringLiteral("/victim"), moved = tmp.path() + QStringLiteral("/moved");
        test::writeFile(victim + QStringLiteral("/training_args.json"), "{}");
        const auto before = contents(victim);
        ReshardOptions o;
        o.output = tmp.path() + QStringLiteral("/shared/resharded");
        o.tpSize = 1;
        o.ppSize = 2;
        const ReshardPlan plan = planReshard(onlyCheckpoint(dir), o);
        QVERIFY2(plan.problems.isEmpty(), qPrintable(plan.problems.join(QLatin1Char('\n'))));
        bool swapped = false;
        const ConsolidateReport rep = reshard(plan, o, [&](const ConsolidateProgress &) {
            if (!swapped)
                swapped = swapForLink(o.output, moved, victim);
        });
        QVERIFY(swapped);
        QVERIFY(!rep.ok());
        QVERIFY2(rep.error.contains(QStringLiteral("replaced")), qPrintable(said(rep)));
        QCOMPARE(contents(victim), before);
        QVERIFY(!QFileInfo::exists(o.output));
        QVERIFY(contents(moved).empty());
    }

    // Item 4: xser references to one tensor file count towards the shard's output bound like plain tensors do.
    void xserSharedReferencesAreBounded()
    {
        QTemporaryDir tmp;
        QString out;
        // A tie (one more name for the embeddings' file) is what xser writes for tied weights: fine.
        const QString tied = tmp.path() + QStringLiteral("/tied");
        QVERIFY2(python(kLinks, {tied, QStringLiteral("xser-shared"), QStringLiteral("1")}, &out), qPrintable(out));
        const QString rank0 = QStringLiteral("/shards/model/dp_rank_00_tp_rank_00_pp_rank_00.pt");
        ShardReader ok;
        QString error;
        QVERIFY2(ok.open(ShardFile{0, 0, -1, 0, tied + rank0, 0}, &error), qPrintable(error));
        QVERIFY(ok.isXser());
        const std::vector<std::string> names = ok.names();
        QVERIFY(std::find(names.begin(), names.end(), "model.embed_tokens_tied_0.weight") != names.end());
        std::string buf;
        qint64 size = 0;
        QVERIFY2(ok.read("model.embed_tokens_tied_0.weight", &buf, &size, &error), qPrintable(error));
        const std::string tiedBytes = buf;
        QVERIFY2(ok.read("model.embed_tokens.weight", &buf, &size, &error), qPrintable(error));
        QCOMPARE(buf, tiedBytes);

        // Ten thousand names for the same kilobyte file claim ten megabytes from well under a megabyte on disk.
        const QString hostile = tmp.path() + QStringLiteral("/hostile");
        QVERIFY2(python(kLinks, {hostile, QStringLiteral("xser-shared"), QStringLiteral("10000")}, &out), qPrintable(out));
        ShardReader bad;
        QVERIFY(!bad.open(ShardFile{0, 0, -1, 0, hostile + rank0, 0}, &error));
        QVERIFY2(error.contains(QStringLiteral("claim more than")), qPrintable(error));
        const ConsolidationPlan plan = planConsolidation(onlyCheckpoint(hostile));
        QVERIFY(!plan.ok());
        QVERIFY2(plan.problems.join(QLatin1Char(' ')).contains(QStringLiteral("claim more than")), qPrintable(plan.problems.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestCheckpointLinks)
#include "tst_checkpointlinks.moc"
