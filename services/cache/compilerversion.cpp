#include "services/cache/compilerversion.h"

#include <QRegularExpression>
#include <QStringList>

namespace ingot {

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

}  // namespace ingot
