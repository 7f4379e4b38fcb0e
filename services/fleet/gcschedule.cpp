#include "services/fleet/gcschedule.h"

#include "services/cache/cachepolicy.h"
#include "services/fleet/fleetplaces.h"
#include "services/util/errnotext.h"
#include "services/util/fdio.h"
#include "services/util/names.h"
#include "services/util/processrun.h"
#include "services/util/shellquote.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QUrl>

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ingot {

namespace {

struct GcScheduleText {
    Q_DECLARE_TR_FUNCTIONS(ingot::GcSchedule)
};

const QString kUnitPrefix = QStringLiteral("ingot-gc-");
// The mark of a unit Ingot wrote: only such units are read back, rewritten or removed.
const QString kMark = QStringLiteral("X-Ingot-Schedule=1");
constexpr qint64 kMaxUnitBytes = 64 * 1024;
constexpr int kMaxSchedules = 256;
constexpr int kSystemctlMs = 20000;

bool hasControl(const QString &s)
{
    return std::any_of(s.begin(), s.end(), [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
}

// A name holding an undecodable byte (names.h's lone surrogate) cannot be written in a unit file, which is UTF-8.
bool isUtf8Text(const QString &s)
{
    return std::none_of(s.begin(), s.end(), [](QChar c) { return c.isSurrogate(); }) || QString::fromUtf8(s.toUtf8()) == s;
}

QString systemctlProgram()
{
    return QStandardPaths::findExecutable(QStringLiteral("systemctl"));
}

// `systemctl --user ARGS`: true when it ran and exited 0; else *why says what it said.
bool systemctlUser(const QStringList &args, QByteArray *out, QString *why)
{
    ProcessRequest req;
    req.program = systemctlProgram();
    if (req.program.isEmpty()) {
        *why = GcScheduleText::tr("systemctl is not installed");
        return false;
    }
    req.arguments = QStringList{QStringLiteral("--user"), QStringLiteral("--no-pager"), QStringLiteral("--no-ask-password")} + args;
    req.timeoutMs = kSystemctlMs;
    const ProcessResult r = runProcess(req);
    if (r.ranToEnd() && r.exitCode == 0) {
        if (out)
            *out = r.out;
        return true;
    }
    const QString said = displayText(QString::fromUtf8(r.err).trimmed());
    *why = r.ranToEnd() ? (said.isEmpty() ? GcScheduleText::tr("systemctl --user exited with %1").arg(r.exitCode) : said)
                        : processProblem(req, r);
    return false;
}

// Opens the units' folder (made when missing; the folder itself never a link).
int openUnitDir(bool create, QString *error)
{
    const QString dir = scheduleUnitDir();
    if (create && !QDir().mkpath(dir)) {
        *error = GcScheduleText::tr("cannot make %1").arg(dir);
        return -1;
    }
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && (create || errno != ENOENT))
        *error = GcScheduleText::tr("cannot open %1: %2").arg(dir, describeErrno(errno));
    return fd;
}

// A unit file's text, read relative to the folder without following a link; true with *exists false when it is not
// there.
bool readUnit(int dirFd, const QString &name, QString *text, bool *exists, QString *error)
{
    *exists = false;
    const int fd = ::openat(dirFd, QFile::encodeName(name).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return true;
        *exists = true;
        *error = GcScheduleText::tr("cannot read %1: %2").arg(name, describeErrno(errno));
        return false;
    }
    *exists = true;
    struct stat st {};
    bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= kMaxUnitBytes;
    QByteArray data(ok ? int(st.st_size) : 0, Qt::Uninitialized);
    ok = ok && (data.isEmpty() || readAllAt(fd, data.data(), std::size_t(data.size()), 0));
    ::close(fd);
    if (!ok) {
        *error = GcScheduleText::tr("%1 is not a unit file Ingot can read (a folder, a device or over 64 KiB)").arg(name);
        return false;
    }
    *text = QString::fromUtf8(data);
    return true;
}

// Writes a unit whole or not at all: a temporary file beside it, renamed over it (a link in its place is replaced,
// never followed). A file of that name Ingot did not write is left and refused.
bool writeUnit(int dirFd, const QString &name, const QString &text, QString *error)
{
    QString old;
    bool exists = false;
    if (!readUnit(dirFd, name, &old, &exists, error))
        return false;
    if (exists && !old.contains(kMark)) {
        *error = GcScheduleText::tr("%1 exists and was not written by Ingot: it is left as it is").arg(scheduleUnitDir() + QLatin1Char('/') + name);
        return false;
    }
    const QByteArray tmp = QFile::encodeName(QStringLiteral(".%1.%2.tmp").arg(name).arg(::getpid()));
    const int fd = ::openat(dirFd, tmp.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        *error = GcScheduleText::tr("cannot write in %1: %2").arg(scheduleUnitDir(), describeErrno(errno));
        return false;
    }
    const QByteArray data = text.toUtf8();
    bool ok = writeAll(fd, data.constData(), std::size_t(data.size())) && ::fsync(fd) == 0;
    const int saved = errno;
    ok = (::close(fd) == 0) && ok;
    if (ok && ::renameat(dirFd, tmp.constData(), dirFd, QFile::encodeName(name).constData()) == 0)
        return true;
    *error = GcScheduleText::tr("cannot write %1: %2").arg(name, describeErrno(ok ? errno : saved));
    ::unlinkat(dirFd, tmp.constData(), 0);
    return false;
}

// The value of each `key=` line of a unit's text, in order.
QStringList unitValues(const QString &text, const QString &key)
{
    QStringList values;
    const QString prefix = key + QLatin1Char('=');
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (line.startsWith(prefix))
            values << line.mid(prefix.size()).trimmed();
    return values;
}

QString howWithoutManager(const GcSchedule &s, const QString &cliPath, const QString &why)
{
    const QString unit = scheduleUnitName(s.policy);
    QString how = GcScheduleText::tr("Wrote %1.service and %1.timer in %2, but no systemd user manager answers here (%3), so "
                                     "the timer does not run yet. Where there is one: systemctl --user daemon-reload && "
                                     "systemctl --user enable --now %1.timer")
                      .arg(unit, scheduleUnitDir(), why);
    QString cronWhy;
    const QString cron = cronLine(s, cliPath, &cronWhy);
    how += QLatin1Char('\n');
    how += cron.isEmpty() ? GcScheduleText::tr("Without systemd, run it from cron: %1").arg(cronWhy)
                          : GcScheduleText::tr("Without systemd, add this line with crontab -e:\n%1").arg(cron);
    return how;
}

// "@1700000000" (systemctl show --timestamp=unix) in milliseconds; 0 for "n/a" or nothing.
qint64 unixStampMs(const QString &value)
{
    if (!value.startsWith(QLatin1Char('@')))
        return 0;
    bool ok = false;
    const qint64 s = value.mid(1).toLongLong(&ok);
    return ok && s > 0 ? s * 1000 : 0;
}

// Fills each schedule's timer state from one `systemctl --user show` of all timers, where a manager answers.
void askManager(QVector<InstalledSchedule> *schedules)
{
    if (schedules->isEmpty())
        return;
    QStringList args{QStringLiteral("show"), QStringLiteral("--property=Id,ActiveState,NextElapseUSecRealtime,LastTriggerUSec")};
    for (const InstalledSchedule &s : *schedules)
        args << s.unit + QStringLiteral(".timer");
    QByteArray out;
    QString why;
    // Times as "@seconds" since systemd 251; an older systemctl refuses the option and says its times in local words,
    // which are left unread (only the state is taken).
    if (!systemctlUser(QStringList{QStringLiteral("--timestamp=unix")} + args, &out, &why) && !systemctlUser(args, &out, &why))
        return;
    // One block per unit, in the order asked, separated by an empty line.
    const QList<QByteArray> blocks = out.split('\n');
    int at = 0;
    for (const QByteArray &raw : blocks) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty()) {
            ++at;
            continue;
        }
        if (at >= schedules->size())
            break;
        InstalledSchedule &s = (*schedules)[at];
        s.managerAnswered = true;
        const int eq = line.indexOf(QLatin1Char('='));
        const QString key = line.left(eq), value = line.mid(eq + 1);
        if (key == QLatin1String("ActiveState"))
            s.activeState = value;
        else if (key == QLatin1String("NextElapseUSecRealtime"))
            s.nextRunMs = unixStampMs(value);
        else if (key == QLatin1String("LastTriggerUSec"))
            s.lastRunMs = unixStampMs(value);
    }
}

}  // namespace

