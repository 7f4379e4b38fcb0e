// `ingot-cli job metrics ID --format csv|json` on a real backend run (torchrun on CPU, the tiny config): every series
// the run logged, CSV with a header and RFC 4180 quoting, numbers in the C locale whatever the language, the same
// values in the JSON; and the writer's quoting and numbers on their own.
#include "services/jobs/metricsexport.h"
#include "services/util/csv.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ingot;

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QString err;
};

class Cli
{
public:
    QTemporaryDir data;
    Run operator()(const QStringList &args, const QString &language = QString()) const
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), data.path() + QStringLiteral("/config"));
        e.remove(QStringLiteral("INGOT_BACKEND_DIR"));
        e.remove(QStringLiteral("INGOT_LANGUAGE"));
        if (!language.isEmpty()) {
            // A language whose numbers have a decimal comma: the export must not follow it.
            e.insert(QStringLiteral("INGOT_LANGUAGE"), language);
            e.insert(QStringLiteral("LC_ALL"), QStringLiteral("de_DE.UTF-8"));
            e.insert(QStringLiteral("LC_NUMERIC"), QStringLiteral("de_DE.UTF-8"));
        }
        p.setProcessEnvironment(e);
        p.setStandardInputFile(QProcess::nullDevice());
        p.start(QStringLiteral(INGOT_CLI_PATH), args);
        Run r;
        if (!p.waitForFinished(240000)) {
            p.kill();
            p.waitForFinished(10000);
            return r;
        }
        r.code = p.exitCode();
        r.out = p.readAllStandardOutput();
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }
};

// RFC 4180 records: fields split on commas outside quotes, "" inside quotes a quote, lines ended by CRLF.
QList<QList<QByteArray>> parseCsv(const QByteArray &text, bool *ok)
{
    QList<QList<QByteArray>> rows;
    QList<QByteArray> row;
    QByteArray field;
    bool quoted = false;
    *ok = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row << field;
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            row << field;
            field.clear();
            rows << row;
            row.clear();
            ++i;
        } else if (c == '\n' || c == '\r') {
            *ok = false;  // a bare line break outside quotes
        } else {
            field += c;
        }
    }
    if (quoted || !field.isEmpty() || !row.isEmpty())
        *ok = false;  // the last record is not ended by CRLF
    return rows;
}

}  // namespace

