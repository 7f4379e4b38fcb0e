#include "services/cache/cachelocation.h"

#include <QCoreApplication>
#include <QDir>

namespace ingot {

namespace {
// lupdate reads this context from the macro, so the .ts file and the lookups agree.
struct CacheLocationText {
    Q_DECLARE_TR_FUNCTIONS(ingot::CacheLocation)
};

QStringList splitFlags(const QString &flags)
{
    QStringList out;
    QString cur;
    QChar quote;
    bool have = false;
    for (const QChar c : flags) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                cur += c;
        } else if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            quote = c;
            have = true;
        } else if (c.isSpace()) {
            if (have || !cur.isEmpty())
                out << cur;
            cur.clear();
            have = false;
        } else {
            cur += c;
        }
    }
    if (have || !cur.isEmpty())
        out << cur;
    return out;
}

QString expandHome(const QString &p)
{
    if (p == QLatin1String("~"))
        return QDir::homePath();
    if (p.startsWith(QLatin1String("~/")))
        return QDir::homePath() + p.mid(1);
    return p;
}
}  // namespace

QString cacheDirFromCcFlags(const QString &flags, bool *noCache)
{
    const QStringList args = splitFlags(flags);
    QString dir;
    if (noCache)
        *noCache = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a.startsWith(QLatin1String("--cache_dir=")))
            dir = a.mid(12);
        else if (a == QLatin1String("--cache_dir") && i + 1 < args.size())
            dir = args[++i];
        else if (a == QLatin1String("--no_cache") && noCache)
            *noCache = true;
    }
    return dir;  // the last one wins, as with any repeated flag
}

CacheLocation CacheLocation::resolve(const QProcessEnvironment &env)
{
    CacheLocation loc;
    const QString flags = env.value(QStringLiteral("NEURON_CC_FLAGS"));
    bool noCache = false;
    const QString fromFlags = cacheDirFromCcFlags(flags, &noCache);
    loc.cachingDisabled = noCache;
    const QString url = env.value(QStringLiteral("NEURON_COMPILE_CACHE_URL")).trimmed();

    if (!fromFlags.isEmpty()) {
        loc.rule = Rule::CcFlagsCacheDir;
        loc.path = fromFlags;
        loc.explanation = CacheLocationText::tr("NEURON_CC_FLAGS contains --cache_dir=%1, which takes precedence over "
                             "NEURON_COMPILE_CACHE_URL and the default.").arg(fromFlags);
    } else if (!url.isEmpty()) {
        loc.rule = Rule::CompileCacheUrl;
        loc.path = url;
        loc.explanation = CacheLocationText::tr("NEURON_COMPILE_CACHE_URL is set to %1 (NEURON_CC_FLAGS has no --cache_dir).").arg(url);
    } else {
        loc.rule = Rule::Default;
        loc.path = defaultPath();
        loc.explanation = CacheLocationText::tr("Neither --cache_dir in NEURON_CC_FLAGS nor NEURON_COMPILE_CACHE_URL is set, so the "
                             "Neuron default %1 is used.").arg(loc.path);
    }
    if (loc.path.startsWith(QLatin1String("s3://"), Qt::CaseInsensitive)) {
        loc.kind = Kind::S3;
    } else {
        if (loc.path.startsWith(QLatin1String("file://")))
            loc.path = loc.path.mid(7);
        loc.path = QDir::cleanPath(expandHome(loc.path));
    }
    if (loc.cachingDisabled)
        loc.explanation += QLatin1Char(' ') + CacheLocationText::tr("Note: --no_cache in NEURON_CC_FLAGS disables the compile cache for jobs "
                                                 "started with these flags.");
    return loc;
}

QString CacheLocation::unsupportedReason() const
{
    if (kind == Kind::S3)
        return CacheLocationText::tr("S3 caches are not supported yet: %1 is an S3 location. Ingot can show local caches "
                  "only; add a local cache folder instead.").arg(path);
    return {};
}

}  // namespace ingot
