// A cache entry arriving in a local compile cache, so that a compiler or a scan never sees half an entry: its files
// are written into a hidden staging folder beside the entry, and the entry appears by one rename when all are there.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include <mutex>

namespace ingot {

// The staging folders of one transfer's target cache, read once per compiler-version folder and shared by the
// transfer's IncomingEntry::open() calls (thread-safe). Without it each open() reads the whole version folder to find
// its entry's leftovers: a pull of 10,000 entries spent 70 % of its time in ext4's readdir (issue 26). A staging
// folder another process starts after the listing is not seen: the two transfers then write one staging each, and
// the second commit finds the entry there (Exists; nothing is overwritten).
class StagingLeftovers final
{
public:
    // The staging names in the version folder open as `versionFd` (listed under the caller's lock on first use)
    // that start with `prefix`, less those taken since.
    QList<QByteArray> namesWithPrefix(const QByteArray &version, int versionFd, const QByteArray &prefix);
    void forget(const QByteArray &version, const QByteArray &name);
    void remember(const QByteArray &version, const QByteArray &name);  // a staging left for later

private:
    std::mutex m_mutex;
    QHash<QByteArray, QSet<QByteArray>> m_names;  // by version folder
};

class IncomingEntry final
{
public:
    enum class Status { Ready, Exists, Busy, Failed };

    IncomingEntry() = default;
    ~IncomingEntry();
    IncomingEntry(IncomingEntry &&other) noexcept;
    IncomingEntry &operator=(IncomingEntry &&other) noexcept;
    IncomingEntry(const IncomingEntry &) = delete;
    IncomingEntry &operator=(const IncomingEntry &) = delete;

    // Opens the staging folder of `key` ("neuronxcc-<ver>/MODULE_<...>", must pass isTransferableKey) under the
    // local cache `root`, creating the compiler-version folder when missing (never through a symbolic link). A
    // ".ingot-incoming-<MODULE>.<random>" folder left beside the entry by an interrupted transfer is adopted
    // (resume) when it is a real folder (not a link) owned by us and not writable by group or others; one that is
    // not is someone else's and left alone. Else a new one is made with mkdtemp (0700 until commit()). An exclusive flock on the staging folder is held while open:
    // another process or thread writing the same entry gives Busy. The entry existing (in any state, even a
    // dangling link) gives Exists. Failed: *error says what and where.
    // `leftovers`: the transfer's shared listing of staging folders (see StagingLeftovers); none: this version
    // folder is read now.
    static Status open(const QString &root, const QString &key, IncomingEntry *out, QString *error,
                       StagingLeftovers *leftovers = nullptr);

    bool isOpen() const { return m_stagingFd >= 0; }
    QString stagingPath() const;  // where the files go ("<name>.part" partial files live there too)
    int stagingFd() const { return m_stagingFd; }  // for openat(..., O_NOFOLLOW)
    QString entryPath() const;

    // Removes from the staging folder everything whose name is not in `keep` (stale parts, files the Hub no longer
    // has), never following links.
    bool prune(const QStringList &keep, QString *error);
    // Makes the entry appear: fsync of the files and the folder, then renameat2(RENAME_NOREPLACE) of the staging
    // folder to the entry. Exists when someone created the entry meanwhile (the staging is removed, nothing is
    // overwritten). The staging is closed afterwards in every case but Failed.
    Status commit(QString *error);
    // Removes the staging folder (never following links) and closes it.
    void abandon();
    // Closes the staging, leaving it for a later transfer to adopt.
    void close();

    // Whether `name` (in a compiler-version folder) is a staging folder.
    static bool isStagingName(const QString &name);

private:
    QString m_root;
    QString m_key;
    QString m_stagingName;
    int m_versionFd = -1;
    int m_stagingFd = -1;
    StagingLeftovers *m_leftovers = nullptr;  // the transfer's listing, told of a staging left for later

    void closeFds();
};

}  // namespace ingot
