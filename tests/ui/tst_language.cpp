// The language Ingot speaks, as the app sets it up (ingot::installTranslations): with INGOT_LANGUAGE=zh_CN real
// widgets and the real ingot-cli show the Chinese of translations/ingot_zh_CN.ts; with "en" they stay English (with
// English plural forms); a language Ingot does not have falls back to English. The expected Chinese is read from
// the committed .ts: a text not translated there yet is skipped, not failed (the translation is others' work).
#include "app/i18n/translations.h"
#include "services/util/appsettings.h"
#include "tests/support/testsupport.h"
#include "ui/shell/mainwindow.h"
#include "ui/shell/settingsdialog.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

using namespace ingot;
using namespace ingot::test;

namespace {

// The finished translation of (context, source) in the committed ingot_zh_CN.ts; empty when there is none.
QString committedChinese(const QString &context, const QString &source)
{
    QFile f(QStringLiteral(INGOT_SOURCE_DIR "/translations/ingot_zh_CN.ts"));
    if (!f.open(QIODevice::ReadOnly))
        return QString();
    QXmlStreamReader x(&f);
    QString ctx, src;
    while (!x.atEnd()) {
        x.readNext();
        if (!x.isStartElement())
            continue;
        if (x.name() == QLatin1String("name")) {
            ctx = x.readElementText();
        } else if (x.name() == QLatin1String("source")) {
            src = x.readElementText();
        } else if (x.name() == QLatin1String("translation") && ctx == context && src == source) {
            if (!x.attributes().value(QLatin1String("type")).isEmpty())
                return QString();  // unfinished or obsolete
            return x.readElementText(QXmlStreamReader::SkipChildElements);
        }
    }
    return QString();
}

// Takes out every translator installTranslations() gave the application.
void removeTranslations()
{
    for (QTranslator *t : qApp->findChildren<QTranslator *>()) {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
}

ProgramRun cliHelp(const QByteArray &language)
{
    qputenv("INGOT_LANGUAGE", language);
    ProgramRun r = runProgram(QStringLiteral(INGOT_CLI_PATH), {QStringLiteral("--help")});
    qunsetenv("INGOT_LANGUAGE");
    return r;
}

}  // namespace

class TestLanguage : public QObject
{
    Q_OBJECT

private slots:
    void cleanup()
    {
        removeTranslations();
        qunsetenv("INGOT_LANGUAGE");
        AppSettings::setLanguage(QString());
    }

    void languageRule()
    {
        qunsetenv("INGOT_LANGUAGE");
        AppSettings::setLanguage(QString());
        QCOMPARE(chosenLanguage(), QString());  // the system's
        QCOMPARE(localeForLanguage(QString()), QLocale::system());
        AppSettings::setLanguage(QStringLiteral("zh_CN"));
        QCOMPARE(chosenLanguage(), QStringLiteral("zh_CN"));
        qputenv("INGOT_LANGUAGE", "en");
        QCOMPARE(chosenLanguage(), QStringLiteral("en"));  // the environment wins
        qputenv("INGOT_LANGUAGE", "");
        QCOMPARE(chosenLanguage(), QStringLiteral("zh_CN"));  // empty is unset
        QCOMPARE(localeForLanguage(QStringLiteral("zh_CN")).language(), QLocale::Chinese);
        const QStringList languages = availableLanguages();
        QCOMPARE(languages.value(0), QStringLiteral("en"));
        QVERIFY2(languages.contains(QStringLiteral("zh_CN")), qPrintable(languages.join(QLatin1Char(' '))));
    }

    void chineseWidgets()
    {
        qputenv("INGOT_LANGUAGE", "zh_CN");
        QCOMPARE(installTranslations(*qApp).language(), QLocale::Chinese);
        int checked = 0;
        MainWindow w;
        const QStringList nav{QStringLiteral("Local cache"), QStringLiteral("Hub caches"), QStringLiteral("Jobs"),
                              QStringLiteral("Remote hosts"), QStringLiteral("Transfers")};
        QCOMPARE(w.navigation()->count(), nav.size());
        for (int i = 0; i < nav.size(); ++i) {
            const QString zh = committedChinese(QStringLiteral("ingot::MainWindow"), nav[i]);
            if (zh.isEmpty()) {
                qWarning("not translated yet: %s", qPrintable(nav[i]));
                continue;
            }
            QCOMPARE(w.navigation()->item(i)->text(), zh);
            ++checked;
        }
        const QString file = committedChinese(QStringLiteral("ingot::MainWindow"), QStringLiteral("&File"));
        if (!file.isEmpty()) {
            QCOMPARE(w.menuBar()->actions().first()->text(), file);
            ++checked;
        }
        SettingsDialog settings;
        const QString title = committedChinese(QStringLiteral("ingot::SettingsDialog"), QStringLiteral("Ingot Settings"));
        if (!title.isEmpty()) {
            QCOMPARE(settings.windowTitle(), title);
            ++checked;
        }
        // What the Chinese lacks falls back to the English plural forms, not to "1 time(s)".
        const char *plural = "%n file(s)";
        if (committedChinese(QStringLiteral("ingot::cli"), QLatin1String(plural)).isEmpty())
            QCOMPARE(QCoreApplication::translate("ingot::cli", plural, nullptr, 1), QStringLiteral("1 file"));
        if (checked == 0)
            QSKIP("translations/ingot_zh_CN.ts translates none of the texts checked yet");
    }

