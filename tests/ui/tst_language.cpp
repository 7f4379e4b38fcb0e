// The language Ingot speaks, as the app sets it up (ingot::installTranslations): with INGOT_LANGUAGE=zh_CN real
// widgets and the real ingot-cli show the Chinese of translations/ingot_zh_CN.ts; with "en" they stay English (with
// English plural forms); a language Ingot does not have falls back to English. The expected Chinese is read from
// the committed .ts: a text not translated there yet is skipped, not failed (the translation is others' work).
#include "app/i18n/translations.h"
#include "services/slurm/slurmcluster.h"
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
#include <QTemporaryDir>
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
                              QStringLiteral("Remote hosts"), QStringLiteral("Transfers"), QStringLiteral("Fleet")};
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

    // Issue 35: "1 nodes", "0 job(s)", "(1 processes)", "1 rank folder(s)", "every 1 steps": counts in messages are
    // Qt's %n plurals, and with the English translation loaded as the app loads it they read right for 1 and 2.
    // (The English singular and plural of each message live in translations/ingot_en.ts.)
    void countsReadRightInEnglish()
    {
        qputenv("INGOT_LANGUAGE", "en");
        installTranslations(*qApp);
        SlurmClusterState one;
        one.found = true;
        one.info.version = QStringLiteral("22.05.8");
        SlurmPartition p;
        p.name = "debug";
        p.maxTime = "UNLIMITED";
        p.totalNodes = 1;
        p.totalCpus = 1;
        p.idle = 1;
        one.info.partitions << p;
        SlurmNode n;
        n.name = "n1";
        n.cpus = 1;
        n.memoryMb = 4000;
        one.info.nodes << n;
        one.info.queue << SlurmQueueJob();
        const QString summary = slurmClusterSummary(one);
        QVERIFY2(summary.contains(QStringLiteral("debug: 1 node (1 idle")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("down), 1 CPU, limit")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("1 CPU, 3.9 GiB")), qPrintable(summary));  // memory in binary units
        QVERIFY2(summary.contains(QStringLiteral("Your queue: 1 job.")), qPrintable(summary));
        SlurmClusterState two = one;
        two.info.partitions[0].totalNodes = 2;
        two.info.queue.clear();
        const QString summary2 = slurmClusterSummary(two);
        QVERIFY2(summary2.contains(QStringLiteral("debug: 2 nodes (1 idle")), qPrintable(summary2));
        QVERIFY2(summary2.contains(QStringLiteral("Your queue: 0 jobs.")), qPrintable(summary2));

        const auto tr = [](const char *context, const char *source, int count) {
            return QCoreApplication::translate(context, source, nullptr, count);
        };
        QCOMPARE(tr("ingot::cli", "Layout:     %1 (dp\u00d7tp\u00d7pp), %n process(es)", 1).arg(QStringLiteral("1\u00d71\u00d71")),
                 QStringLiteral("Layout:     1\u00d71\u00d71 (dp\u00d7tp\u00d7pp), 1 process"));
        QCOMPARE(tr("ingot::cli", "Layout:     %1 (dp\u00d7tp\u00d7pp), %n process(es)", 2).arg(QStringLiteral("1\u00d72\u00d71")),
                 QStringLiteral("Layout:     1\u00d72\u00d71 (dp\u00d7tp\u00d7pp), 2 processes"));
        QCOMPARE(tr("ingot::ConsolidateWizard", "%n rank folder(s)", 1), QStringLiteral("1 rank folder"));
        QCOMPARE(tr("ingot::ConsolidateWizard", "%n rank folder(s)", 2), QStringLiteral("2 rank folders"));
        QCOMPARE(tr("ingot::JobLauncher", " step(s)", 1), QStringLiteral(" step"));
        QCOMPARE(tr("ingot::JobLauncher", " step(s)", 2), QStringLiteral(" steps"));
        QCOMPARE(tr("ingot::cli", "Wrote %n entries (%1, %2 apparent size) to %3", 1), QStringLiteral("Wrote 1 entry (%1, %2 apparent size) to %3"));
        QCOMPARE(tr("ingot::TransfersModel", "%1/%n entries", 1), QStringLiteral("%1/1 entry"));
    }

    // Issue 35: ingot-cli in Chinese still wrote "0 bytes" (its sizes in the C locale); sizes, like the words,
    // follow the chosen language now, from Qt's locale data, the same as the window's.
    void cliSizesFollowTheLanguage()
    {
        QTemporaryDir empty;
        QVERIFY(empty.isValid());
        const QStringList args{QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--cache-dir"), empty.path()};
        qputenv("INGOT_LANGUAGE", "zh_CN");
        const ProgramRun zh = runProgram(QStringLiteral(INGOT_CLI_PATH), args);
        qputenv("INGOT_LANGUAGE", "en");
        const ProgramRun en = runProgram(QStringLiteral(INGOT_CLI_PATH), args);
        qunsetenv("INGOT_LANGUAGE");
        QCOMPARE(zh.code, 0);
        QCOMPARE(en.code, 0);
        const QString zero = QLocale(QLocale::Chinese, QLocale::China).formattedDataSize(0, 0, QLocale::DataSizeIecFormat);
        QCOMPARE(zero, QString::fromUtf8("0 \xe5\xad\x97\xe8\x8a\x82"));  // "0 字节"
        QVERIFY2(QString::fromUtf8(zh.out).contains(zero), zh.out.constData());
        QVERIFY2(!zh.out.contains("0 bytes"), zh.out.constData());
        QVERIFY2(en.out.contains("0 bytes"), en.out.constData());
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