QString scheduleUnitName(const QString &policy)
{
    return kUnitPrefix + policy;
}

QString scheduleUnitDir()
{
    QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (config.isEmpty() || !QDir::isAbsolutePath(config))
        config = QDir::homePath() + QStringLiteral("/.config");
    return QDir::cleanPath(config) + QStringLiteral("/systemd/user");
}

QString scheduledCliPath(QString *error)
{
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/ingot-cli");
    QString found = QFileInfo(beside).isExecutable() ? beside : QStandardPaths::findExecutable(QStringLiteral("ingot-cli"));
    found = found.isEmpty() ? QString() : QFileInfo(found).canonicalFilePath();
    if (found.isEmpty())
        *error = GcScheduleText::tr("ingot-cli is neither beside this program nor on PATH: install Ingot's command-line tool");
    return found;
}

bool schedulePlaceIds(const QStringList &specs, QStringList *ids, QString *error)
{
    for (const QString &spec : specs) {
        const std::optional<FleetPlace> place = fleetPlaceFor(spec, error);
        if (!place)
            return false;
        QString why;
        if (!place->takesPolicies(&why)) {
            *error = GcScheduleText::tr("%1 takes no cache policy: %2").arg(displayName(place->shown()), why);
            return false;
        }
        if (!ids->contains(place->id))
            *ids << place->id;
    }
    return true;
}

