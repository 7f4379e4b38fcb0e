#include "services/fleet/gclog.h"

#include "services/util/atomicfile.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/format.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {

struct GcLogText {
    Q_DECLARE_TR_FUNCTIONS(ingot::GcLog)
};

constexpr qint64 kReadTail = qint64(8) << 20;

QJsonObject placeJson(const GcPlaceResult &p)
{
    QJsonObject o{{QStringLiteral("place"), p.place}, {QStringLiteral("kind"), p.kind}, {QStringLiteral("shown"), p.shown},
                  {QStringLiteral("reached"), p.reached}, {QStringLiteral("planned"), p.planned},
                  {QStringLiteral("removed"), p.removed}, {QStringLiteral("skipped"), p.skipped},
                  {QStringLiteral("failed"), p.failed}, {QStringLiteral("planned_bytes"), double(p.plannedBytes)},
                  {QStringLiteral("freed_bytes"), double(p.freedBytes)}};
    if (!p.error.isEmpty())
        o.insert(QStringLiteral("error"), p.error);
    return o;
}

bool placeFromJson(const QJsonObject &o, GcPlaceResult *p)
{
    if (!o.value(QStringLiteral("place")).isString())
        return false;
    p->place = o.value(QStringLiteral("place")).toString();
    p->kind = o.value(QStringLiteral("kind")).toString();
    p->shown = o.value(QStringLiteral("shown")).toString();
    p->reached = o.value(QStringLiteral("reached")).toBool();
    p->error = o.value(QStringLiteral("error")).toString();
    p->planned = o.value(QStringLiteral("planned")).toInt();
    p->removed = o.value(QStringLiteral("removed")).toInt();
    p->skipped = o.value(QStringLiteral("skipped")).toInt();
    p->failed = o.value(QStringLiteral("failed")).toInt();
    p->plannedBytes = qint64(o.value(QStringLiteral("planned_bytes")).toDouble());
    p->freedBytes = qint64(o.value(QStringLiteral("freed_bytes")).toDouble());
    return true;
}

// The file's lines, at most its last kReadTail bytes (a first partial line dropped).
QList<QByteArray> readLines(int fd)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size <= 0)
        return {};
    const qint64 from = std::max<qint64>(0, qint64(st.st_size) - kReadTail);
    QByteArray data(int(qint64(st.st_size) - from), Qt::Uninitialized);
    if (!readAllAt(fd, data.data(), std::size_t(data.size()), std::uint64_t(from)))
        return {};
    QList<QByteArray> lines = data.split('\n');
    if (from > 0 && !lines.isEmpty())
        lines.removeFirst();
    lines.removeAll(QByteArray());
    return lines;
}

}  // namespace

qint64 GcRun::freedBytes() const
{
    qint64 n = 0;
    for (const GcPlaceResult &p : places)
        n += p.freedBytes;
    return n;
}

int GcRun::unreachable() const
{
    return int(std::count_if(places.begin(), places.end(), [](const GcPlaceResult &p) { return !p.reached; }));
}

QString GcRun::summary() const
{
    qint64 planned = 0;
    for (const GcPlaceResult &p : places)
        planned += p.plannedBytes;
    QString s = GcLogText::tr("%n place(s)", nullptr, int(places.size()));
    s += dryRun ? GcLogText::tr(", %1 would be freed").arg(formatBytes(planned))
                : GcLogText::tr(", %1 freed").arg(formatBytes(freedBytes()));
    if (const int u = unreachable())
        s += GcLogText::tr(", %n unreachable", nullptr, u);
    return s;
}

QJsonObject GcRun::toJson() const
{
    QJsonArray a;
    for (const GcPlaceResult &p : places)
        a.append(placeJson(p));
    return {{QStringLiteral("ingot_gc_run"), 1},
            {QStringLiteral("started_ms"), double(startedMs)},
            {QStringLiteral("finished_ms"), double(finishedMs)},
            {QStringLiteral("policy"), policy},
            {QStringLiteral("trigger"), trigger},
            {QStringLiteral("dry_run"), dryRun},
            {QStringLiteral("freed_bytes"), double(freedBytes())},
            {QStringLiteral("places"), a}};
}

