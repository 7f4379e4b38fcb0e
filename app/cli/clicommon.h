// Small helpers for ingot-cli: exit codes, tables, JSON, prompts.
#pragma once

#include <QString>
#include <QStringList>

#include <atomic>
#include <csignal>
#include <nlohmann/json.hpp>

namespace ingot {
struct CacheLocation;
}

namespace ingot::cli {

// Exit codes, documented in the README's CLI reference.
enum Exit : int {
    Ok = 0,
    PartialFailure = 1,  // some entries could not be processed (each one is reported)
    Usage = 2,           // bad arguments
    CacheUnavailable = 3,  // the cache folder is missing, not a folder, or unreadable
    Refused = 4,         // the action was refused (neuronx-cc running, or no --yes without a terminal)
    Unsupported = 5,     // e.g. an S3 cache location
    HubFailure = 6,      // the Hub could not be reached or answered wrongly (after retries)
    HubAccess = 7,       // not found, no access, gated, or the token was refused
    HubOffline = 8,      // HF_HUB_OFFLINE is set: no request was made
    JobStopped = 9,      // job wait/stop --wait: the job was stopped (0: finished, 1: failed)
    HostUnreachable = 10,  // --host: the host could not be reached (refused, timeout, authentication, name)
    HostKey = 11,          // --host: the host key is unknown (no terminal to ask, or declined) or has changed
    Busy = 12,             // cache pull/push/copy: another transfer is writing into one of the entries; nothing was done to it
    JobTimeout = 13,       // job wait/stop --wait: Slurm ended the job at its time limit
    JobNodeFailure = 14,   // job wait/stop --wait: a node of the Slurm job failed
};

std::string u8(const QString &s);
// Text with every control character but line breaks and tabs escaped (names from disk or a server).
QString terminalSafe(const QString &text);
void out(const QString &text);  // stdout, with a newline; terminal-safe
void err(const QString &text);  // stderr, with a newline; terminal-safe
void printJson(const nlohmann::json &j);
// A resolved compile cache location: "path" (`used`, default the resolved one), "resolved", "rule" (which of the
// runtime's rules gave it), "explanation", "caching_disabled", and "host" where it is a host's.
nlohmann::json cacheLocationJson(const CacheLocation &loc, const QString &used = QString());

// The columns a terminal gives text: 2 for East Asian wide and fullwidth characters (Chinese), 0 for combining marks
// and zero-width characters, 1 for the rest.
int terminalWidth(const QString &text);

// A plain-text table: columns padded to their widest cell (in terminal columns: Chinese cells line up too);
// `rightAligned` marks numeric columns.
class Table
{
public:
    explicit Table(QStringList headers, QList<bool> rightAligned = {});
    void add(QStringList row);
    QString render() const;
    int rows() const { return int(m_rows.size()); }

private:
    QStringList m_headers;
    QList<bool> m_right;
    QList<QStringList> m_rows;
};

// Ctrl-C and TERM set stopRequested() while a StopOnSignals lives, so long work (a consolidation, a transfer) stops
// cleanly between blocks; a second signal is not caught and ends the process.
std::atomic_bool &stopRequested();
class StopOnSignals final
{
    Q_DISABLE_COPY_MOVE(StopOnSignals)

public:
    StopOnSignals();
    ~StopOnSignals();

private:
    struct sigaction m_oldInt {}, m_oldTerm {};
};

// Asks on the terminal; false when stdin is not a terminal.
bool confirm(const QString &question);
bool stdinIsTerminal();

}  // namespace ingot::cli
