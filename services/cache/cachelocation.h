// Where the local Neuron compile cache is, resolved as the Neuron runtime does (docs/formats.md#compile-cache).
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace ingot {

class RemoteShell;

struct CacheLocation {
    enum class Rule { CcFlagsCacheDir, CompileCacheUrl, Default };
    enum class Kind { LocalPath, S3 };

    QString path;  // local path, or the s3:// URL
    Rule rule = Rule::Default;
    Kind kind = Kind::LocalPath;
    bool cachingDisabled = false;  // --no_cache in NEURON_CC_FLAGS
    QString explanation;           // which rule won and why, in words
    QString where;                 // empty: this machine; else the host it was resolved on

    static QString defaultPath() { return QStringLiteral("/var/tmp/neuron-compile-cache"); }
    static CacheLocation resolve(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    // The same rules with `home` for ~ (a remote host's home folder).
    static CacheLocation resolve(const QProcessEnvironment &env, const QString &home);
    // As the Neuron tools on the host behind `shell` resolve it: NEURON_CC_FLAGS and NEURON_COMPILE_CACHE_URL as a
    // login shell there sees them (profile files included), else as the plain remote command sees them. False with
    // words in *error when the shell cannot be reached. Blocking.
    static bool resolveOn(RemoteShell &shell, CacheLocation *out, QString *error);
    bool isSupported() const { return kind == Kind::LocalPath; }
    QString unsupportedReason() const;
};

// Splits NEURON_CC_FLAGS the way the Neuron tools read it (space separated, quotes honoured) and returns
// the value of --cache_dir (either "--cache_dir=X" or "--cache_dir X"); empty when absent.
QString cacheDirFromCcFlags(const QString &flags, bool *noCache = nullptr);

}  // namespace ingot
