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