bool checkSchedule(const GcSchedule &schedule, QString *error)
{
    if (!CachePolicy::validName(schedule.policy)) {
        *error = GcScheduleText::tr("a policy's name is letters, digits, '-', '_' and '.' (64 at most), not \"%1\"").arg(displayName(schedule.policy));
        return false;
    }
    for (const QString &place : schedule.places) {
        if (place.isEmpty() || hasControl(place) || !isUtf8Text(place)) {
            *error = GcScheduleText::tr("a place named with a control character or bytes that are not UTF-8 cannot be scheduled: \"%1\"")
                         .arg(displayName(place));
            return false;
        }
    }
    QStringList ids;
    if (!schedulePlaceIds(schedule.places, &ids, error))
        return false;
    const QString cal = schedule.onCalendar.trimmed();
    if (cal.isEmpty() || hasControl(cal) || cal.size() > 256) {
        *error = GcScheduleText::tr("not a calendar expression: \"%1\" (daily, weekly, Mon *-*-* 03:00)").arg(displayName(cal));
        return false;
    }
    ProcessRequest req;  // systemd's own parser says whether OnCalendar= takes it
    req.program = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
    if (req.program.isEmpty())
        return true;
    req.arguments = QStringList{QStringLiteral("calendar"), cal};
    req.timeoutMs = 10000;
    const ProcessResult r = runProcess(req);
    if (r.ranToEnd() && r.exitCode != 0) {
        *error = GcScheduleText::tr("systemd does not take the calendar expression \"%1\": %2")
                     .arg(displayName(cal), displayText(QString::fromUtf8(r.err).trimmed()));
        return false;
    }
    return true;
}

