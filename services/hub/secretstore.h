// The system keychain, behind an interface: QtKeychain (Secret Service, KWallet) where one runs. Tests use a
// fake (no keychain service runs on CI machines); callers fall back to the token file when none is available.
#pragma once

#include <QString>

namespace ingot {

class SecretStore
{
public:
    virtual ~SecretStore();
    // False when no keychain service answers (then nothing is stored there).
    virtual bool read(const QString &key, QString *value, QString *error) = 0;
    virtual bool write(const QString &key, const QString &value, QString *error) = 0;
    virtual bool remove(const QString &key, QString *error) = 0;
    virtual QString name() const = 0;  // "the system keychain"
};

// QtKeychain. Blocks the calling thread while a job runs, with a local event loop: call it off the UI thread
// (runTask) or from the CLI. On a GUI application's main thread it asserts, and refuses in release builds.
class KeychainSecretStore final : public SecretStore
{
public:
    explicit KeychainSecretStore(QString service = QStringLiteral("ingot"));
    bool read(const QString &key, QString *value, QString *error) override;
    bool write(const QString &key, const QString &value, QString *error) override;
    bool remove(const QString &key, QString *error) override;
    QString name() const override;

private:
    QString m_service;
};

}  // namespace ingot