class TestJobMetricsCli : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void quotingAndNumbers()
    {
        QCOMPARE(csvField(QByteArray("plain")), QByteArray("plain"));
        QCOMPARE(csvField(QByteArray("a,b")), QByteArray("\"a,b\""));
        QCOMPARE(csvField(QByteArray("say \"hi\"")), QByteArray("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField(QByteArray("two\r\nlines")), QByteArray("\"two\r\nlines\""));
        QCOMPARE(exportNumber(2.5), QByteArray("2.5"));
        QCOMPARE(exportNumber(123456.75), QByteArray("123456.75"));  // no group separators
        // The shortest text that reads back as the same double.
        for (double v : {0.1, 1.0 / 3, 2.0e-5, 6.02214076e23, -0.0001, 3.0})
            QCOMPARE(exportNumber(v).toDouble(), v);
        QCOMPARE(exportNumber(1e-7), QByteArray("1e-07"));
        QVERIFY(exportNumber(MetricPoint::none).isEmpty());
        QVERIFY(exportNumber(qInf()).isEmpty());

        MetricsExportInput in;
        in.id = QStringLiteral("20260101-000000-abcd");
        in.name = QStringLiteral("a \"quoted\", name");
        in.startedAt = 1767225600;  // 2026-01-01T00:00:00Z
        MetricPoint p;
        p.step = 3;
        p.time = 1.5;
        p.loss = 2.25;
        p.peakMemory = 1024;
        in.points << p;
        bool ok = false;
        const auto rows = parseCsv(metricsCsv(in), &ok);
        QVERIFY(ok);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].size(), metricsExportColumns().size());
        QCOMPARE(rows[1][0], QByteArray("3"));
        QCOMPARE(rows[1][1], QByteArray("1.5"));
        QCOMPARE(rows[1][2], QByteArray("2026-01-01T00:00:01.500Z"));
        QCOMPARE(rows[1][3], QByteArray("2.25"));
        QCOMPARE(rows[1][4], QByteArray());  // no learning rate logged: an empty cell
        QCOMPARE(rows[1][9], QByteArray("1024"));
        const QJsonObject j = QJsonDocument::fromJson(metricsJson(in)).object();
        QCOMPARE(j.value(QLatin1String("name")).toString(), in.name);
        const QJsonObject point = j.value(QLatin1String("points")).toArray().at(0).toObject();
        QCOMPARE(point.value(QLatin1String("loss")).toDouble(), 2.25);
        QVERIFY(point.value(QLatin1String("learning_rate")).isNull());
        QCOMPARE(point.value(QLatin1String("step")).toInteger(), 3);
    }

    // A real run: its CSV and JSON hold every step it logged, the same values, in the C locale (asked in Chinese with
    // a German numeric locale too).
    void exportsARealRun()
    {
        Cli cli;
        Run r = cli({QStringLiteral("job"), QStringLiteral("launch"), QStringLiteral("--nproc-per-node"), QStringLiteral("1"),
                     QStringLiteral("--name"), QStringLiteral("metrics, \"export\""), QStringLiteral("--python"),
                     QStringLiteral("/usr/bin/python3"), QStringLiteral("--"), QStringLiteral("--config_name"),
                     QStringLiteral("tiny"), QStringLiteral("--max_steps"), QStringLiteral("4"),
                     QStringLiteral("--logging_steps"), QStringLiteral("1")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString id = QString::fromUtf8(r.out).trimmed();
        r = cli({QStringLiteral("job"), QStringLiteral("wait"), id});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        r = cli({QStringLiteral("job"), QStringLiteral("metrics"), id, QStringLiteral("--format"), QStringLiteral("csv")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        bool ok = false;
        const auto rows = parseCsv(r.out, &ok);
        QVERIFY2(ok, r.out.constData());
        QCOMPARE(rows.value(0), (QList<QByteArray>{"step", "time_s", "wall_time", "loss", "learning_rate", "grad_norm",
                                                    "tokens_per_second", "step_time_s", "epoch", "peak_memory_bytes"}));
        QVERIFY2(rows.size() >= 5, r.out.constData());  // the header and steps 1..4
        QList<qint64> steps;
        for (int i = 1; i < rows.size(); ++i) {
            steps << rows[i][0].toLongLong();
            bool num = false;
            QVERIFY(rows[i][3].toDouble(&num) > 0 && num);  // the loss, in the C locale
            QVERIFY(!rows[i][2].isEmpty());                  // the wall time
        }
        QVERIFY2(steps.contains(1) && steps.contains(4), r.out.constData());

        // The same run asked in Chinese, numbers in a decimal-comma locale: the same bytes.
        const Run localized = cli({QStringLiteral("job"), QStringLiteral("metrics"), id}, QStringLiteral("zh_CN"));
        QCOMPARE(localized.code, 0);
        QCOMPARE(localized.out, r.out);

        r = cli({QStringLiteral("job"), QStringLiteral("metrics"), id, QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j.value(QLatin1String("id")).toString(), id);
        QCOMPARE(j.value(QLatin1String("name")).toString(), QStringLiteral("metrics, \"export\""));
        const QJsonArray points = j.value(QLatin1String("points")).toArray();
        QCOMPARE(points.size(), rows.size() - 1);
        for (int i = 0; i < points.size(); ++i) {
            const QJsonObject p = points[i].toObject();
            QCOMPARE(p.value(QLatin1String("step")).toInteger(), rows[i + 1][0].toLongLong());
            QCOMPARE(p.value(QLatin1String("loss")).toDouble(), rows[i + 1][3].toDouble());
        }

        r = cli({QStringLiteral("job"), QStringLiteral("metrics"), id, QStringLiteral("--format"), QStringLiteral("xlsx")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QLatin1String("unknown format")), qPrintable(r.err));
        r = cli({QStringLiteral("job"), QStringLiteral("metrics"), QStringLiteral("20200101-000000-dead")});
        QVERIFY(r.code != 0);
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestJobMetricsCli)
#include "tst_jobmetricscli.moc"
