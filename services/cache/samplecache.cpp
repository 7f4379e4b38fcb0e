#include "services/cache/samplecache.h"

#include "services/cache/hlo.h"

#include "services/cache/compilerversion.h"
#include "services/util/errnotext.h"
#include "services/util/names.h"

#include "services/stores/localcachestore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {
// mkdir -p on bytes.
bool makePath(const QByteArray &path)
{
    for (qsizetype i = 1; i <= path.size(); ++i) {
        if (i < path.size() && path.at(i) != '/')
            continue;
        struct stat st {};
        if (::mkdir(path.left(i).constData(), 0755) != 0 && !(errno == EEXIST && ::stat(path.left(i).constData(), &st) == 0
                                                               && S_ISDIR(st.st_mode)))
            return false;
    }
    return true;
}

bool isEmptyOrMissing(const QByteArray &path)
{
    DIR *d = ::opendir(path.constData());
    if (!d)
        return errno == ENOENT;
    bool empty = true;
    while (const dirent *e = ::readdir(d))
        if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
            empty = false;
    ::closedir(d);
    return empty;
}

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

SampleCacheOptions shownSampleOptions()
{
    SampleCacheOptions o;
    o.modules = 60;
    o.seed = 7;
    return o;
}

QStringList sampleCompilerVersions()
{
    return {QStringLiteral("neuronxcc-2.12.68.0+4480452af"), QStringLiteral("neuronxcc-2.14.227.0+2d4f85be"),
            QStringLiteral("neuronxcc-2.15.128.0+56dc5a86")};
}

namespace {
// Writes one sample cache; every random draw happens in the same order as ever, so a seed gives the same cache.
class SampleBuilder final
{
public:
    SampleBuilder(const SampleCacheOptions &o, SampleCacheResult &res, const QString &root)
        : m_o(o)
        , m_res(res)
        , m_w{&res, {}, o.nowMs > 0 ? o.nowMs : QDateTime::currentMSecsSinceEpoch()}
        , m_root(nameToBytes(root))  // a name that is not UTF-8 keeps its bytes
        , m_linkBase(nameToBytes(o.linkBase.isEmpty() ? root + QStringLiteral(".links") : o.linkBase))
        , m_blobs(m_linkBase + "/huggingface/hub/models--aws-neuron--optimum-neuron-cache/blobs")
        , m_rng(o.seed)
        , m_versions(sampleCompilerVersions())
    {
    }

    bool write(QString *error)
    {
        const bool ok = writeVersionFolders() && writeModules() && (!m_o.oddEntries || writeOddEntries());
        if (!ok)
            *error = m_w.error;
        return ok;
    }

private:
    double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(m_rng); }

    bool writeVersionFolders()
    {
        if (m_o.hubLinks || m_o.oddEntries)
            makePath(m_blobs);
        for (const QString &v : m_versions)
            if (!m_w.mkdirs(m_root + '/' + QFile::encodeName(v)))
                return false;
        // Shared Hub blobs: two linked modules point at the same neff blob, which must be counted once.
        if (m_o.hubLinks) {
            m_sharedNeffBlob = m_blobs + "/" + QCryptographicHash::hash("neff-shared", QCryptographicHash::Sha256).toHex();
            m_w.file(m_sharedNeffBlob, 350 * 1000 * 1000, "NEFF", false);
        }
        return true;
    }

    bool writeModules()
    {
        for (int i = 0; i < m_o.modules; ++i)
            if (!writeModule(i))
                return false;
        return true;
    }

    // Three name forms: a decimal training hash, a 20-hex inference hash (both with the flags hash), a traced one.
    QByteArray moduleName(const QStringList &flags)
    {
        const double form = uniform(0, 1);
        if (form < 0.6)
            return "MODULE_" + QByteArray::number(quint64(m_rng())) + '+' + flagsHash(flags);
        if (form < 0.9)
            return "MODULE_" + QByteArray::number(quint64(m_rng()), 16).rightJustified(16, '0').left(16) +
                   QByteArray::number(quint64(m_rng() % 0xfffff), 16).rightJustified(4, '0').left(4) + '+' + flagsHash(flags);
        return "MODULE_" + QByteArray::number(quint64(m_rng()));
    }

