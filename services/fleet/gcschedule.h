// A cache policy on a schedule (issue 39, "On a schedule"): a systemd user timer that runs
// `ingot-cli cache gc --policy NAME --everywhere|--place ID… --yes --log --trigger schedule` on this machine, reaching
// hosts over the user's ssh config and agent and S3 with the user's AWS config files, as Ingot does; where no user
// manager answers, the units stay written and the cron line to use instead is said. Each run is logged (gclog.h), and
// the fleet page shows the last one. The fleet page's "Run this policy every day" and `ingot-cli cache schedule`
// both call this one service. checkSchedule, installSchedule, removeSchedule and installedSchedules run systemd's
// tools (systemd-analyze, systemctl --user; each within a time limit): blocking, so call them off the UI thread.
#pragma once

#include "services/fleet/gclog.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

struct GcSchedule {
    QString policy;          // a saved policy's name (CachePolicy::validName)
    QStringList places;      // FleetPlace ids; empty: every place Ingot knows (--everywhere)
    QString onCalendar = QStringLiteral("daily");  // systemd's OnCalendar= expression
};

// A schedule read back from the unit files Ingot wrote, with what the user manager says of its timer where one
// answers.
struct InstalledSchedule {
    GcSchedule schedule;
    QString unit;         // "ingot-gc-NAME" (the .service and the .timer)
    QString timerPath;    // the .timer file
    QString servicePath;  // the .service file
    bool managerAnswered = false;  // systemctl --user answered: the fields below are its word
    QString activeState;           // the timer's ActiveState ("active", "inactive", …)
    qint64 nextRunMs = 0;          // 0: not known
    qint64 lastRunMs = 0;          // 0: never, or not known
};

// "ingot-gc-NAME": the units' name without suffix (the policy's name is plain, so it is a valid unit name).
QString scheduleUnitName(const QString &policy);
// Where a systemd user manager reads the user's own units: $XDG_CONFIG_HOME/systemd/user (~/.config when unset).
QString scheduleUnitDir();
// The ingot-cli to schedule: the one beside this program (absolute, links resolved), else the one on PATH; empty
// with why when there is none.
QString scheduledCliPath(QString *error);

// The places named as --place takes them (a folder, host:NAME in the host list, s3://bucket/prefix), as the ids a
// schedule keeps (a relative folder made absolute), each once; false with why for the first that is no place or one a
// policy does not apply to (a Hub repo, TorchNeuron's tiers: FleetPlace::takesPolicies).
bool schedulePlaceIds(const QStringList &specs, QStringList *ids, QString *error);
// False with why for a schedule that cannot be written: a name that is not a saved policy's form, a place that
// schedulePlaceIds() refuses or whose name holds a control character or bytes that are not UTF-8, a calendar
// expression systemd-analyze does not take (checked with the real tool where it is installed; its words in *error).
bool checkSchedule(const GcSchedule &schedule, QString *error);

// The command the timer runs, as argv: cliPath cache gc --policy NAME (--everywhere | --place ID…) --yes --log
// --trigger schedule.
QStringList scheduledCommand(const GcSchedule &schedule, const QString &cliPath);
// One argument as systemd's ExecStart= takes it: double-quoted where needed, '\' and '"' and control characters as
// C escapes, '%' as "%%" and '$' as "$$" (no specifier, no variable expands).
QString systemdExecWord(const QString &arg);
// The .service (Type=oneshot, ExecStart= the command above, no secret in it) and the .timer (OnCalendar=,
// Persistent=true, RandomizedDelaySec=) units' text.
QString serviceUnitText(const GcSchedule &schedule, const QString &cliPath);
QString timerUnitText(const GcSchedule &schedule);
// The crontab line doing what the timer does ("M H * * * command", '%' escaped for cron); empty with why for a
// calendar expression cron cannot say (then the user writes the time fields themselves: *error says so).
QString cronLine(const GcSchedule &schedule, const QString &cliPath, QString *error = nullptr);

// Writes the two units to scheduleUnitDir() (the places as schedulePlaceIds() names them) (each atomically, the folder made when missing, never through a link),
// then `systemctl --user daemon-reload` and `enable --now NAME.timer` where a user manager answers. Where none does,
// the units stay written and true is returned: *how says so, with the cron line to use instead. *how always says what
// was done (in the current language).
bool installSchedule(const GcSchedule &schedule, const QString &cliPath, QString *how, QString *error);
// Stops and disables the timer where a user manager answers, then removes both unit files (only files Ingot wrote:
// a unit that does not carry Ingot's mark is left and refused). False with why when there is no such schedule.
bool removeSchedule(const QString &policy, QString *how, QString *error);
// The schedules Ingot wrote, by policy name, read back from their unit files (a file that is not Ingot's is skipped),
// with systemctl's view of each timer where a user manager answers.
QVector<InstalledSchedule> installedSchedules(QString *error = nullptr);
// The newest run the schedule of `policy` made (gclog.h, trigger "schedule"): false when there is none in the log.
bool lastScheduledRun(const QString &policy, GcRun *out);

}  // namespace ingot
