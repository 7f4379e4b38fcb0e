#include "services/hub/modulepresence.h"

#include <QMap>

#include <algorithm>

namespace ingot {

bool isModuleFolderName(const QString &name)
{
    return name.startsWith(QLatin1String("MODULE_"));
}

bool isVersionFolderName(const QString &name)
{
    return name.startsWith(QLatin1String("neuronxcc-"));
}

QVector<ModuleMark> markModules(const QString &versionPath, const QSet<QString> &hubKeys, const QSet<QString> &localKeys)
{
    QVector<ModuleMark> marks;
    marks.reserve(hubKeys.size());
    for (const QString &k : hubKeys)
        marks.append({k, localKeys.contains(k) ? ModulePresence::Both : ModulePresence::HubOnly});
    const QString prefix = versionPath + QLatin1Char('/');
    for (const QString &k : localKeys)
        if (k.startsWith(prefix) && !hubKeys.contains(k))
            marks.append({k, ModulePresence::LocalOnly});
    std::sort(marks.begin(), marks.end(), [](const ModuleMark &a, const ModuleMark &b) { return a.key < b.key; });
    return marks;
}

QVector<ModuleMark> markRepo(const QVector<TreeEntry> &listing, const QSet<QString> &localKeys)
{
    // Module folders by compiler-version folder, as the Hub lists them (a folder two levels down).
    QMap<QString, QSet<QString>> hubByVersion;
    for (const TreeEntry &e : listing) {
        const QStringList parts = e.path.split(QLatin1Char('/'));
        if (parts.size() == 1 && e.isDir && isVersionFolderName(parts[0]))
            hubByVersion[parts[0]];
        else if (parts.size() == 2 && e.isDir && isVersionFolderName(parts[0]) && isModuleFolderName(parts[1]))
            hubByVersion[parts[0]].insert(e.path);
    }
    // Local modules in version folders the Hub lacks are marked too: all of them are here only.
    for (const QString &k : localKeys)
        if (const QString v = k.section(QLatin1Char('/'), 0, 0); isVersionFolderName(v) && !hubByVersion.contains(v))
            hubByVersion[v];
    QVector<ModuleMark> marks;
    for (auto it = hubByVersion.constBegin(); it != hubByVersion.constEnd(); ++it)
        marks += markModules(it.key(), it.value(), localKeys);
    std::sort(marks.begin(), marks.end(), [](const ModuleMark &a, const ModuleMark &b) { return a.key < b.key; });
    return marks;
}

}  // namespace ingot