    struct ModuleFiles {
        int index = 0;
        QString version;
        QByteArray dir, hlo, flagsFile, flagsContent;
        QStringList flags;
        bool writesDone = false;
        qint64 hloSize = 0, neffSize = 0;
        QList<QByteArray> touched;  // files whose times are set afterwards
    };

    // A real HLO module (the rest of the file is zeros a reader skips): the shapes a Llama training step has, drawn
    // from the entry's number, so that neighbours differ in sequence length, batch or tensor-parallel degree.
    static QByteArray sampleHlo(int i, qint64 size)
    {
        static const int seqs[] = {512, 1024, 2048, 4096};
        static const int batches[] = {1, 4, 8};
        const int seq = seqs[i % 4], batch = batches[(i / 4) % 3], tp = (i / 12) % 2 ? 32 : 8;
        HloSketch h;
        h.name = QStringLiteral("SyncTensorsGraph.%1").arg(100 + i % 7);
        h.parameters = {QStringLiteral("s64[%1,%2]").arg(batch).arg(seq), QStringLiteral("s64[%1,%2]").arg(batch).arg(seq),
                        QStringLiteral("bf16[%1,4096]").arg(32000 / tp), QStringLiteral("bf16[%1,4096]").arg(12288 / tp)};
        h.parameterNames = {QStringLiteral("input_ids"), QStringLiteral("labels"), QStringLiteral("embed_tokens.weight"),
                            QStringLiteral("qkv_proj.weight")};
        h.result = QStringLiteral("(f32[], bf16[%1,4096])").arg(12288 / tp);
        h.instructions = 40 + i % 13;
        h.allReduces = 4;
        h.groupSize = tp;
        h.devices = 32;
        return writeHloModule(h, size);
    }

    bool writeModule(int i)
    {
        // Newer versions hold more entries, as in a real cache that has been upgraded.
        const double pick = uniform(0, 1);
        const int vi = pick < 0.15 ? 0 : pick < 0.4 ? 1 : 2;
        ModuleFiles m;
        m.index = i;
        m.version = m_versions[vi];
        const bool oldNames = vi == 0;
        m.writesDone = CompilerVersion::parse(m.version).writesDoneMarker();
        m.flags = kFlagSets[int(m_rng() % quint64(kFlagSets.size()))];
        const QByteArray name = moduleName(m.flags);
        m.dir = m_root + '/' + QFile::encodeName(m.version) + '/' + name;
        if (!m_w.mkdirs(m.dir))
            return false;
        // Age: most entries recent, a long tail of old ones.
        const double ageDays = std::pow(uniform(0, 1), 2.2) * 200.0;
        const qint64 created = m_w.nowMs - qint64(ageDays * 86400000.0) - qint64(uniform(0, 3) * 86400000.0);
        const qint64 used = std::max(created, m_w.nowMs - qint64(ageDays * 86400000.0));
        m.hlo = m.dir + (oldNames ? "/model.hlo.pb" : "/model.hlo_module.pb");
        m.flagsFile = m.dir + (oldNames ? "/compile_flags.txt" : "/compile_flags.json");
        m.flagsContent = oldNames ? m.flags.join(QLatin1Char(' ')).toUtf8() : flagsJson(m.flags);
        const double s = uniform(0, 1);
        m.hloSize = qint64(uniform(40e3, 6e6));
        m.neffSize = qint64(uniform(double(m_o.minNeffBytes), double(m_o.maxNeffBytes)) * uniform(0.2, 1.0));
        ModuleState state = ModuleState::Empty;
        if (!writeModuleFiles(m, s, &state) || !writeExtraFiles(m, state))
            return false;
        for (const QByteArray &f : std::as_const(m.touched))
            Writer::times(f, f.endsWith("model.neff") ? used : created, created);
        Writer::times(m.dir, created, created);
        ++m_res.modules;
        ++m_res.perState[int(state)];
        return true;
    }