QStringList scheduledCommand(const GcSchedule &schedule, const QString &cliPath)
{
    QStringList argv{cliPath, QStringLiteral("cache"), QStringLiteral("gc"), QStringLiteral("--policy"), schedule.policy};
    if (schedule.places.isEmpty())
        argv << QStringLiteral("--everywhere");
    for (const QString &place : schedule.places)
        argv << QStringLiteral("--place") << place;
    argv << QStringLiteral("--yes") << QStringLiteral("--log") << QStringLiteral("--trigger") << QStringLiteral("schedule");
    return argv;
}

QString systemdExecWord(const QString &arg)
{
    static const QString bare = QStringLiteral("_@+:,./=-");
    const bool plain = !arg.isEmpty() && std::all_of(arg.begin(), arg.end(), [](QChar c) {
        return (c.unicode() < 0x80 && c.isLetterOrNumber()) || bare.contains(c);
    });
    if (plain)
        return arg;
    QString w = QStringLiteral("\"");
    for (const QChar c : arg) {
        const ushort u = c.unicode();
        if (c == QLatin1Char('\\') || c == QLatin1Char('"'))
            w += QLatin1Char('\\') + c;
        else if (c == QLatin1Char('%') || c == QLatin1Char('$'))
            w += QString(2, c);  // "%%": no specifier; "$$": no variable
        else if (u < 0x20 || u == 0x7f)
            w += QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
        else
            w += c;
    }
    return w + QLatin1Char('"');
}

QString serviceUnitText(const GcSchedule &schedule, const QString &cliPath)
{
    QStringList words;
    for (const QString &arg : scheduledCommand(schedule, cliPath))
        words << systemdExecWord(arg);
    QString t = QStringLiteral("# Written by Ingot (ingot-cli cache schedule, the fleet page): rewritten and removed there.\n"
                               "# Hosts are reached through your ssh config and agent, S3 with your AWS config files.\n"
                               "[Unit]\n"
                               "Description=Ingot: cache policy %1 (ingot-cli cache gc)\n")
                    .arg(schedule.policy);
    t += kMark + QLatin1Char('\n');
    t += QStringLiteral("X-Ingot-Policy=%1\n").arg(schedule.policy);
    for (const QString &place : schedule.places)  // percent-encoded: read back exactly, whatever the name holds
        t += QStringLiteral("X-Ingot-Place=%1\n").arg(QString::fromLatin1(QUrl::toPercentEncoding(place)));
    t += QStringLiteral("\n[Service]\nType=oneshot\nNice=10\nIOSchedulingClass=idle\nExecStart=%1\n").arg(words.join(QLatin1Char(' ')));
    return t;
}

QString timerUnitText(const GcSchedule &schedule)
{
    QString t = QStringLiteral("# Written by Ingot (ingot-cli cache schedule, the fleet page): rewritten and removed there.\n"
                               "[Unit]\n"
                               "Description=Ingot: cache policy %1 on a schedule\n")
                    .arg(schedule.policy);
    t += kMark + QLatin1Char('\n');
    t += QStringLiteral("\n[Timer]\nOnCalendar=%1\nPersistent=true\nRandomizedDelaySec=30min\n\n[Install]\nWantedBy=timers.target\n")
             .arg(schedule.onCalendar.trimmed());
    return t;
}

