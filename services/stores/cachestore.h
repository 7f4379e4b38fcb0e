// "Where the files are": the one small interface the scanner, maintenance and the views use, so that a
// local folder, a remote trn host over SSH and a Hub repo can share the same model, views and rules.
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

#include <memory>

#include "services/util/linkrule.h"  // isHubBlobPath()
#include "services/util/relpath.h"

class QObject;

namespace ingot {

class StoreWatcher;

struct StoreEntry {
    enum class Type : quint8 { File, Dir, Symlink, Other };
    QString name;
    Type type = Type::File;
    qint64 size = 0;       // apparent size; for symlinks the target's size (0 when broken)
    qint64 allocated = 0;  // bytes allocated on disk
    qint64 mtimeMs = 0;
    qint64 atimeMs = 0;
    qint64 ctimeMs = 0;
    // Symlinks only: where they lead. A store never follows a link when listing or removing.
    bool linkBroken = false;
    bool linkOutsideRoot = false;
    bool linkToHubBlob = false;
    bool linkTargetIsDir = false;
    quint64 linkId = 0;  // stable identity of the target, so shared blobs are counted once
    // False for a folder listNames() left unexamined: only its name and type are known until statEntry().
    bool statted = true;
};

struct ListResult {
    bool ok = false;
    QString error;  // words, with the path, when !ok
    bool vanished = false;  // the folder no longer exists
    StoreEntry self;        // the folder's own times
    QVector<StoreEntry> entries;
};

class CacheStore
{
public:
    virtual ~CacheStore();

    // How the root is shown to people: a path, "host:/path" or a repo id.
    virtual QString displayRoot() const = 0;
    // Opens the root. False, with words in *error, when it is missing, not a folder or unreadable.
    virtual bool open(QString *error) = 0;
    // Lists one folder (root-relative, '/'-separated; "" is the root) with every entry's metadata.
    virtual ListResult list(const QString &rel) = 0;
    // The same, where a store can do it faster, with the sub-folders' metadata left out (statted false), to be
    // read one by one with statEntry(), on several threads through clones. A large folder is then read in the time
    // its names take, and what is in it can be looked at while the rest is still being read.
    virtual ListResult listNames(const QString &rel) { return list(rel); }
    // Fills in an entry listNames() left unexamined (rel: its root-relative path). False when it is gone
    // (*vanished) or unreadable (*error).
    virtual bool statEntry(const QString &rel, StoreEntry *entry, bool *vanished, QString *error);
    // Reads up to maxBytes of a file, from its start or (fromEnd) its end, without touching its access time
    // where the platform allows.
    virtual bool readFile(const QString &rel, qint64 maxBytes, bool fromEnd, QByteArray *out, QString *error) = 0;
    // Where a symlink points, as written in the link.
    virtual QString linkTarget(const QString &rel) = 0;
    // Removes a file, a symlink (never its target) or a whole folder, never following links and never leaving
    // the root. Adds the bytes freed on disk to *freed. A folder goes all or nothing (see removeEntry).
    virtual bool remove(const QString &rel, qint64 *freed, QString *error) = 0;
    // Removes a cache entry (a module folder) safely against a compiler that may start on it: the folder is renamed
    // aside in one step, then looked at again; a *.lock found there puts it back (Locked: a compile started). Nothing
    // of it is removed unless all of it can be (permissions, flags, mounts are checked first; on failure it is put
    // back whole).
    enum class RemoveResult { Removed, Locked, Failed };
    virtual RemoveResult removeEntry(const QString &rel, qint64 *freed, QString *error) = 0;
    // What the root is, once open: the same text means the same folder (a local root's device and inode; a root
    // reached through a symlink whose target was swapped has another). Plans are executed only on the root they
    // were previewed on.
    virtual QString rootIdentity() const = 0;
    // Process ids of neuronx-cc compiler processes running where the cache is.
    virtual QVector<qint64> runningCompilers(QString *error) = 0;
    // A local path for "open folder"/"copy path"; the display path where there is no local one.
    virtual QString fullPath(const QString &rel) const = 0;
    virtual bool isLocal() const = 0;
    // Another handle on the same place, so a scan can list folders on several threads. nullptr (the default):
    // this store is listed from one thread only.
    virtual std::unique_ptr<CacheStore> clone() const { return nullptr; }
    // A watcher for this store's folders, owned by `parent` (on its thread); nullptr: this kind cannot be watched.
    virtual StoreWatcher *createWatcher(QObject *parent) const { return nullptr; }
};

}  // namespace ingot
