#include "services/util/atomicfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace ingot {

namespace {
struct AtomicFileText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubConfig)
};
}  // namespace

bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error, bool privateMode)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        *error = AtomicFileText::tr("Cannot create the folder of %1.").arg(path);
        return false;
    }
    QSaveFile f(path);  // temp file in the same folder, renamed over the target on commit
    if (!f.open(QIODevice::WriteOnly)) {
        *error = AtomicFileText::tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    if (privateMode)
        f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (f.write(data) != data.size() || !f.commit()) {
        *error = AtomicFileText::tr("Cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    if (privateMode)
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

}  // namespace ingot
