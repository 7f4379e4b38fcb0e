// A test server written in Python (tests/s3/tests3.py, tests/s3/imds_standin.py) as a child process: started with
// a --port-file it writes once it listens, stopped with the object.
#pragma once

#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

namespace ingot::test {

// Runs a botocore script of tests/s3 with Debian's python3, `input` on its stdin; its output lines, or false with
// its stderr in *error (python3-boto3 missing: install-deps.sh --test).
inline bool runBotocore(const char *script, const QByteArray &input, QList<QByteArray> *lines, QString *error)
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(INGOT_SOURCE_DIR "/tests/s3/") + QLatin1String(script)});
    if (!p.waitForStarted()) {
        *error = QStringLiteral("/usr/bin/python3 did not start");
        return false;
    }
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        *error = QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    *lines = p.readAllStandardOutput().trimmed().split('\n');
    return true;
}

class PythonServer
{
public:
    PythonServer(const char *script, const QStringList &args)
    {
        m_portFile = m_dir.path() + QStringLiteral("/port");
        m_p.start(QStringLiteral("/usr/bin/python3"), QStringList{QStringLiteral(INGOT_SOURCE_DIR "/") + QLatin1String(script),
                                                                  QStringLiteral("--port-file"), m_portFile} + args);
        QElapsedTimer t;
        t.start();
        while (!QFile::exists(m_portFile) && t.elapsed() < 20000)
            QThread::msleep(20);
    }
    ~PythonServer()
    {
        m_p.kill();
        m_p.waitForFinished();
    }
    Q_DISABLE_COPY_MOVE(PythonServer)
    QString url() const { return QStringLiteral("http://127.0.0.1:") + QString::fromLatin1(readFile(m_portFile)); }

private:
    QTemporaryDir m_dir;
    QString m_portFile;
    QProcess m_p;
};

}  // namespace ingot::test
