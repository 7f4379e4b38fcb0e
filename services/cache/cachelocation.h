// Where the local Neuron compile cache is, resolved as the Neuron runtime does (docs/formats.md#compile-cache).
#pragma once

#include <QProcessEnvironment>
#include <QString>

namespace ingot {

struct CacheLocation {
    enum class Rule { CcFlagsCacheDir, CompileCacheUrl, Default };
    enum class Kind { LocalPath, S3 };

    QString path;  // local path, or the s3:// URL
    Rule rule = Rule::Default;
    Kind kind = Kind::LocalPath;
    bool cachingDisabled = false;  // --no_cache in NEURON_CC_FLAGS
    QString explanation;           // which rule won and why, in words

    static QString defaultPath() { return QStringLiteral("/var/tmp/neuron-compile-cache"); }
    static CacheLocation resolve(const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    bool isSupported() const { return kind == Kind::LocalPath; }
    QString unsupportedReason() const;
};

// Splits NEURON_CC_FLAGS the way the Neuron tools read it (space separated, quotes honoured) and returns
// the value of --cache_dir (either "--cache_dir=X" or "--cache_dir X"); empty when absent.
QString cacheDirFromCcFlags(const QString &flags, bool *noCache = nullptr);

}  // namespace ingot