    // The files of one entry in the state `s` draws: linked from the Hub, success, failed, locked, incomplete, empty.
    bool writeModuleFiles(ModuleFiles &m, double s, ModuleState *state)
    {
        if (m_o.hubLinks && s < 0.05) {
            *state = ModuleState::Success;
            return writeHubLinkedModule(m);
        }
        auto basics = [&] {
            m.touched << m.hlo << m.flagsFile;
            return m_w.file(m.hlo, m.hloSize, sampleHlo(m.index, m.hloSize)) && m_w.file(m.flagsFile, 0, m.flagsContent);
        };
        if (s < 0.75) {
            *state = ModuleState::Success;
            bool ok = basics() && m_w.file(m.dir + "/model.neff", m.neffSize, "NEFF");
            m.touched << m.dir + "/model.neff";
            if (m.writesDone) {
                ok = ok && m_w.file(m.dir + "/model.done", 0);
                m.touched << m.dir + "/model.done";
            }
            return ok;
        }
        if (s < 0.85) {
            *state = ModuleState::Failed;
            m.touched << m.dir + "/model.log";
            return basics() && m_w.file(m.dir + "/model.log", 0,
                                         QByteArray(kFailLog).replace("2.15.128.0+56dc5a86", m.version.mid(10).toUtf8()));
        }
        if (s < 0.91) {
            *state = ModuleState::Locked;
            const QByteArray lock = m.hlo + ".lock";
            m.touched << lock;
            return basics() && m_w.file(lock, 0);
        }
        if (s < 0.97) {
            *state = ModuleState::Incomplete;
            return basics();
        }
        *state = ModuleState::Empty;
        return true;
    }

    // Pulled from the Hub by optimum-neuron: every file a link into the blob cache.
    bool writeHubLinkedModule(const ModuleFiles &m)
    {
        bool ok = true;
        const QByteArray tag = QByteArray::number(m.index);
        auto blob = [&](const char *what, qint64 size, const QByteArray &content) {
            const QByteArray b = m_blobs + '/' + QCryptographicHash::hash(QByteArray(tag + what), QCryptographicHash::Sha256).toHex();
            ok = ok && m_w.file(b, size, content, false);
            return b;
        };
        ok = ok && m_w.link((m.index % 2) ? m_sharedNeffBlob : blob("neff", m.neffSize, "NEFF"), m.dir + "/model.neff");
        ok = ok && m_w.link(blob("hlo", m.hloSize, "HLO"), m.hlo);
        ok = ok && m_w.link(blob("flags", 0, flagsJson(m.flags)), m.dir + "/compile_flags.json");
        if (m.writesDone)
            ok = ok && m_w.link(blob("done", 0, {}), m.dir + "/model.done");
        return ok;
    }

    bool writeExtraFiles(ModuleFiles &m, ModuleState state)
    {
        bool ok = true;
        for (int x = 0; ok && x < m_o.extraFiles && state != ModuleState::Empty; ++x) {
            const QByteArray extra = m.dir + "/extra_" + QByteArray::number(x) + ".txt";
            ok = m_w.file(extra, 200);
            m.touched << extra;
        }
        return ok;
    }

