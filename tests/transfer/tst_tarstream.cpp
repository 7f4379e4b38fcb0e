// The tar stream of a host copy, from memory: what tarMemberHeader writes (long names too) TarReceiver reads back
// with the right bytes and sha256; GNU tar's own archives are read; a name leaving the folder, a link, a member the
// listing did not show or larger than listed, a bad checksum and a truncated archive are refused, and undo() leaves
// the folder empty.
#include "services/transfer/tarstream.h"

#include <QCryptographicHash>
#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace ingot;

namespace {

class MemorySource final : public TarSource
{
public:
    explicit MemorySource(QByteArray data) : m_data(std::move(data)) {}
    bool readAtLeast(qint64) override { return true; }
    const char *data() const override { return m_data.constData() + m_at; }
    qint64 available() const override { return m_data.size() - m_at; }
    void consume(qint64 n) override { m_at += n; }

private:
    QByteArray m_data;
    qint64 m_at = 0;
};

QByteArray member(const QByteArray &name, const QByteArray &content)
{
    QByteArray out = tarMemberHeader(name, '0', quint64(content.size()), 0644, 1700000000);
    out += content;
    out += QByteArray(int(tarPadded(content.size()) - content.size()), '\0');
    return out;
}

QByteArray end()
{
    return QByteArray(2 * kTarBlock, '\0');
}

ListedEntry listing(const QHash<QByteArray, qint64> &sizes)
{
    ListedEntry l;
    l.sizes = sizes;
    for (qint64 s : sizes)
        l.total += s;
    return l;
}

struct Received {
    bool ok = false;
    QString error;
    QHash<QByteArray, QByteArray> hashes;
};

// Reads `archive` into `folder`; on failure undoes what it made, as a copy does.
Received receive(const QString &folder, const QByteArray &archive, const ListedEntry &listed)
{
    Received r;
    const int fd = ::open(QFile::encodeName(folder).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    MemorySource source(archive);
    const TarReceiver::Progress progress;
    TarReceiver rx(fd, source, progress, listed);
    r.ok = rx.run(&r.error);
    r.hashes = rx.hashes;
    if (!r.ok)
        rx.undo();
    ::close(fd);
    return r;
}

QByteArray sha(const QByteArray &b)
{
    return QCryptographicHash::hash(b, QCryptographicHash::Sha256).toHex();
}

bool isEmptyFolder(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System).isEmpty();
}

}  // namespace

class TestTarStream : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void writtenIsRead()
    {
        QTemporaryDir dir;
        const QByteArray longName = QByteArray(150, 'n') + ".neff";
        const QByteArray neff(5000, 'x');
        const QByteArray archive = tarMemberHeader("sub/", '5', 0, 0755, 0) + member("sub/flags.json", "{}")
                                   + member(longName, neff) + end();
        const Received r = receive(dir.path(), archive, listing({{"sub/flags.json", 2}, {longName, 5000}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.hashes.value(longName), sha(neff));
        QCOMPARE(r.hashes.value("sub/flags.json"), sha("{}"));
        QFile f(dir.filePath(QString::fromLatin1(longName)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), neff);
    }

    void gnuTarsOwnArchiveIsRead()
    {
        QTemporaryDir src, dst;
        QDir(src.path()).mkpath(QStringLiteral("sub"));
        QFile f(src.filePath(QStringLiteral("sub/model.neff")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(3000, 'q'));
        f.close();
        QProcess tar;
        tar.start(QStringLiteral("tar"), {QStringLiteral("-c"), QStringLiteral("-f"), QStringLiteral("-"), QStringLiteral("-b"),
                                          QStringLiteral("1"), QStringLiteral("--format=gnu"), QStringLiteral("-C"), src.path(),
                                          QStringLiteral(".")});
        QVERIFY(tar.waitForFinished(30000));
        const Received r = receive(dst.path(), tar.readAllStandardOutput(), listing({{"sub/model.neff", 3000}}));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.hashes.value("sub/model.neff"), sha(QByteArray(3000, 'q')));
    }

    void hostileArchivesAreRefusedAndUndone_data()
    {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("says");
        const QByteArray ok = member("a.neff", "abc");
        QTest::newRow("outside") << (ok + member("../escape", "x") + end()) << QStringLiteral("outside the entry");
        QTest::newRow("link") << (ok + tarMemberHeader("l", '2', 0, 0777, 0) + end()) << QStringLiteral("not a file or a folder");
        QTest::newRow("not listed") << (ok + member("other", "x") + end()) << QStringLiteral("did not show");
        QTest::newRow("larger") << (member("a.neff", "abcdef") + end()) << QStringLiteral("more than the entry");
        QTest::newRow("truncated") << (ok + member("b.neff", "0123456789").left(kTarBlock + 4)) << QStringLiteral("ended early");
        QByteArray bad = ok + member("b.neff", "x") + end();
        char &digit = bad[kTarBlock * 2 + 150];  // in the checksum field of the second header
        digit = digit == '1' ? '2' : '1';
        QTest::newRow("checksum") << bad << QStringLiteral("checksum");
        QTest::newRow("twice") << (ok + member("a.neff", "abc") + end()) << QStringLiteral("twice");
    }

    void hostileArchivesAreRefusedAndUndone()
    {
        QFETCH(QByteArray, archive);
        QFETCH(QString, says);
        QTemporaryDir dir;
        const Received r = receive(dir.path(), archive, listing({{"a.neff", 3}, {"b.neff", 10}}));
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(says), qPrintable(r.error));
        QVERIFY(isEmptyFolder(dir.path()));
        QVERIFY(!QFileInfo::exists(dir.path() + QStringLiteral("/../escape")));
    }
};

QTEST_GUILESS_MAIN(TestTarStream)
#include "tst_tarstream.moc"