QString cronLine(const GcSchedule &schedule, const QString &cliPath, QString *error)
{
    QString unused;
    QString *why = error ? error : &unused;
    const QString cal = schedule.onCalendar.trimmed().toLower();
    static const QVector<QPair<QString, QString>> named{
        {QStringLiteral("hourly"), QStringLiteral("0 * * * *")}, {QStringLiteral("daily"), QStringLiteral("0 0 * * *")},
        {QStringLiteral("weekly"), QStringLiteral("0 0 * * 1")}, {QStringLiteral("monthly"), QStringLiteral("0 0 1 * *")}};
    QString fields;
    for (const auto &n : named)
        if (cal == n.first)
            fields = n.second;
    // "HH:MM", "HH:MM:00" and "*-*-* HH:MM[:00]": every day at that time.
    const QString time = cal.startsWith(QLatin1String("*-*-* ")) ? cal.mid(6) : cal;
    const QStringList hm = time.split(QLatin1Char(':'));
    bool okH = false, okM = false;
    const int h = hm.value(0).toInt(&okH), m = hm.value(1).toInt(&okM);
    if (fields.isEmpty() && (hm.size() == 2 || (hm.size() == 3 && hm.at(2) == QLatin1String("00"))) && okH && okM && h >= 0 &&
        h < 24 && m >= 0 && m < 60)
        fields = QStringLiteral("%1 %2 * * *").arg(m).arg(h);
    if (fields.isEmpty()) {
        *why = GcScheduleText::tr("cron cannot say OnCalendar=%1 as Ingot writes it: put the time fields (minute hour day month "
                                  "weekday) before the command yourself")
                   .arg(displayName(schedule.onCalendar));
        return {};
    }
    const QStringList argv = scheduledCommand(schedule, cliPath);
    // cron turns an unescaped '%' into a new line; a backslash before one cannot be told from the escape.
    if (std::any_of(argv.begin(), argv.end(), [](const QString &a) { return a.contains(QLatin1Char('\\')); })) {
        *why = GcScheduleText::tr("a name with a backslash cannot be written in a crontab line: schedule that place by the timer");
        return {};
    }
    const std::optional<QString> command = shellCommand(argv);
    if (!command) {
        *why = GcScheduleText::tr("a name holds a NUL byte");
        return {};
    }
    QString escaped = *command;
    escaped.replace(QLatin1Char('%'), QStringLiteral("\\%"));
    return fields + QLatin1Char(' ') + escaped;
}

bool installSchedule(const GcSchedule &asked, const QString &cliPath, QString *how, QString *error)
{
    if (!checkSchedule(asked, error))
        return false;
    GcSchedule schedule = asked;
    schedule.places.clear();
    schedulePlaceIds(asked.places, &schedule.places, error);
    if (!QDir::isAbsolutePath(cliPath)) {
        *error = GcScheduleText::tr("the timer runs ingot-cli by its absolute path, not \"%1\"").arg(displayName(cliPath));
        return false;
    }
    const int dirFd = openUnitDir(true, error);
    if (dirFd < 0)
        return false;
    const QString unit = scheduleUnitName(schedule.policy);
    // The service first: a timer never points at a service that is not there.
    const bool written = writeUnit(dirFd, unit + QStringLiteral(".service"), serviceUnitText(schedule, cliPath), error) &&
                         writeUnit(dirFd, unit + QStringLiteral(".timer"), timerUnitText(schedule), error);
    ::close(dirFd);
    if (!written)
        return false;
    QString why;
    if (!systemctlUser({QStringLiteral("daemon-reload")}, nullptr, &why)) {
        *how = howWithoutManager(schedule, cliPath, why);
        return true;
    }
    // Enabled for the next logins, and restarted so that a changed calendar counts now (a running timer keeps the
    // elapse it had computed).
    for (const QString &verb : {QStringLiteral("enable"), QStringLiteral("restart")}) {
        if (!systemctlUser({verb, unit + QStringLiteral(".timer")}, nullptr, &why)) {
            *error = GcScheduleText::tr("the units are written, but systemctl --user %1 %2.timer failed: %3").arg(verb, unit, why);
            return false;
        }
    }
    *how = GcScheduleText::tr("The timer %1.timer runs policy %2 (%3); systemctl --user list-timers shows it.")
               .arg(unit, schedule.policy, schedule.onCalendar.trimmed());
    return true;
}

