// The language Ingot speaks: one rule for the GUI and ingot-cli, and the translations that go with it.
#pragma once

#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace ingot {

// The language asked for: the environment's INGOT_LANGUAGE when set and not empty, else AppSettings::language().
// "" means the system's (QLocale::system(): LANGUAGE, LC_ALL, LANG).
QString chosenLanguage();

// The locale a language name stands for: "" is QLocale::system(), anything else QLocale(name).
QLocale localeForLanguage(const QString &name);

// The languages Ingot has a translation for, as locale names ("en", "zh_CN"), English first.
QStringList availableLanguages();

// Installs Qt's own translation (qtbase) and Ingot's for chosenLanguage() into app, the translators owned by app.
// Under it the English plural forms, for what that translation lacks; with no translation for that language Ingot
// speaks English. Returns the
// locale whose translation was looked for. Call once, after the application and organization names are set (the
// setting is read through QSettings).
QLocale installTranslations(QCoreApplication &app);

// Installs only the English plural forms ("1 file", "2 files" for "%n file(s)"), owned by app: what every language
// has underneath. Returns false when they could not be loaded.
bool installEnglishPluralForms(QCoreApplication &app);

}  // namespace ingot
