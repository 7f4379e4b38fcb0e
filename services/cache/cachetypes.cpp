#include "services/cache/cachetypes.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace ingot {

QString stateName(ModuleState s)
{
    switch (s) {
    case ModuleState::Success: return QStringLiteral("SUCCESS");
    case ModuleState::Failed: return QStringLiteral("FAILED");
    case ModuleState::Locked: return QStringLiteral("LOCKED");
    case ModuleState::Incomplete: return QStringLiteral("INCOMPLETE");
    case ModuleState::Empty: return QStringLiteral("EMPTY");
    case ModuleState::Unknown: return QStringLiteral("UNKNOWN");
    }
    return QStringLiteral("UNKNOWN");
}

bool parseStateName(const QString &name, ModuleState *out)
{
    for (int i = 0; i < ModuleStateCount; ++i) {
        const auto s = ModuleState(i);
        if (stateName(s).compare(name, Qt::CaseInsensitive) == 0) {
            *out = s;
            return true;
        }
    }
    return false;
}

QString kindName(EntryKind k)
{
    switch (k) {
    case EntryKind::Module: return QStringLiteral("module");
    case EntryKind::TracedModule: return QStringLiteral("traced-module");
    case EntryKind::UnknownDir: return QStringLiteral("unknown-folder");
    case EntryKind::UnknownFile: return QStringLiteral("unknown-file");
    case EntryKind::LinkedDir: return QStringLiteral("linked-folder");
    }
    return {};
}

bool CacheModule::hasLock() const
{
    for (const auto &f : files)
        if (f.name.endsWith(QLatin1String(".lock")))
            return true;
    return false;
}

const CacheModule *CacheSnapshot::find(const QString &key) const
{
    if (m_index.size() == modules.size()) {
        const auto it = m_index.constFind(key);
        return it == m_index.cend() ? nullptr : &modules[*it];
    }
    for (const auto &m : modules)
        if (m.key() == key)
            return &m;
    return nullptr;
}

void CacheSnapshot::reindex()
{
    m_index.clear();
    m_index.reserve(modules.size());
    for (int i = 0; i < modules.size(); ++i)
        m_index.insert(modules[i].key(), i);
}

CompilerVersion CompilerVersion::parse(const QString &folderName)
{
    CompilerVersion v;
    static const QLatin1String prefix("neuronxcc-");
    if (!folderName.startsWith(prefix))
        return v;
    QString rest = folderName.mid(prefix.size());
    const int plus = rest.indexOf(QLatin1Char('+'));
    if (plus >= 0) {
        v.build = rest.mid(plus + 1);
        rest.truncate(plus);
    }
    const auto parts = rest.split(QLatin1Char('.'));
    for (const auto &p : parts) {
        bool ok = false;
        const int n = p.toInt(&ok);
        if (!ok)
            return CompilerVersion{};
        v.parts.append(n);
    }
    v.valid = !v.parts.isEmpty();
    return v;
}

bool CompilerVersion::writesDoneMarker() const
{
    if (!valid || parts.size() < 2)
        return false;
    return parts[0] > 2 || (parts[0] == 2 && parts[1] >= 15);
}

QString CompilerVersion::display() const
{
    QStringList s;
    for (int p : parts)
        s << QString::number(p);
    QString out = s.join(QLatin1Char('.'));
    if (!build.isEmpty())
        out += QLatin1Char('+') + build;
    return out;
}

bool isCompilerVersionFolder(const QString &name)
{
    return CompilerVersion::parse(name).valid;
}

int compareCompilerFolders(const QString &a, const QString &b)
{
    const auto va = CompilerVersion::parse(a), vb = CompilerVersion::parse(b);
    if (va.valid != vb.valid)
        return va.valid ? 1 : -1;
    const int n = std::max(va.parts.size(), vb.parts.size());
    for (int i = 0; i < n; ++i) {
        const int x = i < va.parts.size() ? va.parts[i] : 0;
        const int y = i < vb.parts.size() ? vb.parts[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return a.compare(b);
}

ModuleState classifyModule(const QVector<CacheFile> &files, bool writesDoneMarker, QString *why)
{
    bool lock = false, neff = false, neffLinked = false, done = false, log = false;
    for (const auto &f : files) {
        if (f.name.endsWith(QLatin1String(".lock")))
            lock = true;
        else if (f.name == QLatin1String("model.neff")) {
            neff = !f.is(CacheFile::Broken);
            neffLinked = f.is(CacheFile::Symlink);
        } else if (f.name == QLatin1String("model.done"))
            done = true;
        else if (f.name == QLatin1String("model.log"))
            log = true;
    }
    auto say = [why](const char *text) {
        if (why)
            *why = QCoreApplication::translate("ingot::CacheModule", text);
    };
    if (lock) {
        say(QT_TRANSLATE_NOOP("ingot::CacheModule", "A *.lock file is present: a compile is running, or a killed one left a stale lock."));
        return ModuleState::Locked;
    }
    if (neff) {
        // Entries pulled from the Hub are symlinks and carry whatever the uploader had: trust the neff.
        if (writesDoneMarker && !done && !neffLinked) {
            say(QT_TRANSLATE_NOOP("ingot::CacheModule", "model.neff is present but model.done is missing: the compile was interrupted."));
            return ModuleState::Incomplete;
        }
        say(QT_TRANSLATE_NOOP("ingot::CacheModule", "Compiled: model.neff is present."));
        return ModuleState::Success;
    }
    if (log) {
        say(QT_TRANSLATE_NOOP("ingot::CacheModule", "model.log without model.neff: the compile failed. The compiler will not retry until this entry is "
            "deleted (or --retry_failed_compilation is passed)."));
        return ModuleState::Failed;
    }
    if (files.isEmpty()) {
        say(QT_TRANSLATE_NOOP("ingot::CacheModule", "The folder is empty."));
        return ModuleState::Empty;
    }
    say(QT_TRANSLATE_NOOP("ingot::CacheModule", "No model.neff, no model.log and no lock: the compile never finished."));
    return ModuleState::Incomplete;
}

}  // namespace ingot
