#include "app/i18n/translations.h"

#include "services/util/appsettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QTranslator>

namespace ingot {

namespace {
const char kResourceDir[] = ":/i18n";

QString englishFile()
{
    return QLatin1String(kResourceDir) + QStringLiteral("/ingot_en.qm");
}

bool install(QTranslator *translator, bool loaded)
{
    if (loaded && QCoreApplication::installTranslator(translator))
        return true;
    delete translator;
    return false;
}
}  // namespace

QString chosenLanguage()
{
    const QString env = qEnvironmentVariable("INGOT_LANGUAGE").trimmed();
    if (!env.isEmpty())
        return env;
    return AppSettings::language().trimmed();
}

QLocale localeForLanguage(const QString &name)
{
    return name.isEmpty() ? QLocale::system() : QLocale(name);
}

QStringList availableLanguages()
{
    QStringList names;
    const QStringList files = QDir(QLatin1String(kResourceDir)).entryList({QStringLiteral("ingot_*.qm")}, QDir::Files, QDir::Name);
    for (const QString &file : files)
        names << file.mid(6, file.size() - 6 - 3);  // ingot_<name>.qm
    names.removeAll(QStringLiteral("en"));
    names.prepend(QStringLiteral("en"));
    return names;
}

QLocale installTranslations(QCoreApplication &app)
{
    const QLocale locale = localeForLanguage(chosenLanguage());
    auto *qt = new QTranslator(&app);
    install(qt, qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                              QLibraryInfo::path(QLibraryInfo::TranslationsPath)));
    // English plural forms underneath: whatever the chosen translation lacks reads "1 file", not "1 file(s)".
    const bool haveEnglish = installEnglishPluralForms(app);
    auto *own = new QTranslator(&app);
    const bool loaded = own->load(locale, QStringLiteral("ingot"), QStringLiteral("_"), QLatin1String(kResourceDir));
    install(own, loaded && !(haveEnglish && own->filePath() == englishFile()));
    return locale;
}

bool installEnglishPluralForms(QCoreApplication &app)
{
    auto *english = new QTranslator(&app);
    return install(english, english->load(QStringLiteral("ingot_en"), QLatin1String(kResourceDir)));
}

}  // namespace ingot
