#include <QTest>
class T : public QObject { Q_OBJECT private Q_SLOTS: void todo() { QSKIP("todo"); } };
QTEST_MAIN(T)
#include "tst_hubcli.moc"
