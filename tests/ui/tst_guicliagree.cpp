// The GUI and ingot-cli say the same thing for the same value (issue 35): the sample cache the GUI opens is the one
// `ingot-cli cache sample` writes (the README's tour said "the same sample cache" of two different ones: 64 entries
// and 5 failed in the window, 52 and 1 in the terminal), and its size, entries and failed count read the same in
// the Local cache page's summary and in `cache status`.
#include "models/cache/cachetreemodel.h"
#include "services/cache/cachesession.h"
#include "services/cache/cachestats.h"
#include "services/util/format.h"
#include "tests/support/testsupport.h"
#include "ui/localcache/localcachepage.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

struct CliRun {
    int code = -1;
    QByteArray out, err;
};

CliRun cli(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("INGOT_LANGUAGE"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(INGOT_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(120000))
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The value of the summary row named `name` ("Total size", "Entries", a state's label).
QString summaryValue(const QString &html, const QString &name)
{
    const QRegularExpression row(QRegularExpression::escape(name) + QStringLiteral("</td><td align='right'>(?:<b>)?([^<]*)"));
    return row.match(html).captured(1);
}

}  // namespace

class TestGuiCliAgree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sampleCacheReadsTheSame()
    {
        // The window: Open a sample cache, as the empty state offers it.
        LocalCachePage page;
        QSignalSpy scanned(page.session(), &CacheSession::scanFinished);
        page.openSampleCache();
        QTRY_VERIFY_WITH_TIMEOUT(scanned.count() > 0, 60000);
        const CacheStats gui = page.model()->stats(QDateTime::currentMSecsSinceEpoch());
        QVERIFY(gui.entries > 0);
        const QString html = page.summaryLabel()->text();

        // The terminal: the README's commands.
        QTemporaryDir tmp;
        const QString dir = tmp.path() + QStringLiteral("/sample");
        CliRun r = cli({QStringLiteral("cache"), QStringLiteral("sample"), dir});
        QVERIFY2(r.code == 0, r.err.constData());
        r = cli({QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--cache-dir"), dir, QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject st = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(st.value(QStringLiteral("entries")).toInt(), gui.entries);
        QCOMPARE(st.value(QStringLiteral("states")).toObject().value(QStringLiteral("FAILED")).toObject()
                     .value(QStringLiteral("entries")).toInt(),
                 gui.perState[int(ModuleState::Failed)]);
        QCOMPARE(st.value(QStringLiteral("size")).toVariant().toLongLong(), gui.size);

        // The words: the page's Total size and Entries are the CLI's "Entries:    N, SIZE".
        r = cli({QStringLiteral("cache"), QStringLiteral("status"), QStringLiteral("--cache-dir"), dir});
        QVERIFY2(r.code == 0, r.err.constData());
        const QRegularExpression entriesLine(QStringLiteral("^Entries: +([^,]+), (.+)$"), QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = entriesLine.match(QString::fromUtf8(r.out));
        QVERIFY2(m.hasMatch(), r.out.constData());
        QCOMPARE(m.captured(1), summaryValue(html, QStringLiteral("Entries")));
        QCOMPARE(m.captured(2), summaryValue(html, QStringLiteral("Total size")));
        QVERIFY2(m.captured(2).endsWith(QLatin1String("GiB")), qPrintable(m.captured(2)));  // binary units in both
    }
};

QTEST_MAIN(TestGuiCliAgree)
#include "tst_guicliagree.moc"
