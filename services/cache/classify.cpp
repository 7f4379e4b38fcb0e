#include "services/cache/classify.h"

#include <QCoreApplication>

namespace ingot {

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
