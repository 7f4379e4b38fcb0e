// ingot-cli's plain-text tables line up in terminal columns, Chinese (two columns a character) included.
#include "app/cli/clicommon.h"

#include <QTest>

using namespace ingot::cli;

class TestCliTable : public QObject
{
    Q_OBJECT

private slots:
    void widths()
    {
        QCOMPARE(terminalWidth(QStringLiteral("abc")), 3);
        QCOMPARE(terminalWidth(QStringLiteral(u"本地缓存")), 8);
        QCOMPARE(terminalWidth(QStringLiteral(u"（完成）")), 8);  // fullwidth punctuation
        QCOMPARE(terminalWidth(QStringLiteral(u"e\u0301")), 1);     // e + a combining acute accent
        QCOMPARE(terminalWidth(QString()), 0);
    }

    void chineseCellsLineUp()
    {
        Table t({QStringLiteral(u"版本"), QStringLiteral("Size")}, {false, true});
        t.add({QStringLiteral("2.15.128.0"), QStringLiteral("1 GB")});
        t.add({QStringLiteral(u"未知版本"), QStringLiteral("12 MB")});
        const QStringList lines = t.render().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        // Every line ends at the same terminal column (the last column is right-aligned).
        for (const QString &l : lines)
            QCOMPARE(terminalWidth(l), terminalWidth(lines.first()));
        QCOMPARE(lines[2], QStringLiteral(u"未知版本    12 MB"));
    }
};

QTEST_GUILESS_MAIN(TestCliTable)
#include "tst_clitable.moc"
