// Value types shared by the cache scanner, maintenance, models and the CLI. Parsing compiler versions is in
// compilerversion.h, deriving an entry's state in classify.h.
#pragma once

#include <QHash>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace ingot {

// What a module folder holds (docs/formats.md#compile-cache).
enum class ModuleState : quint8 {
    Success,     // model.neff present (and model.done where the compiler writes it)
    Failed,      // model.log and no model.neff: blocks recompiling until deleted
    Locked,      // any *.lock: a compile runs, or a killed one left a stale lock
    Incomplete,  // some files, but none of the above
    Empty,       // no files at all
    Unknown,     // not a module: an unknown folder or file, listed so nothing is hidden
};
constexpr int ModuleStateCount = 6;

QString stateName(ModuleState s);                        // "SUCCESS", "FAILED", ... (files, --json, options)
// The state for people reading a terminal: the same capitals in English, translated (the CLI's STATE column).
QString stateText(ModuleState s);
bool parseStateName(const QString &name, ModuleState *out);  // case-insensitive

enum class EntryKind : quint8 {
    Module,        // MODULE_<hash>+<flags hash>
    TracedModule,  // MODULE_<hash> (traced models, no '+' part)
    UnknownDir,    // a folder that is neither a compiler version nor a module
    UnknownFile,   // a file where only folders belong
    LinkedDir,     // a symlinked folder: listed, never followed
};
QString kindName(EntryKind k);

struct CacheFile {
    enum Flag : quint8 {
        Symlink = 1,      // a symlink: its bytes live elsewhere and are not counted in the cache size
        Broken = 2,       // a symlink whose target does not exist
        OutsideRoot = 4,  // a symlink pointing outside the cache root
        HubBlob = 8,      // a symlink into the Hugging Face hub blob cache (optimum-neuron pulls)
        Directory = 16,   // a sub-folder inside a module (unexpected, listed)
        Special = 32,     // fifo, socket, device
        Unexpected = 64,  // a name the Neuron compiler does not write
    };
    QString name;
    qint64 size = 0;       // apparent size; for symlinks the target's size
    qint64 allocated = 0;  // bytes allocated on disk (sparse files use less)
    qint64 mtimeMs = 0;
    qint64 atimeMs = 0;
    quint64 linkId = 0;  // for symlinks: identity of the target (device and inode) to count shared blobs once
    quint8 flags = 0;

    bool is(Flag f) const { return (flags & f) != 0; }
};

struct CacheModule {
    QString version;  // compiler-version folder, e.g. "neuronxcc-2.15.128.0+56dc5a86"; empty for top-level items
    QString name;     // folder or file name
    EntryKind kind = EntryKind::Module;
    ModuleState state = ModuleState::Empty;
    qint64 size = 0;        // bytes of files stored inside the cache root
    qint64 allocated = 0;   // bytes those files use on disk
    qint64 linkedSize = 0;  // bytes of symlinked files (stored elsewhere, not counted in size)
    qint64 lastUsedMs = 0;  // newest of the files' mtimes and model.neff's access time
    qint64 dirMtimeMs = 0;  // the folder's own mtime and ctime: unchanged means the same file set
    qint64 dirCtimeMs = 0;
    QVector<CacheFile> files;
    QStringList warnings;  // visible problems: broken links, unreadable, odd names

    QString key() const { return version.isEmpty() ? name : version + QLatin1Char('/') + name; }
    bool isModule() const { return kind == EntryKind::Module || kind == EntryKind::TracedModule; }
    bool hasLock() const;
    int fileCount() const { return int(files.size()); }
};

struct ScanWarning {
    QString path;  // relative to the root, "" for the root itself
    QString message;
};

// A whole cache as last scanned. Modules are kept flat; key() indexes them.
struct CacheSnapshot {
    QString root;
    QVector<CacheModule> modules;
    QVector<ScanWarning> warnings;
    QString fatalError;  // set when the root itself could not be read
    QString rootIdentity;  // CacheStore::rootIdentity() of the root scanned

    const CacheModule *find(const QString &key) const;  // O(1) after reindex()
    void reindex();
    bool isIndexed() const { return m_index.size() == modules.size(); }

private:
    QHash<QString, int> m_index;
};

}  // namespace ingot

Q_DECLARE_METATYPE(ingot::CacheModule)
Q_DECLARE_METATYPE(ingot::ModuleState)
