// The system keychain, behind an interface: QtKeychain (Secret Service, KWallet) where one runs. Tests of other
// parts use a fake or none (INGOT_KEYCHAIN=none); callers fall back to the token file when the keychain cannot be
// used, whatever the reason.
#pragma once

#include <memory>

#include <QString>

#include <atomic>

namespace ingot {

// Why a keychain call did not do what was asked.
struct SecretError {
    enum class Kind {
        None,
        NoService,   // no keychain service runs here: nothing is stored there, nothing to report
        Unanswered,  // no answer in time, stopped, or Ingot quitting: what was asked may still happen later
        Failed,      // the keychain answered with an error (locked, access denied, a D-Bus error)
    };
    Kind kind = Kind::None;
    QString message;
    bool ok() const { return kind == Kind::None; }
};

class SecretStore
{
public:
    virtual ~SecretStore();
    // False with *error when the keychain was not read; true with an empty value when it holds no such entry.
    // `stop` (may be null) ends the wait early.
    virtual bool read(const QString &key, QString *value, SecretError *error, const std::atomic_bool *stop = nullptr) = 0;
    virtual bool write(const QString &key, const QString &value, SecretError *error) = 0;
    virtual bool remove(const QString &key, SecretError *error) = 0;
    virtual QString name() const = 0;  // "the system keychain"
};

// QtKeychain. Every job runs on the keychain's one thread (a thread with its own event loop, made once per
// process): QtKeychain queues its jobs process-wide and hears them finish through queued signals, which jobs run on
// short-lived pool threads lose (then every later call waits forever, issue 21). A call blocks the calling thread
// until the job answers, at most the timeout: call it off the UI thread (runTask) or from the CLI. On a GUI
// application's main thread it asserts, and refuses in release builds. Once the application quits (aboutToQuit, or
// QCoreApplication destroyed) every call, pending or new, answers Unanswered at once and nothing waits on the
// keychain's thread.
class KeychainSecretStore final : public SecretStore
{
public:
    // timeoutMs < 0: INGOT_KEYCHAIN_TIMEOUT_MS, else 10 s.
    explicit KeychainSecretStore(QString service = QStringLiteral("ingot"), int timeoutMs = -1);
    bool read(const QString &key, QString *value, SecretError *error, const std::atomic_bool *stop = nullptr) override;
    bool write(const QString &key, const QString &value, SecretError *error) override;
    bool remove(const QString &key, SecretError *error) override;
    QString name() const override;
    int timeoutMs() const { return m_timeoutMs; }
    // How many calls wait for the keychain's answer now, in this process (for tests and diagnostics).
    static int callsWaiting();

private:
    QString m_service;
    int m_timeoutMs;
};

// The keychain the app and the CLI use: the desktop's Secret Service, or none when INGOT_KEYCHAIN=none (tests, and
// hosts without a desktop session).
std::shared_ptr<SecretStore> defaultSecretStore();

}  // namespace ingot
