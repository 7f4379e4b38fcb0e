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

QString stateText(ModuleState s)
{
    switch (s) {
    case ModuleState::Success: return QCoreApplication::translate("ingot::State", "SUCCESS");
    case ModuleState::Failed: return QCoreApplication::translate("ingot::State", "FAILED");
    case ModuleState::Locked: return QCoreApplication::translate("ingot::State", "LOCKED");
    case ModuleState::Incomplete: return QCoreApplication::translate("ingot::State", "INCOMPLETE");
    case ModuleState::Empty: return QCoreApplication::translate("ingot::State", "EMPTY");
    case ModuleState::Unknown: break;
    }
    return QCoreApplication::translate("ingot::State", "UNKNOWN");
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

}  // namespace ingot
