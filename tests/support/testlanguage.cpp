// Linked into every GUI test: with INGOT_LANGUAGE set (zh_CN), the test speaks that language as the app would, so
// that its screenshots show it (tests/tools/zh-screenshots.sh). Unset, as under ctest, the tests see the English
// texts a user sees: the source texts with the English plural forms the app installs ("1 file", not "1 file(s)").
#include "app/i18n/translations.h"

#include <QCoreApplication>
#include <QLocale>

namespace {
void installTestLanguage()
{
    if (!qEnvironmentVariableIsEmpty("INGOT_LANGUAGE"))
        QLocale::setDefault(ingot::installTranslations(*QCoreApplication::instance()));
    else
        ingot::installEnglishPluralForms(*QCoreApplication::instance());
}
}  // namespace

Q_COREAPP_STARTUP_FUNCTION(installTestLanguage)
