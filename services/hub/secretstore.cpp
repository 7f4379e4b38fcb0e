#include "services/hub/secretstore.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QThread>

#include <qt6keychain/keychain.h>

namespace ingot {

namespace {
struct KeychainText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Keychain)
};

// The thread of a GUI application's main loop, where a local event loop would run the UI's events nested.
bool onGuiThread()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && app->inherits("QGuiApplication") && QThread::currentThread() == app->thread();
}

// Runs a QtKeychain job to its end with a local event loop; QtKeychain needs one in the calling thread. That is
// only ever a worker thread (runTask), which has no other loop; on the GUI thread it would nest the UI's loop.
bool runJob(QKeychain::Job *job, QString *error)
{
    Q_ASSERT_X(!onGuiThread(), "KeychainSecretStore", "called on the GUI thread: use runTask");
    if (onGuiThread()) {
        if (error)
            *error = KeychainText::tr("The keychain was asked on the UI thread, which Ingot never does: nothing was "
                                      "read or written. Please report this.");
        return false;
    }
    job->setAutoDelete(false);
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job->start();
    loop.exec();
    if (job->error() != QKeychain::NoError) {
        if (error)
            *error = job->error() == QKeychain::NoBackendAvailable
                         ? KeychainText::tr("No keychain service is running.")
                         : KeychainText::tr("Keychain error: %1").arg(job->errorString());
        return false;
    }
    return true;
}
}  // namespace

SecretStore::~SecretStore() = default;

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{
}

QString KeychainSecretStore::name() const
{
    return KeychainText::tr("the system keychain");
}

bool KeychainSecretStore::read(const QString &key, QString *value, QString *error)
{
    QKeychain::ReadPasswordJob job(m_service);
    job.setKey(key);
    job.setInsecureFallback(false);
    if (!runJob(&job, error))
        return false;
    *value = job.textData();
    return true;
}

bool KeychainSecretStore::write(const QString &key, const QString &value, QString *error)
{
    QKeychain::WritePasswordJob job(m_service);
    job.setKey(key);
    job.setInsecureFallback(false);
    job.setTextData(value);
    return runJob(&job, error);
}

bool KeychainSecretStore::remove(const QString &key, QString *error)
{
    QKeychain::DeletePasswordJob job(m_service);
    job.setKey(key);
    job.setInsecureFallback(false);
    return runJob(&job, error);
}

}  // namespace ingot