    // Odd names, broken links, links outside the root and things the compiler never writes.
    bool writeOddEntries()
    {
        const QByteArray v = m_root + '/' + QFile::encodeName(m_versions.last());
        bool ok = true;
        // Names with spaces and non-ASCII characters, both compiled fine.
        for (const char *odd : {"MODULE_with space+d41d8cd9", "MODULE_ünïcödé+d41d8cd9"}) {
            const QByteArray d = v + '/' + odd;
            ok = ok && m_w.mkdirs(d) && m_w.file(d + "/model.hlo_module.pb", 120000) &&
                 m_w.file(d + "/compile_flags.json", 0, "[]") && m_w.file(d + "/model.neff", 42 * 1000 * 1000, "NEFF") &&
                 m_w.file(d + "/model.done", 0);
            count(ModuleState::Success);
        }
        // A broken link where the neff should be, and a flags file linked to a place outside the root.
        const QByteArray broken = v + "/MODULE_11111111111111111111+d41d8cd9";
        ok = ok && m_w.mkdirs(broken) && m_w.file(broken + "/model.hlo_module.pb", 90000) &&
             m_w.link(m_blobs + "/0000000000000000000000000000000000000000000000000000000000000000", broken + "/model.neff");
        count(ModuleState::Incomplete);
        const QByteArray outside = m_linkBase + "/elsewhere";
        ok = ok && m_w.mkdirs(m_linkBase) && m_w.mkdirs(outside) &&
             m_w.file(outside + "/shared_flags.json", 0, "[\"--model-type=transformer\"]", false);
        const QByteArray linked = v + "/MODULE_22222222222222222222+a3b0b0e5";
        ok = ok && m_w.mkdirs(linked) && m_w.file(linked + "/model.hlo_module.pb", 70000) &&
             m_w.link(outside + "/shared_flags.json", linked + "/compile_flags.json") &&
             m_w.file(linked + "/model.neff", 12 * 1000 * 1000, "NEFF") && m_w.file(linked + "/model.done", 0);
        count(ModuleState::Success);
        // Things the compiler never writes: listed as unknown, never deleted by Ingot.
        ok = ok && m_w.file(m_root + "/README.txt", 0, "Notes about this cache.\n") && m_w.mkdirs(m_root + "/scratch space") &&
             m_w.file(v + "/compile.tmp", 4096) && m_w.mkdirs(v + "/0_REGISTRY");
        return ok && m_w.link(outside, m_root + "/linked-elsewhere");
    }

    void count(ModuleState state)
    {
        ++m_res.modules;
        ++m_res.perState[int(state)];
    }

    inline static const QList<QStringList> kFlagSets = {
        {},
        {QStringLiteral("--model-type=transformer"), QStringLiteral("--distribution-strategy=llm-training")},
        {QStringLiteral("--model-type=transformer"), QStringLiteral("-O1"), QStringLiteral("--enable-saturate-infinity")},
        {QStringLiteral("--auto-cast=none"), QStringLiteral("--model-type=transformer"), QStringLiteral("--target=trn1")},
    };

    const SampleCacheOptions &m_o;
    SampleCacheResult &m_res;
    Writer m_w;
    const QByteArray m_root;
    const QByteArray m_linkBase;
    const QByteArray m_blobs;
    std::mt19937_64 m_rng;
    const QStringList m_versions;
    QByteArray m_sharedNeffBlob;
};
}  // namespace

bool writeSampleCache(const QString &rootPath, const SampleCacheOptions &o, SampleCacheResult *result, QString *error)
{
    SampleCacheResult local;
    SampleCacheResult &res = result ? *result : local;
    res = SampleCacheResult();
    const QString root = QDir::cleanPath(QDir(rootPath).absolutePath());
    const QByteArray rootBytes = nameToBytes(root);  // names are bytes: QDir would turn undecodable ones into U+FFFD
    if (!isEmptyOrMissing(rootBytes)) {
        *error = SampleText::tr("%1 already holds files; the sample cache is only written into an empty folder.").arg(root);
        return false;
    }
    if (!makePath(rootBytes)) {
        *error = SampleText::tr("Cannot create %1.").arg(root);
        return false;
    }
    return SampleBuilder(o, res, root).write(error);
}

}  // namespace ingot
