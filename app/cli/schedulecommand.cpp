#include "app/cli/schedulecommand.h"

#include "app/cli/clicommon.h"
#include "services/cache/cachepolicy.h"
#include "services/fleet/gcschedule.h"
#include "services/util/format.h"
#include "services/util/names.h"

#include <QCoreApplication>

namespace ingot::cli {

namespace {
using nlohmann::json;

struct ScheduleCliText {
    Q_DECLARE_TR_FUNCTIONS(ingot::cli)
};

void scheduleOptions(QCommandLineParser &p)
{
    p.addPositionalArgument(QStringLiteral("action"), ScheduleCliText::tr("set POLICY, rm POLICY or show"), QStringLiteral("set|rm|show [POLICY]"));
    p.addOption({QStringLiteral("everywhere"), ScheduleCliText::tr("set: on every place Ingot knows (cache fleet); the default.")});
    p.addOption({QStringLiteral("place"), ScheduleCliText::tr("set: on this place only (repeat for more): a folder, host:NAME, s3://bucket/prefix."),
                 QStringLiteral("ID")});
    p.addOption({QStringLiteral("on-calendar"), ScheduleCliText::tr("set: when, as systemd's OnCalendar= takes it (daily, weekly, 03:00, Mon *-*-* 03:00); daily by default."),
                 QStringLiteral("SPEC")});
    p.addOption({QStringLiteral("print"), ScheduleCliText::tr("set: only print the unit files and the crontab line; install nothing.")});
}

int scheduleSet(const Invocation &inv, const QString &policy)
{
    if (inv.isSet(QStringLiteral("everywhere")) && inv.isSet(QStringLiteral("place"))) {
        err(ScheduleCliText::tr("error: --everywhere or --place, not both"));
        return Usage;
    }
    CachePolicy saved;
    if (!findPolicy(policy, &saved)) {
        err(ScheduleCliText::tr("error: no policy %1 (cache policy list)").arg(policy));
        return Usage;
    }
    GcSchedule s;
    s.policy = policy;
    if (inv.isSet(QStringLiteral("on-calendar")))
        s.onCalendar = inv.value(QStringLiteral("on-calendar")).trimmed();
    QString error;
    const QString cli = scheduledCliPath(&error);
    if (cli.isEmpty() || !schedulePlaceIds(inv.values(QStringLiteral("place")), &s.places, &error) || !checkSchedule(s, &error)) {
        err(ScheduleCliText::tr("error: %1").arg(error));
        return Usage;
    }
    if (inv.isSet(QStringLiteral("print"))) {
        QString cronWhy;
        const QString cron = cronLine(s, cli, &cronWhy);
        if (inv.json) {
            printJson({{"service", u8(serviceUnitText(s, cli))}, {"timer", u8(timerUnitText(s))}, {"cron", u8(cron)},
                       {"cron_note", u8(cronWhy)}, {"unit", u8(scheduleUnitName(policy))}});
            return Ok;
        }
        out(QStringLiteral("# %1.service\n%2\n# %1.timer\n%3").arg(scheduleUnitName(policy), serviceUnitText(s, cli), timerUnitText(s)));
        out(cron.isEmpty() ? QStringLiteral("# cron: %1").arg(cronWhy) : QStringLiteral("# crontab -e\n%1").arg(cron));
        return Ok;
    }
    QString how;
    if (!installSchedule(s, cli, &how, &error)) {
        err(ScheduleCliText::tr("error: %1").arg(error));
        return PartialFailure;
    }
    if (inv.json)
        printJson({{"unit", u8(scheduleUnitName(policy))}, {"directory", u8(scheduleUnitDir())}, {"how", u8(how)}});
    else
        out(how);
    return Ok;
}

json lastRunJson(const QString &policy)
{
    GcRun run;
    if (!lastScheduledRun(policy, &run))
        return nullptr;
    return {{"started_ms", run.startedMs}, {"finished_ms", run.finishedMs}, {"freed_bytes", run.freedBytes()},
            {"unreachable", run.unreachable()}, {"places", run.places.size()}, {"summary", u8(run.summary())}};
}

int scheduleShow(const Invocation &inv)
{
    QString error;
    const QVector<InstalledSchedule> all = installedSchedules(&error);
    if (inv.json) {
        json a = json::array();
        for (const InstalledSchedule &s : all) {
            json places = json::array();
            for (const QString &p : s.schedule.places)
                places.push_back(u8(p));
            a.push_back({{"policy", u8(s.schedule.policy)}, {"places", places}, {"everywhere", s.schedule.places.isEmpty()},
                         {"on_calendar", u8(s.schedule.onCalendar)}, {"unit", u8(s.unit)}, {"timer_path", u8(s.timerPath)},
                         {"service_path", u8(s.servicePath)}, {"manager_answered", s.managerAnswered},
                         {"active_state", u8(s.activeState)}, {"next_run_ms", s.nextRunMs}, {"last_trigger_ms", s.lastRunMs},
                         {"last_run", lastRunJson(s.schedule.policy)}});
        }
        printJson({{"schedules", a}, {"directory", u8(scheduleUnitDir())}});
        return Ok;
    }
    if (all.isEmpty()) {
        out(ScheduleCliText::tr("No cache policy on a schedule: ingot-cli cache schedule set POLICY [--place ID…] [--on-calendar daily]"));
        return Ok;
    }
    Table t({ScheduleCliText::tr("Policy"), ScheduleCliText::tr("Places"), ScheduleCliText::tr("When"), ScheduleCliText::tr("Next run"),
             ScheduleCliText::tr("Last run")});
    for (const InstalledSchedule &s : all) {
        GcRun run;
        const QString last = lastScheduledRun(s.schedule.policy, &run)
                                 ? QStringLiteral("%1: %2").arg(formatDateTime(run.startedMs), run.summary())
                                 : ScheduleCliText::tr("never");
        const QString next = s.nextRunMs > 0 ? formatDateTime(s.nextRunMs)
                                             : (s.managerAnswered ? ScheduleCliText::tr("not running (%1)").arg(s.activeState)
                                                                  : ScheduleCliText::tr("no systemd user manager: cron"));
        t.add({s.schedule.policy,
               s.schedule.places.isEmpty() ? ScheduleCliText::tr("everywhere") : displayName(s.schedule.places.join(QStringLiteral(", "))),
               displayName(s.schedule.onCalendar), next, last});
    }
    out(t.render());
    return Ok;
}

int cmdSchedule(const Invocation &inv)
{
    const QStringList pos = inv.positional();
    const QString action = pos.value(0, QStringLiteral("show"));
    if (action == QLatin1String("show") && pos.size() <= 1)
        return scheduleShow(inv);
    if ((action == QLatin1String("set") || action == QLatin1String("rm")) && pos.size() == 2) {
        const QString policy = pos.at(1);
        if (!CachePolicy::validName(policy)) {
            err(ScheduleCliText::tr("error: a policy's name is letters, digits, '-', '_' and '.' (64 at most), not \"%1\"").arg(displayName(policy)));
            return Usage;
        }
        if (action == QLatin1String("set"))
            return scheduleSet(inv, policy);
        QString how, error;
        if (!removeSchedule(policy, &how, &error)) {
            err(ScheduleCliText::tr("error: %1").arg(error));
            return Usage;
        }
        out(how);
        return Ok;
    }
    err(ScheduleCliText::tr("error: cache schedule set POLICY [--everywhere | --place ID…] [--on-calendar SPEC] [--print] | rm POLICY | show"));
    return Usage;
}
}  // namespace

QVector<Command> scheduleCommands()
{
    return {{QStringLiteral("cache"), QStringLiteral("schedule"),
             ScheduleCliText::tr("A policy on a schedule (a systemd user timer, or cron): set POLICY [--place ID…] [--on-calendar SPEC], rm POLICY, show"),
             JsonOption, scheduleOptions, cmdSchedule}};
}

}  // namespace ingot::cli