bool GcRun::fromJson(const QJsonObject &o, GcRun *out)
{
    if (o.value(QStringLiteral("ingot_gc_run")).toInt() != 1 || !o.value(QStringLiteral("places")).isArray())
        return false;
    GcRun r;
    r.startedMs = qint64(o.value(QStringLiteral("started_ms")).toDouble());
    r.finishedMs = qint64(o.value(QStringLiteral("finished_ms")).toDouble());
    r.policy = o.value(QStringLiteral("policy")).toString();
    r.trigger = o.value(QStringLiteral("trigger")).toString();
    r.dryRun = o.value(QStringLiteral("dry_run")).toBool();
    const QJsonArray a = o.value(QStringLiteral("places")).toArray();
    for (const QJsonValue &v : a) {
        GcPlaceResult p;
        if (!placeFromJson(v.toObject(), &p))
            return false;
        r.places << p;
    }
    *out = r;
    return true;
}

QString gcLogPath()
{
    const QString forced = qEnvironmentVariable("INGOT_GC_LOG");
    if (!forced.isEmpty())
        return forced;
    if (QStandardPaths::isTestModeEnabled())
        return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/cache-gc.log");
    QString state = qEnvironmentVariable("XDG_STATE_HOME");
    if (state.isEmpty() || !QDir::isAbsolutePath(state))
        state = QDir::homePath() + QStringLiteral("/.local/state");
    return state + QStringLiteral("/ingot/cache-gc.log");
}

bool appendGcRun(const GcRun &run, QString *error)
{
    const QString path = gcLogPath();
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder)) {
        *error = GcLogText::tr("cannot make %1").arg(folder);
        return false;
    }
    // Writers take the lock file beside the log, not the log itself: a trimmed log is a new file (renamed into place),
    // and a writer waiting on the old one would append to a file no longer there.
    const QString lockPath = path + QStringLiteral(".lock");
    const int lockFd = ::open(QFile::encodeName(lockPath).constData(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (lockFd < 0 || ::flock(lockFd, LOCK_EX) != 0) {
        *error = GcLogText::tr("cannot lock %1: %2").arg(lockPath, describeErrno(errno));
        if (lockFd >= 0)
            ::close(lockFd);
        return false;
    }
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = GcLogText::tr("cannot open %1: %2").arg(path, describeErrno(errno));
        ::close(lockFd);
        return false;
    }
    QList<QByteArray> lines = readLines(fd);
    const QByteArray line = QJsonDocument(run.toJson()).toJson(QJsonDocument::Compact) + '\n';
    bool ok = true;
    if (lines.size() + 1 > GcRun::kMaxRuns) {  // keep the newest: the log rewritten whole
        lines = lines.mid(lines.size() + 1 - GcRun::kMaxRuns);
        ok = writeFileAtomically(path, lines.join('\n') + '\n' + line, error, true);
    } else if (!writeAll(fd, line.constData(), std::size_t(line.size()))) {
        *error = GcLogText::tr("cannot write %1: %2").arg(path, describeErrno(errno));
        ok = false;
    }
    ::close(fd);
    ::close(lockFd);
    return ok;
}

QVector<GcRun> readGcRuns(int newest, QString *error)
{
    QVector<GcRun> out;
    const QString path = gcLogPath();
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT && error)
            *error = GcLogText::tr("cannot open %1: %2").arg(path, describeErrno(errno));
        return out;
    }
    const QList<QByteArray> lines = readLines(fd);
    ::close(fd);
    for (auto it = lines.crbegin(); it != lines.crend() && out.size() < newest; ++it) {
        GcRun r;
        if (GcRun::fromJson(QJsonDocument::fromJson(*it).object(), &r))
            out << r;
    }
    return out;
}

}  // namespace ingot
