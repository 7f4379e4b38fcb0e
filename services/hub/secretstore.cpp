#include "services/hub/secretstore.h"

#include <QCoreApplication>
#include <QEventLoop>

#include <qt6keychain/keychain.h>

namespace ingot {

namespace {
struct KeychainText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Keychain)
};

// Runs a QtKeychain job to its end with a local event loop; QtKeychain needs one in the calling thread.
bool runJob(QKeychain::Job *job, QString *error)
{
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
