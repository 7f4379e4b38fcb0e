// The Remote hosts list as a model: rows from RemoteHostEntry values, states in words and roles, statuses kept
// across a reload, names from a config shown escaped. QAbstractItemModelTester watches every change.
#include "models/remote/remotehostsmodel.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QSignalSpy>
#include <QTest>

using namespace ingot;

namespace {
RemoteHostEntry entry(const QString &name, bool fromConfig)
{
    SshHost h;
    QString error;
    if (!parseSshHost(name, &h, &error))
        h.destination = name;  // the model shows what it is given; parsing is the page's job
    return RemoteHostEntry{name, h, fromConfig};
}
}  // namespace

class TestRemoteHostsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsAndStates()
    {
        RemoteHostsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setHosts({entry(QStringLiteral("trn1-dev"), true), entry(QStringLiteral("ubuntu@10.0.0.5:2222"), false)});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), int(RemoteHostsModel::ColumnCount));
        QCOMPARE(m.index(0, RemoteHostsModel::HostColumn).data().toString(), QStringLiteral("trn1-dev"));
        QCOMPARE(m.index(0, RemoteHostsModel::SourceColumn).data().toString(), QStringLiteral("ssh config"));
        QCOMPARE(m.index(1, RemoteHostsModel::SourceColumn).data().toString(), QStringLiteral("added in Ingot"));
        QVERIFY(m.index(0, 0).data(RemoteHostsModel::FromSshConfigRole).toBool());
        QVERIFY(!m.index(1, 0).data(RemoteHostsModel::FromSshConfigRole).toBool());
        QCOMPARE(m.index(1, 0).data(RemoteHostsModel::HostTextRole).toString(), QStringLiteral("ubuntu@10.0.0.5:2222"));
        QCOMPARE(m.index(0, RemoteHostsModel::StateColumn).data().toString(), QStringLiteral("not connected"));
        QVERIFY(!m.index(0, 0).data(Qt::DecorationRole).value<QIcon>().isNull());

        QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
        m.setStatus(QStringLiteral("trn1-dev"), RemoteHostStatus{RemoteHostStatus::State::Connected, {}, {}, -1});
        QCOMPARE(changed.size(), 1);
        QCOMPARE(m.index(0, RemoteHostsModel::StateColumn).data().toString(), QStringLiteral("connected"));
        QCOMPARE(m.index(0, 0).data(RemoteHostsModel::StateRole).toInt(), int(RemoteHostStatus::State::Connected));
        // The same status again is no change.
        m.setStatus(QStringLiteral("trn1-dev"), RemoteHostStatus{RemoteHostStatus::State::Connected, {}, {}, -1});
        QCOMPARE(changed.size(), 1);
        // An unknown host changes nothing.
        m.setStatus(QStringLiteral("nowhere"), RemoteHostStatus{RemoteHostStatus::State::Failed, {}, {}, -1});
        QCOMPARE(changed.size(), 1);

        m.setStatus(QStringLiteral("ubuntu@10.0.0.5:2222"),
                    RemoteHostStatus{RemoteHostStatus::State::Failed, QStringLiteral("connection refused"),
                                     QStringLiteral("Nothing listens on port 2222."), -1});
        QCOMPARE(m.index(1, RemoteHostsModel::StateColumn).data().toString(),
                 QStringLiteral("failed: connection refused"));
        QVERIFY(m.index(1, RemoteHostsModel::StateColumn).data(Qt::ToolTipRole).toString()
                    .contains(QStringLiteral("Nothing listens on port 2222.")));
        m.setStatus(QStringLiteral("ubuntu@10.0.0.5:2222"),
                    RemoteHostStatus{RemoteHostStatus::State::Lost, QStringLiteral("connection lost"), {}, 4});
        QCOMPARE(m.index(1, RemoteHostsModel::StateColumn).data().toString(),
                 QStringLiteral("connection lost, retrying in 4 s"));
        QCOMPARE(m.index(1, 0).data(RemoteHostsModel::RetryRole).toInt(), 4);
        m.setStatus(QStringLiteral("ubuntu@10.0.0.5:2222"),
                    RemoteHostStatus{RemoteHostStatus::State::Lost, QStringLiteral("connection lost"), {}, 0});
        QCOMPARE(m.index(1, RemoteHostsModel::StateColumn).data().toString(),
                 QStringLiteral("connection lost, retrying now…"));

        // A reload keeps what is known of hosts still listed, and drops the others.
        m.setHosts({entry(QStringLiteral("new-host"), false), entry(QStringLiteral("trn1-dev"), true)});
        QCOMPARE(m.hostNames(), (QStringList{QStringLiteral("new-host"), QStringLiteral("trn1-dev")}));
        QCOMPARE(m.status(QStringLiteral("trn1-dev")).state, RemoteHostStatus::State::Connected);
        QCOMPARE(m.status(QStringLiteral("new-host")).state, RemoteHostStatus::State::NotConnected);
        QVERIFY(!m.indexOf(QStringLiteral("ubuntu@10.0.0.5:2222")).isValid());
        QCOMPARE(m.indexOf(QStringLiteral("trn1-dev")).row(), 1);
        QCOMPARE(m.entry(5), nullptr);
    }

    void namesAreShownEscaped()
    {
        RemoteHostsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString evil = QStringLiteral("host\x1b]0;pwned\x07");
        m.setHosts({entry(evil, true)});
        const QString shown = m.index(0, 0).data().toString();
        QVERIFY(!shown.contains(QChar(0x1b)));
        QVERIFY(!shown.contains(QChar(0x07)));
        QVERIFY(shown.startsWith(QStringLiteral("host")));
        // The name itself is kept, for ssh.
        QCOMPARE(m.index(0, 0).data(RemoteHostsModel::HostTextRole).toString(), evil);
    }

    void emptyModel()
    {
        RemoteHostsModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(m.status(QStringLiteral("x")).state, RemoteHostStatus::State::NotConnected);
        QCOMPARE(m.headerData(RemoteHostsModel::StateColumn, Qt::Horizontal).toString(), QStringLiteral("State"));
        m.setHosts({});
        QCOMPARE(m.rowCount(), 0);
    }
};

QTEST_MAIN(TestRemoteHostsModel)
#include "tst_remotehostsmodel.moc"
