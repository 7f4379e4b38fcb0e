// How values are written for people (services/util/format.h), one table per kind, in English, Chinese and the C
// locale: the same value gives the same text in the GUI and ingot-cli because both call these.
#include "services/util/format.h"

#include <QDateTime>
#include <QTest>
#include <QTimeZone>

#include <cmath>

using namespace ingot;

namespace {
const QLocale kEnglish(QLocale::English, QLocale::UnitedStates);
const QLocale kChinese(QLocale::Chinese, QLocale::China);

// 27 Nov 2026 20:47:32 local time.
qint64 evening()
{
    return QDateTime(QDate(2026, 11, 27), QTime(20, 47, 32)).toMSecsSinceEpoch();
}
}  // namespace

class TestFormat : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { setDisplayLocale(QLocale::c()); }

    void bytes_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("en zero") << kEnglish << qint64(0) << QStringLiteral("0 bytes");
        QTest::newRow("en small") << kEnglish << qint64(999) << QStringLiteral("999 bytes");
        QTest::newRow("en KiB") << kEnglish << qint64(1536) << QStringLiteral("1.5 KiB");
        QTest::newRow("en GiB") << kEnglish << qint64(4000) * 1024 * 1024 << QStringLiteral("3.9 GiB");
        QTest::newRow("en 100 GB") << kEnglish << qint64(100) * 1000 * 1000 * 1000 << QStringLiteral("93.1 GiB");
        QTest::newRow("zh zero") << kChinese << qint64(0) << QString::fromUtf8("0 字节");
        QTest::newRow("zh GiB") << kChinese << qint64(4000) * 1024 * 1024 << QStringLiteral("3.9 GiB");
        QTest::newRow("C GiB") << QLocale::c() << qint64(4000) * 1024 * 1024 << QStringLiteral("3.9 GiB");
    }
    void bytes()
    {
        QFETCH(QLocale, locale);
        QFETCH(qint64, bytes);
        QFETCH(QString, text);
        setDisplayLocale(locale);
        QCOMPARE(formatBytes(bytes), text);
    }

    // Slurm's memory "MB" are MiB: the GUI's node kinds and the CLI's MEMORY column both say 3.9 GiB for 4000.
    void memory()
    {
        setDisplayLocale(kEnglish);
        QCOMPARE(formatMebibytes(4000), QStringLiteral("3.9 GiB"));
        QCOMPARE(formatMebibytes(512), QStringLiteral("512.0 MiB"));
        QCOMPARE(formatMebibytes(0), QStringLiteral("0 bytes"));
    }

    void dates_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<QString>("text");
        QTest::newRow("en") << kEnglish << QStringLiteral("11/27/2026 8:47\u202fPM");
        QTest::newRow("zh") << kChinese << QStringLiteral("2026/11/27 20:47");
        QTest::newRow("C") << QLocale::c() << QStringLiteral("2026-11-27 20:47");
    }
    void dates()
    {
        QFETCH(QLocale, locale);
        QFETCH(QString, text);
        setDisplayLocale(locale);
        // Some CLDR versions put a narrow no-break space before "PM": compare with plain spaces.
        QString shown = formatDateTime(evening());
        QCOMPARE(shown.replace(QChar(0x202f), QLatin1Char(' ')), QString(text).replace(QChar(0x202f), QLatin1Char(' ')));
        QCOMPARE(formatDateTime(0), QStringLiteral("-"));
    }

    // The machine form never depends on the language.
    void isoDates()
    {
        const qint64 ms = QDateTime(QDate(2026, 11, 27), QTime(20, 39, 32), QTimeZone::utc()).toMSecsSinceEpoch();
        for (const QLocale &l : {kEnglish, kChinese, QLocale::c()}) {
            setDisplayLocale(l);
            QCOMPARE(isoDateTime(ms), QStringLiteral("2026-11-27T20:39:32.000Z"));
        }
        QCOMPARE(isoDateTime(0), QString());
    }

    void ages()
    {
        const qint64 now = 1'800'000'000'000;
        QCOMPARE(formatAge(now - 10'000, now), QStringLiteral("just now"));
        QCOMPARE(formatAge(now - 5 * 60'000, now), QStringLiteral("5 min ago"));
        QCOMPARE(formatAge(now - 3 * 3'600'000, now), QStringLiteral("3 h ago"));
        QCOMPARE(formatAge(now - 40LL * 86'400'000, now), QStringLiteral("40 days ago"));
        QCOMPARE(formatAge(0, now), QStringLiteral("-"));
    }

    void layouts()
    {
        for (const QLocale &l : {kEnglish, kChinese, QLocale::c()}) {
            setDisplayLocale(l);
            QCOMPARE(formatLayout(1, 2, 1), QStringLiteral("1\u00d72\u00d71"));
        }
    }

    void counts()
    {
        setDisplayLocale(kEnglish);
        QCOMPARE(formatCount(1200), QStringLiteral("1,200"));
        setDisplayLocale(QLocale::c());
        QCOMPARE(formatCount(1200), QStringLiteral("1200"));
    }

    void metrics_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        // Issue 35: "879.395 → 3,021.27" and "3.33E-06" in one chart summary; now four significant digits each.
        QTest::newRow("en throughput") << kEnglish << 879.395 << QStringLiteral("879.4");
        QTest::newRow("en grouped") << kEnglish << 3021.27 << QStringLiteral("3,021");
        QTest::newRow("en learning rate") << kEnglish << 3.33e-6 << QStringLiteral("3.33e-6");
        QTest::newRow("en loss") << kEnglish << 2.34567 << QStringLiteral("2.346");
        QTest::newRow("en round loss") << kEnglish << 2.3 << QStringLiteral("2.3");
        QTest::newRow("en small") << kEnglish << 0.012345 << QStringLiteral("0.01235");
        QTest::newRow("en carry") << kEnglish << 999.96 << QStringLiteral("1,000");
        QTest::newRow("en sci carry") << kEnglish << 9.99996e-4 << QStringLiteral("1e-3");
        QTest::newRow("en huge") << kEnglish << 1.5e12 << QStringLiteral("1.5e12");
        QTest::newRow("en negative") << kEnglish << -0.25 << QStringLiteral("-0.25");
        QTest::newRow("en zero") << kEnglish << 0.0 << QStringLiteral("0");
        QTest::newRow("en nan") << kEnglish << std::nan("") << QStringLiteral("nan");
        QTest::newRow("zh grouped") << kChinese << 3021.27 << QStringLiteral("3,021");
        QTest::newRow("zh learning rate") << kChinese << 3.33e-6 << QStringLiteral("3.33e-6");
        QTest::newRow("C grouped") << QLocale::c() << 3021.27 << QStringLiteral("3021");
        QTest::newRow("de decimal comma") << QLocale(QLocale::German, QLocale::Germany) << 2.5 << QStringLiteral("2,5");
        QTest::newRow("de grouped") << QLocale(QLocale::German, QLocale::Germany) << 3021.27 << QStringLiteral("3.021");
    }
    void metrics()
    {
        QFETCH(QLocale, locale);
        QFETCH(double, value);
        QFETCH(QString, text);
        setDisplayLocale(locale);
        QCOMPARE(formatMetric(value), text);
    }
};

QTEST_GUILESS_MAIN(TestFormat)
#include "tst_format.moc"
