#include "services/cache/samplecache.h"

#include "services/cache/compilerversion.h"
#include "services/util/errnotext.h"

#include "services/stores/localcachestore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct SampleText {
    Q_DECLARE_TR_FUNCTIONS(ingot::SampleCache)
};

struct Writer {
    SampleCacheResult *res;
    QString error;
    qint64 nowMs;

    bool mkdirs(const QByteArray &p)
    {
        if (::mkdir(p.constData(), 0755) == 0 || errno == EEXIST)
            return true;
        error = SampleText::tr("Cannot create %1: %2.").arg(QFile::decodeName(p), describeErrno(errno));
        return false;
    }
    // A file of `size` apparent bytes; `content` written at the start, the rest left sparse.
    bool file(const QByteArray &path, qint64 size, const QByteArray &content = {}, bool counted = true)
    {
        const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            error = SampleText::tr("Cannot create %1: %2.").arg(QFile::decodeName(path), describeErrno(errno));
            return false;
        }
        bool ok = true;
        if (!content.isEmpty())
            ok = ::write(fd, content.constData(), size_t(content.size())) == content.size();
        if (ok && size > content.size())
            ok = ::ftruncate(fd, off_t(size)) == 0;
        const int e = errno;
        ::close(fd);
        if (!ok) {
            error = SampleText::tr("Cannot write %1: %2.").arg(QFile::decodeName(path), describeErrno(e));
            return false;
        }
        if (counted) {
            ++res->files;
            res->bytes += std::max<qint64>(size, content.size());
        }
        return true;
    }
    bool link(const QByteArray &target, const QByteArray &path)
    {
        if (::symlink(target.constData(), path.constData()) == 0)
            return true;
        error = SampleText::tr("Cannot create the link %1: %2.").arg(QFile::decodeName(path), describeErrno(errno));
        return false;
    }
    static void times(const QByteArray &path, qint64 atimeMs, qint64 mtimeMs)
    {
        struct timespec ts[2];
        ts[0].tv_sec = time_t(atimeMs / 1000);
        ts[0].tv_nsec = long((atimeMs % 1000) * 1000000);
        ts[1].tv_sec = time_t(mtimeMs / 1000);
        ts[1].tv_nsec = long((mtimeMs % 1000) * 1000000);
        ::utimensat(AT_FDCWD, path.constData(), ts, AT_SYMLINK_NOFOLLOW);
    }
};

QByteArray flagsJson(const QStringList &flags)
{
    QByteArray out = "[";
    for (int i = 0; i < flags.size(); ++i) {
        if (i)
            out += ", ";
        out += '"' + flags[i].toUtf8() + '"';
    }
    return out + "]";
}

QByteArray flagsHash(const QStringList &flags)
{
    return QCryptographicHash::hash(flags.join(QLatin1Char(' ')).toUtf8(), QCryptographicHash::Md5).toHex().left(8);
}

const char *kFailLog =
    "2026-10-30 09:14:02.000318:  1739  ERROR ||NEURON_CC_WRAPPER||: Failed compilation with ['neuronx-cc', "
    "'compile', '--framework=XLA', '/tmp/ubuntu/neuroncc_compile_workdir/model.hlo_module.pb', '--output', "
    "'model.neff', '--target=trn1', '--model-type=transformer']: 2026-10-30T09:14:01Z [TEN404] Internal tensorizer "
    "error: Tensorizer pass failed\n"
    "2026-10-30T09:14:01Z [XCG815] Estimated peak HBM usage (18.2 GB) exceeds 16 GB. Neff won't be able to load on "
    "chip.\n"
    "2026-10-30T09:14:01Z Diagnostic information:\n"
    "  NeuronX Compiler version 2.15.128.0+56dc5a86\n"
    "  Python version 3.10.12\n"
    "  HWM version 2.15.0.0-0\n"
    "  NumPy version 1.25.2\n"
    "  Running on AMI ami-0f1a2b3c4d5e6f708\n"
    "  Running in region use1-az6\n"
    "2026-10-30T09:14:01Z Diagnostic logs stored in /tmp/ubuntu/neuroncc_compile_workdir/log-neuron-cc.txt\n"
    "2026-10-30 09:14:02.000321:  1739  ERROR ||NEURON_CC_WRAPPER||: Compilation failed for "
    "/tmp/ubuntu/neuroncc_compile_workdir/model.hlo_module.pb after 0 retries.\n";
}  // namespace

QStringList sampleCompilerVersions()
{
    return {QStringLiteral("neuronxcc-2.12.68.0+4480452af"), QStringLiteral("neuronxcc-2.14.227.0+2d4f85be"),
            QStringLiteral("neuronxcc-2.15.128.0+56dc5a86")};
}

