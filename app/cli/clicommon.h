// Small helpers for ingot-cli: exit codes, tables, JSON, prompts.
#pragma once

#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

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
    HostKey = 10,        // a remote host's key is unknown or changed: nothing was run there (never a prompt)
    HostUnreachable = 11,  // a remote host could not be reached or refused the login
};

std::string u8(const QString &s);
// Text with every control character but line breaks and tabs escaped (names from disk or a server).
QString terminalSafe(const QString &text);
void out(const QString &text);  // stdout, with a newline; terminal-safe
void err(const QString &text);  // stderr, with a newline; terminal-safe
void printJson(const nlohmann::json &j);

// A plain-text table: columns padded to their widest cell; `rightAligned` marks numeric columns.
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

// Asks on the terminal; false when stdin is not a terminal.
bool confirm(const QString &question);
bool stdinIsTerminal();

}  // namespace ingot::cli