bool removeSchedule(const QString &policy, QString *how, QString *error)
{
    if (!CachePolicy::validName(policy)) {
        *error = GcScheduleText::tr("no schedule for \"%1\"").arg(displayName(policy));
        return false;
    }
    const int dirFd = openUnitDir(false, error);
    if (dirFd < 0) {
        if (error->isEmpty())
            *error = GcScheduleText::tr("no schedule for policy %1").arg(policy);
        return false;
    }
    const QString unit = scheduleUnitName(policy);
    const QStringList names{unit + QStringLiteral(".timer"), unit + QStringLiteral(".service")};
    QStringList ours;
    for (const QString &name : names) {
        QString text;
        bool exists = false;
        if (!readUnit(dirFd, name, &text, &exists, error)) {
            ::close(dirFd);
            return false;
        }
        if (exists && !text.contains(kMark)) {
            *error = GcScheduleText::tr("%1 was not written by Ingot: it is left as it is").arg(name);
            ::close(dirFd);
            return false;
        }
        if (exists)
            ours << name;
    }
    if (ours.isEmpty()) {
        ::close(dirFd);
        *error = GcScheduleText::tr("no schedule for policy %1").arg(policy);
        return false;
    }
    QString why;
    const bool manager = systemctlUser({QStringLiteral("disable"), QStringLiteral("--now"), names.first()}, nullptr, &why);
    for (const QString &name : ours) {
        if (::unlinkat(dirFd, QFile::encodeName(name).constData(), 0) != 0 && errno != ENOENT) {
            *error = GcScheduleText::tr("cannot remove %1: %2").arg(name, describeErrno(errno));
            ::close(dirFd);
            return false;
        }
    }
    ::close(dirFd);
    if (manager)
        systemctlUser({QStringLiteral("daemon-reload")}, nullptr, &why);
    *how = manager ? GcScheduleText::tr("Stopped and removed the timer %1.timer.").arg(unit)
                   : GcScheduleText::tr("Removed %1.timer and %1.service (no systemd user manager answers here: remove the "
                                        "crontab line if you added one).")
                         .arg(unit);
    return true;
}

QVector<InstalledSchedule> installedSchedules(QString *error)
{
    QVector<InstalledSchedule> found;
    QString unused;
    QString *why = error ? error : &unused;
    const int dirFd = openUnitDir(false, why);
    if (dirFd < 0)
        return found;
    QStringList timers = QDir(scheduleUnitDir()).entryList({kUnitPrefix + QStringLiteral("*.timer")}, QDir::Files | QDir::System, QDir::Name);
    for (const QString &timer : timers) {
        const QString unit = timer.chopped(6);
        const QString policy = unit.mid(kUnitPrefix.size());
        QString timerText, serviceText;
        bool timerExists = false, serviceExists = false;
        if (!CachePolicy::validName(policy) || found.size() >= kMaxSchedules || !readUnit(dirFd, timer, &timerText, &timerExists, why) ||
            !readUnit(dirFd, unit + QStringLiteral(".service"), &serviceText, &serviceExists, why) || !timerText.contains(kMark) ||
            !serviceText.contains(kMark) || unitValues(serviceText, QStringLiteral("X-Ingot-Policy")) != QStringList{policy})
            continue;
        InstalledSchedule s;
        s.unit = unit;
        s.timerPath = scheduleUnitDir() + QLatin1Char('/') + timer;
        s.servicePath = scheduleUnitDir() + QLatin1Char('/') + unit + QStringLiteral(".service");
        s.schedule.policy = policy;
        s.schedule.onCalendar = unitValues(timerText, QStringLiteral("OnCalendar")).value(0);
        for (const QString &p : unitValues(serviceText, QStringLiteral("X-Ingot-Place")))
            s.schedule.places << QUrl::fromPercentEncoding(p.toLatin1());
        found << s;
    }
    ::close(dirFd);
    askManager(&found);
    return found;
}

bool lastScheduledRun(const QString &policy, GcRun *out)
{
    for (const GcRun &run : readGcRuns(GcRun::kMaxRuns)) {
        if (run.policy == policy && run.trigger == QLatin1String("schedule")) {
            *out = run;
            return true;
        }
    }
    return false;
}

}  // namespace ingot
