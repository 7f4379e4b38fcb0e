#include "testhub.h"

#include "httpclient.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

namespace ingot::test {

TestHub::TestHub(QStringList tokens)
    : m_tokens(std::move(tokens))
{
}

TestHub::~TestHub()
{
    if (m_proc.state() != QProcess::NotRunning) {
        m_proc.kill();
        m_proc.waitForFinished(5000);
    }
}

bool TestHub::start(QString *error, int pageSize, qint64 lfsThreshold)
{
    const QString portFile = m_data.path() + QStringLiteral("/port");
    QStringList args{QStringLiteral(INGOT_SOURCE_DIR "/tests/hub/testhub.py"), QStringLiteral("--data"), m_data.path(),
                     QStringLiteral("--port-file"), portFile, QStringLiteral("--page-size"), QString::number(pageSize),
                     QStringLiteral("--lfs-threshold"), QString::number(lfsThreshold)};
    for (const QString &t : m_tokens)
        args << QStringLiteral("--token") << t;
    m_proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_proc.start(QStringLiteral("python3"), args);
    if (!m_proc.waitForStarted(10000)) {
        *error = QStringLiteral("python3 did not start: ") + m_proc.errorString();
        return false;
    }
    for (int i = 0; i < 200 && !QFile::exists(portFile); ++i)
        QThread::msleep(25);
    QFile f(portFile);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("the test Hub did not start");
        return false;
    }
    m_url = QStringLiteral("http://127.0.0.1:") + QString::fromLatin1(f.readAll().trimmed());
    return true;
}

void TestHub::makeRepo(const QString &repoId, bool isPrivate, const QMap<QString, QByteArray> &files, bool gated)
{
    const QString base = m_data.path() + QStringLiteral("/models/") + repoId;
    QDir().mkpath(base + QStringLiteral("/files"));
    for (auto it = files.cbegin(); it != files.cend(); ++it) {
        const QString p = base + QStringLiteral("/files/") + it.key();
        QDir().mkpath(QFileInfo(p).path());
        QFile out(p);
        out.open(QIODevice::WriteOnly);
        out.write(it.value());
    }
    const nlohmann::json meta = {{"id", repoId.toStdString()}, {"private", isPrivate}, {"gated", gated},
                                 {"owner", repoId.section(QLatin1Char('/'), 0, 0).toStdString()},
                                 {"sha", QByteArray::number(QRandomGenerator::global()->generate64(), 16).rightJustified(40, '0').toStdString()},
                                 {"lfs", nlohmann::json::object()}};
    QFile m(base + QStringLiteral("/repo.json"));
    m.open(QIODevice::WriteOnly);
    m.write(QByteArray::fromStdString(meta.dump()));
}

bool TestHub::post(const QString &path, const nlohmann::json &body)
{
    HttpClient http;
    HttpRequest r;
    r.method = "POST";
    r.url = m_url + path;
    r.body = QByteArray::fromStdString(body.dump());
    r.headers << qMakePair(QByteArray("Content-Type"), QByteArray("application/json"));
    return http.send(r).ok();
}

nlohmann::json TestHub::get(const QString &path)
{
    HttpClient http;
    HttpRequest r;
    r.url = m_url + path;
    const HttpResponse resp = http.send(r);
    try {
        return nlohmann::json::parse(resp.body.constData(), resp.body.constData() + resp.body.size());
    } catch (const nlohmann::json::exception &) {
        return nullptr;
    }
}

void TestHub::clearLog()
{
    HttpClient http;
    HttpRequest r;
    r.method = "DELETE";
    r.url = m_url + QStringLiteral("/_test/log");
    http.send(r);
}

}  // namespace ingot::test
