// Names are bytes: every byte string survives nameFromBytes/nameToBytes, invalid UTF-8 never becomes its U+FFFD
// twin, and displayName() leaves no control character for a terminal or a table to act on.
#include "services/util/names.h"

#include <QRandomGenerator>
#include <QTest>

using namespace ingot;

class TestNames : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void utf8IsDecodedAsUtf8()
    {
        QCOMPARE(nameFromBytes("MODULE_ünïcödé+d41d8cd9"), QStringLiteral("MODULE_ünïcödé+d41d8cd9"));
        QCOMPARE(nameFromBytes("\xF0\x9F\x98\x80"), QString::fromUtf8("\xF0\x9F\x98\x80"));  // outside the BMP
        QCOMPARE(nameToBytes(QStringLiteral("a/b c")), QByteArray("a/b c"));
    }

    void invalidBytesRoundTripAndStayDistinct()
    {
        const QByteArray bad("MODULE_x\xff");
        const QByteArray twin("MODULE_x\xef\xbf\xbd");  // the U+FFFD a lossy decoder would make of it
        QVERIFY(nameFromBytes(bad) != nameFromBytes(twin));
        QCOMPARE(nameToBytes(nameFromBytes(bad)), bad);
        QCOMPARE(nameToBytes(nameFromBytes(twin)), twin);
        for (const QByteArray &b : {QByteArray("\xC0\xAF"), QByteArray("\xED\xA0\x80"), QByteArray("\xF4\x90\x80\x80"),
                                    QByteArray("\xE2\x82"), QByteArray("\x80"), QByteArray("a\xC3")})
            QCOMPARE(nameToBytes(nameFromBytes(b)), b);  // overlong, surrogate, > U+10FFFF, truncated, stray
    }

    void everyByteStringRoundTrips()
    {
        QRandomGenerator rng(7);
        for (int i = 0; i < 20000; ++i) {
            QByteArray b(int(rng.bounded(1, 24)), Qt::Uninitialized);
            for (char &c : b)
                c = char(rng.bounded(256));
            QCOMPARE(nameToBytes(nameFromBytes(b)), b);
        }
    }

    void displayEscapesWhatCouldActOnATerminal()
    {
        QCOMPARE(displayName(QStringLiteral("MODULE_1+aa")), QStringLiteral("MODULE_1+aa"));
        QCOMPARE(displayName(nameFromBytes("MODULE_x\xff")), QStringLiteral("MODULE_x\\xff"));
        const QString title = nameFromBytes("MODULE_\x1b]0;owned\x07");
        QCOMPARE(displayName(title), QStringLiteral("MODULE_\\x1b]0;owned\\x07"));
        QCOMPARE(displayName(QStringLiteral("a\nb\tc\rd")), QStringLiteral("a\\x0ab\\x09c\\x0dd"));
        QCOMPARE(displayName(nameFromBytes("\xc2\x9b" "2J")), QStringLiteral("\\x9b2J"));  // C1 CSI
        QCOMPARE(displayName(QString(QChar(0x202E)) + QStringLiteral("txt.exe")), QStringLiteral("\\u{202e}txt.exe"));
        for (const QChar c : displayName(nameFromBytes("\x01\x1b\x7f\xc2\x85\xff")))
            QVERIFY(c.unicode() >= 0x20 && c.unicode() != 0x7f);
        // Escaping twice changes nothing: a message, a table and the terminal may each escape.
        for (const QByteArray &b : {QByteArray("MODULE_\x1b]0;t\x07"), QByteArray("a\\b\xff"), QByteArray("\xe2\x80\xae")})
            QCOMPARE(displayName(displayName(nameFromBytes(b))), displayName(nameFromBytes(b)));
        QVERIFY(needsEscaping(nameFromBytes("x\xff")));
        QVERIFY(!needsEscaping(QStringLiteral("ünï code")));
    }

    void displayTextKeepsLinesAndTabs()
    {
        const QString text = QStringLiteral("a\tb\nc\x1b[2Jd\r\u202e");
        const QString shown = displayText(text);
        QCOMPARE(shown.count(QLatin1Char('\n')), 1);
        QCOMPARE(shown.count(QLatin1Char('\t')), 1);
        QVERIFY(!shown.contains(QChar(0x1b)));
        QVERIFY(!shown.contains(QLatin1Char('\r')));
        QVERIFY(!shown.contains(QChar(0x202e)));
        QCOMPARE(displayText(shown), shown);
    }
};

QTEST_GUILESS_MAIN(TestNames)
#include "tst_names.moc"
