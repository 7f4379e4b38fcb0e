// The log of policy runs over caches (issue 39, "On a schedule"): one JSON line per `cache gc` run that was asked to
// log (every scheduled run is), saying what went in each place, what could not be reached and why, so the fleet page
// shows "last run: 3 places, 41 GB freed, 1 host unreachable". Written in English (the GUI translates when it shows
// it); bounded: the newest kMaxRuns runs are kept.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace ingot {

struct GcPlaceResult {
    QString place;       // FleetPlace::id
    QString kind;        // fleetKindName()
    QString shown;       // as people saw it
    bool reached = false;
    QString error;       // why the place was not reached, or the plan's refusal
    int planned = 0;     // entries the preview listed
    int removed = 0;     // entries that went
    int skipped = 0;     // entries kept when checked again (locked since, changed)
    int failed = 0;
    qint64 plannedBytes = 0;
    qint64 freedBytes = 0;
};

struct GcRun {
    static constexpr int kMaxRuns = 500;
    qint64 startedMs = 0;
    qint64 finishedMs = 0;
    QString policy;
    QString trigger;  // "schedule" (the timer or cron), "cli", "gui"
    bool dryRun = false;
    QVector<GcPlaceResult> places;

    qint64 freedBytes() const;
    int unreachable() const;
    // "3 places, 41 GB freed, 1 unreachable" in the current language.
    QString summary() const;
    QJsonObject toJson() const;
    // False for an object Ingot did not write (a line of another program, a damaged line): such lines are skipped.
    static bool fromJson(const QJsonObject &o, GcRun *out);
};

// $INGOT_GC_LOG, else $XDG_STATE_HOME/ingot/cache-gc.log (~/.local/state when unset); under QStandardPaths' test
// mode, the test's app data folder.
QString gcLogPath();
// Appends `run` as one line (the folder made 0700 when missing; the file opened without following a link, under an
// exclusive flock of the lock file beside it, so two runs never interleave); past kMaxRuns lines the oldest go
// (rewritten atomically).
bool appendGcRun(const GcRun &run, QString *error);
// The newest `newest` runs, newest first (reads at most the file's last 8 MiB); a damaged line is skipped.
QVector<GcRun> readGcRuns(int newest = 50, QString *error = nullptr);

}  // namespace ingot
