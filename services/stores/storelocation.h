// Where a cache lives, as a value: which kind of store reads it (local now; ssh and hub plug in), on which host,
// and its root there. Cheap to copy and safe to hand to any thread; StoreFactory turns it into a store.
#pragma once

#include <QString>

namespace ingot {

struct StoreLocation {
    QString kind;  // "local"; other kinds register with StoreFactory
    QString host;  // remote kinds: the host as the user named it; empty for local
    QString path;  // the cache root on that machine

    static StoreLocation local(const QString &path);
    bool isValid() const { return !kind.isEmpty() && !path.isEmpty(); }
    bool isLocal() const;
    // How people see it: the path, or "host:path".
    QString display() const;

    friend bool operator==(const StoreLocation &a, const StoreLocation &b)
    {
        return a.kind == b.kind && a.host == b.host && a.path == b.path;
    }
    friend bool operator!=(const StoreLocation &a, const StoreLocation &b) { return !(a == b); }
};

}  // namespace ingot