    void englishWidgets_data()
    {
        QTest::addColumn<QByteArray>("language");
        QTest::newRow("en") << QByteArray("en");
        QTest::newRow("unknown") << QByteArray("xx_YY");
        QTest::newRow("nonsense") << QByteArray("../../etc/passwd");
    }
    void englishWidgets()
    {
        QFETCH(QByteArray, language);
        qputenv("INGOT_LANGUAGE", language);
        installTranslations(*qApp);
        MainWindow w;
        QCOMPARE(w.navigation()->item(0)->text(), QStringLiteral("Local cache"));
        QCOMPARE(w.menuBar()->actions().first()->text(), QStringLiteral("&File"));
        SettingsDialog settings;
        QCOMPARE(settings.windowTitle(), QStringLiteral("Ingot Settings"));
        // English plural forms are installed: no "(s)" for one.
        const char *warnings = "%n warning(s); run `ingot-cli cache status` to see them.";
        QCOMPARE(QCoreApplication::translate("ingot::cli", warnings, nullptr, 1),
                 QStringLiteral("1 warning; run `ingot-cli cache status` to see it."));
        QCOMPARE(QCoreApplication::translate("ingot::cli", warnings, nullptr, 3),
                 QStringLiteral("3 warnings; run `ingot-cli cache status` to see them."));
    }

    void cliSpeaksTheLanguage()
    {
        const ProgramRun en = cliHelp("en");
        QCOMPARE(en.code, 0);
        const QString usage = QStringLiteral("Usage: ingot-cli GROUP COMMAND [options]\n\nGroups:\n");
        const QString enText = QString::fromUtf8(en.out + en.err);
        QVERIFY2(enText.contains(usage), qPrintable(enText));
        const ProgramRun unknown = cliHelp("xx_YY");
        QCOMPARE(unknown.code, 0);
        QCOMPARE(unknown.out + unknown.err, en.out + en.err);

        const ProgramRun zh = cliHelp("zh_CN");
        QCOMPARE(zh.code, 0);
        const QString zhText = QString::fromUtf8(zh.out + zh.err);
        int checked = 0;
        for (const QString &source : {usage, QStringLiteral("Print the version"), QStringLiteral("This help")}) {
            const QString expected = committedChinese(QStringLiteral("ingot::cli"), source);
            if (expected.isEmpty()) {
                qWarning("not translated yet: %s", qPrintable(source));
                continue;
            }
            QVERIFY2(zhText.contains(expected), qPrintable(zhText));
            QVERIFY2(!zhText.contains(source), qPrintable(zhText));
            ++checked;
        }
        if (checked == 0)
            QSKIP("translations/ingot_zh_CN.ts translates none of ingot-cli's usage texts yet");
    }

    // The Settings dialog: the language combo names each language in itself and saves the choice.
    void settingsSavesLanguage()
    {
        AppSettings::setLanguage(QString());
        SettingsDialog dlg;
        QComboBox *combo = dlg.languageCombo();
        QCOMPARE(combo->currentData().toString(), QString());
        QCOMPARE(combo->findText(QStringLiteral(u"简体中文")), combo->findData(QStringLiteral("zh_CN")));
        QCOMPARE(combo->findText(QStringLiteral("English")), combo->findData(QStringLiteral("en")));
        QPushButton *restart = nullptr;
        for (QPushButton *b : dlg.findChildren<QPushButton *>())
            if (b->text() == QStringLiteral("Restart now"))
                restart = b;
        QVERIFY(restart);
        QVERIFY(!restart->isEnabled());  // nothing to restart for
        combo->setCurrentIndex(combo->findData(QStringLiteral("zh_CN")));
        QVERIFY(restart->isEnabled());
        QVERIFY(!dlg.restartRequested());
        dlg.accept();
        QCOMPARE(AppSettings::language(), QStringLiteral("zh_CN"));
        qunsetenv("INGOT_LANGUAGE");
        QCOMPARE(chosenLanguage(), QStringLiteral("zh_CN"));

        AppSettings::setLanguage(QStringLiteral("de"));  // a name set by hand stays as it is
        SettingsDialog other;
        QCOMPARE(other.languageCombo()->currentData().toString(), QStringLiteral("de"));
        other.accept();
        QCOMPARE(AppSettings::language(), QStringLiteral("de"));
    }
};

QTEST_MAIN(TestLanguage)
#include "tst_language.moc"