bool writeSampleCache(const QString &rootPath, const SampleCacheOptions &o, SampleCacheResult *result, QString *error)
{
    SampleCacheResult local;
    SampleCacheResult &res = result ? *result : local;
    res = SampleCacheResult();
    Writer w{&res, {}, o.nowMs > 0 ? o.nowMs : QDateTime::currentMSecsSinceEpoch()};
    const QString root = QDir::cleanPath(QDir(rootPath).absolutePath());
    if (QDir(root).exists() && !QDir(root).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)) {
        *error = SampleText::tr("%1 already holds files; the sample cache is only written into an empty folder.").arg(root);
        return false;
    }
    if (!QDir().mkpath(root)) {
        *error = SampleText::tr("Cannot create %1.").arg(root);
        return false;
    }
    const QByteArray r = QFile::encodeName(root);
    const QByteArray linkBase = QFile::encodeName(o.linkBase.isEmpty() ? root + QStringLiteral(".links") : o.linkBase);
    const QByteArray blobs = linkBase + "/huggingface/hub/models--aws-neuron--optimum-neuron-cache/blobs";
    if (o.hubLinks || o.oddEntries)
        QDir().mkpath(QFile::decodeName(blobs));

    std::mt19937_64 rng(o.seed);
    auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
    const QStringList versions = sampleCompilerVersions();
    const QList<QStringList> flagSets = {
        {},
        {QStringLiteral("--model-type=transformer"), QStringLiteral("--distribution-strategy=llm-training")},
        {QStringLiteral("--model-type=transformer"), QStringLiteral("-O1"), QStringLiteral("--enable-saturate-infinity")},
        {QStringLiteral("--auto-cast=none"), QStringLiteral("--model-type=transformer"), QStringLiteral("--target=trn1")},
    };
    for (const QString &v : versions)
        if (!w.mkdirs(r + '/' + QFile::encodeName(v))) {
            *error = w.error;
            return false;
        }

    // Shared Hub blobs: two linked modules point at the same neff blob, which must be counted once.
    QByteArray sharedNeffBlob;
    if (o.hubLinks) {
        sharedNeffBlob = blobs + "/" + QCryptographicHash::hash("neff-shared", QCryptographicHash::Sha256).toHex();
        w.file(sharedNeffBlob, 350 * 1000 * 1000, "NEFF", false);
    }

    for (int i = 0; i < o.modules; ++i) {
        // Newer versions hold more entries, as in a real cache that has been upgraded.
        const double pick = uniform(0, 1);
        const int vi = pick < 0.15 ? 0 : pick < 0.4 ? 1 : 2;
        const QString &version = versions[vi];
        const bool oldNames = vi == 0;
        const bool writesDone = CompilerVersion::parse(version).writesDoneMarker();
        const QStringList &flags = flagSets[int(rng() % quint64(flagSets.size()))];
        const double form = uniform(0, 1);
        QByteArray name;
        if (form < 0.6)
            name = "MODULE_" + QByteArray::number(quint64(rng())) + '+' + flagsHash(flags);
        else if (form < 0.9)
            name = "MODULE_" + QByteArray::number(quint64(rng()), 16).rightJustified(16, '0').left(16) +
                   QByteArray::number(quint64(rng() % 0xfffff), 16).rightJustified(4, '0').left(4) + '+' + flagsHash(flags);
        else
            name = "MODULE_" + QByteArray::number(quint64(rng()));
        const QByteArray dir = r + '/' + QFile::encodeName(version) + '/' + name;
        if (!w.mkdirs(dir)) {
            *error = w.error;
            return false;
        }
        // Age: most entries recent, a long tail of old ones.
        const double ageDays = std::pow(uniform(0, 1), 2.2) * 200.0;
        const qint64 created = w.nowMs - qint64(ageDays * 86400000.0) - qint64(uniform(0, 3) * 86400000.0);
        const qint64 used = std::max(created, w.nowMs - qint64(ageDays * 86400000.0));
        const QByteArray hlo = dir + (oldNames ? "/model.hlo.pb" : "/model.hlo_module.pb");
        const QByteArray flagsFile = dir + (oldNames ? "/compile_flags.txt" : "/compile_flags.json");
        const QByteArray flagsContent = oldNames ? flags.join(QLatin1Char(' ')).toUtf8() : flagsJson(flags);
        const double s = uniform(0, 1);
        ModuleState state;
        bool ok = true;
        const qint64 hloSize = qint64(uniform(40e3, 6e6));
        const qint64 neffSize = qint64(uniform(double(o.minNeffBytes), double(o.maxNeffBytes)) * uniform(0.2, 1.0));
        QList<QByteArray> touched;
        if (o.hubLinks && s < 0.05) {
            // Pulled from the Hub by optimum-neuron: every file a link into the blob cache.
            state = ModuleState::Success;
            const QByteArray tag = QByteArray::number(i);
            auto blob = [&](const char *what, qint64 size, const QByteArray &content) {
                const QByteArray b = blobs + '/' + QCryptographicHash::hash(QByteArray(tag + what), QCryptographicHash::Sha256).toHex();
                ok = ok && w.file(b, size, content, false);
                return b;
            };
            ok = ok && w.link((i % 2) ? sharedNeffBlob : blob("neff", neffSize, "NEFF"), dir + "/model.neff");
            ok = ok && w.link(blob("hlo", hloSize, "HLO"), hlo);
            ok = ok && w.link(blob("flags", 0, flagsJson(flags)), dir + "/compile_flags.json");
            if (writesDone)
                ok = ok && w.link(blob("done", 0, {}), dir + "/model.done");
        } else if (s < 0.75) {
            state = ModuleState::Success;
            ok = ok && w.file(hlo, hloSize) && w.file(flagsFile, 0, flagsContent) &&
                 w.file(dir + "/model.neff", neffSize, "NEFF");
            touched << hlo << flagsFile << dir + "/model.neff";
            if (writesDone) {
                ok = ok && w.file(dir + "/model.done", 0);
                touched << dir + "/model.done";
            }
        } else if (s < 0.85) {
            state = ModuleState::Failed;
            ok = ok && w.file(hlo, hloSize) && w.file(flagsFile, 0, flagsContent) &&
                 w.file(dir + "/model.log", 0, QByteArray(kFailLog).replace("2.15.128.0+56dc5a86", version.mid(10).toUtf8()));
            touched << hlo << flagsFile << dir + "/model.log";
        } else if (s < 0.91) {
            state = ModuleState::Locked;
            const QByteArray lock = hlo + ".lock";
            ok = ok && w.file(hlo, hloSize) && w.file(flagsFile, 0, flagsContent) && w.file(lock, 0);
            touched << hlo << flagsFile << lock;
        } else if (s < 0.97) {
            state = ModuleState::Incomplete;
            ok = ok && w.file(hlo, hloSize) && w.file(flagsFile, 0, flagsContent);
            touched << hlo << flagsFile;
        } else {
            state = ModuleState::Empty;
        }
        for (int x = 0; ok && x < o.extraFiles && state != ModuleState::Empty; ++x) {
            const QByteArray extra = dir + "/extra_" + QByteArray::number(x) + ".txt";
            ok = w.file(extra, 200);
            touched << extra;
        }
        if (!ok) {
            *error = w.error;
            return false;
        }
        for (const QByteArray &f : std::as_const(touched))
            Writer::times(f, f.endsWith("model.neff") ? used : created, created);
        Writer::times(dir, created, created);
        ++res.modules;
        ++res.perState[int(state)];
    }

    if (o.oddEntries) {
        const QByteArray v = r + '/' + QFile::encodeName(versions.last());
        bool ok = true;
        // Names with spaces and non-ASCII characters, both compiled fine.
        for (const char *odd : {"MODULE_with space+d41d8cd9", "MODULE_ünïcödé+d41d8cd9"}) {
            const QByteArray d = v + '/' + odd;
            ok = ok && w.mkdirs(d) && w.file(d + "/model.hlo_module.pb", 120000) &&
                 w.file(d + "/compile_flags.json", 0, "[]") && w.file(d + "/model.neff", 42 * 1000 * 1000, "NEFF") &&
                 w.file(d + "/model.done", 0);
            ++res.modules;
            ++res.perState[int(ModuleState::Success)];
        }
        // A broken link where the neff should be, and a flags file linked to a place outside the root.
        const QByteArray broken = v + "/MODULE_11111111111111111111+d41d8cd9";
        ok = ok && w.mkdirs(broken) && w.file(broken + "/model.hlo_module.pb", 90000) &&
             w.link(blobs + "/0000000000000000000000000000000000000000000000000000000000000000", broken + "/model.neff");
        ++res.modules;
        ++res.perState[int(ModuleState::Incomplete)];
        const QByteArray outside = linkBase + "/elsewhere";
        ok = ok && w.mkdirs(linkBase) && w.mkdirs(outside) && w.file(outside + "/shared_flags.json", 0, "[\"--model-type=transformer\"]", false);
        const QByteArray linked = v + "/MODULE_22222222222222222222+a3b0b0e5";
        ok = ok && w.mkdirs(linked) && w.file(linked + "/model.hlo_module.pb", 70000) &&
             w.link(outside + "/shared_flags.json", linked + "/compile_flags.json") &&
             w.file(linked + "/model.neff", 12 * 1000 * 1000, "NEFF") && w.file(linked + "/model.done", 0);
        ++res.modules;
        ++res.perState[int(ModuleState::Success)];
        // Things the compiler never writes: listed as unknown, never deleted by Ingot.
        ok = ok && w.file(r + "/README.txt", 0, "Notes about this cache.\n") && w.mkdirs(r + "/scratch space") &&
             w.file(v + "/compile.tmp", 4096) && w.mkdirs(v + "/0_REGISTRY");
        ok = ok && w.link(outside, r + "/linked-elsewhere");
        if (!ok) {
            *error = w.error;
            return false;
        }
    }
    return true;
}

}  // namespace ingot
