#include "services/hub/secretstore.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QMutex>
#include <QPointer>
#include <QThread>
#include <QWaitCondition>

#include <qt6keychain/keychain.h>

#include <functional>
#include <memory>

namespace ingot {

namespace {
struct KeychainText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Keychain)
};

constexpr int kDefaultTimeoutMs = 10000;

// The thread of a GUI application's main loop, which must never wait on the keychain.
bool onGuiThread()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && app->inherits("QGuiApplication") && QThread::currentThread() == app->thread();
}

// A session bus to reach a keychain service on: without one, libsecret would try to autolaunch a bus (a stray
// dbus-daemon) or fail after a while.
bool haveSessionBus()
{
    if (!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return true;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtime.isEmpty() && QFileInfo::exists(runtime + QStringLiteral("/bus"));
}

// One keychain call, shared by the thread that waits for it and the keychain's thread that answers it. Guarded by
// the home's mutex.
struct Call {
    bool done = false;
    bool overdue = false;  // its caller gave up waiting: counted in KeychainHome::m_overdue until it answers
    QKeychain::Error error = QKeychain::NoError;
    QString errorString;
    QString text;
};

// The keychain's one home: a thread with its own event loop where every QtKeychain job is made, started and
// finished. QtKeychain runs jobs one at a time through a process-wide queue that lives in the thread of the first
// job, and hears a job finish through a queued signal: one home for all keeps that signal deliverable. The home is
// made on first use and never destroyed (a static's destructor would wait on the thread at exit); at quit it is
// closed: waiting callers are woken and its thread is asked to end, never waited on for long.
class KeychainHome
{
public:
    static KeychainHome &instance()
    {
        static KeychainHome *home = new KeychainHome;  // thread-safe, and left to the end of the process
        return *home;
    }

    // Makes a job with `make` on the home thread, starts it and waits for it, at most `timeoutMs` (and not after
    // *stop or quitting). *text gets a read job's text.
    SecretError run(std::function<QKeychain::Job *()> make, int timeoutMs, const std::atomic_bool *stop, QString *text);
    void close();
    int waiting()
    {
        QMutexLocker lock(&m_mutex);
        return m_waiting;
    }

private:
    KeychainHome();
    void finished(const std::shared_ptr<Call> &call, QKeychain::Job *job);

    QThread *m_thread;
    QObject *m_anchor;  // lives in m_thread: the context of everything done there
    QMutex m_mutex;
    QWaitCondition m_changed;
    bool m_closed = false;
    int m_waiting = 0;  // callers waiting for an answer
    int m_overdue = 0;  // jobs that outlived their caller's wait; QtKeychain's queue holds every later job behind them
};

void closeKeychainHome()
{
    KeychainHome::instance().close();
}

KeychainHome::KeychainHome()
    : m_thread(new QThread)
    , m_anchor(new QObject)
{
    m_thread->setObjectName(QStringLiteral("ingot-keychain"));
    m_anchor->moveToThread(m_thread);
    m_thread->start();
    if (QCoreApplication *app = QCoreApplication::instance()) {
        // Whichever comes first: the event loop ending, or the application object going (before it waits for the
        // thread pool, whose workers may be waiting here).
        QObject::connect(app, &QCoreApplication::aboutToQuit, app, &closeKeychainHome, Qt::DirectConnection);
        qAddPostRoutine(&closeKeychainHome);
    } else {
        close();  // no application: nothing would ever close it, and no event loop should run without one
    }
}

void KeychainHome::close()
{
    {
        QMutexLocker lock(&m_mutex);
        if (m_closed)
            return;
        m_closed = true;
        m_changed.wakeAll();
    }
    m_thread->quit();
    // Its loop ends at once unless a backend blocks it (a synchronous D-Bus call): then it is left to the exit.
    m_thread->wait(QDeadlineTimer(500));
}

void KeychainHome::finished(const std::shared_ptr<Call> &call, QKeychain::Job *job)
{
    QMutexLocker lock(&m_mutex);
    call->done = true;
    call->error = job->error();
    call->errorString = job->errorString();
    if (const auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(job))
        call->text = read->textData();
    if (call->overdue)
        --m_overdue;
    m_changed.wakeAll();
}

SecretError KeychainHome::run(std::function<QKeychain::Job *()> make, int timeoutMs, const std::atomic_bool *stop,
                              QString *text)
{
    const SecretError unanswered{SecretError::Kind::Unanswered,
                                 KeychainText::tr("The system keychain did not answer within %1 s.")
                                     .arg(qMax(1, (timeoutMs + 999) / 1000))};
    auto call = std::make_shared<Call>();
    {
        QMutexLocker lock(&m_mutex);
        if (m_closed)
            return {SecretError::Kind::Unanswered, KeychainText::tr("Ingot is quitting: the system keychain was not asked.")};
        if (m_overdue > 0)  // it would only queue up behind a job the keychain has not answered
            return {SecretError::Kind::Unanswered,
                    KeychainText::tr("The system keychain is not answering: an earlier request still waits.")};
    }
    QMetaObject::invokeMethod(m_anchor, [this, call, make = std::move(make)] {
        QKeychain::Job *job = make();  // deletes itself once finished (autoDelete)
        QObject::connect(job, &QKeychain::Job::finished, m_anchor, [this, call](QKeychain::Job *j) { finished(call, j); });
        job->start();
    }, Qt::QueuedConnection);

    const QDeadlineTimer deadline(timeoutMs);
    QMutexLocker lock(&m_mutex);
    ++m_waiting;
    // Woken when any call answers or the home closes; every 100 ms to look at the stop flag.
    while (!call->done && !m_closed && !deadline.hasExpired() && !(stop && stop->load()))
        m_changed.wait(&m_mutex, QDeadlineTimer(qMin<qint64>(deadline.remainingTime(), 100)));
    --m_waiting;
    if (!call->done) {
        if (m_closed)
            return {SecretError::Kind::Unanswered, KeychainText::tr("Ingot is quitting: the system keychain did not answer.")};
        if (stop && stop->load())
            return {SecretError::Kind::Unanswered, KeychainText::tr("Stopped while waiting for the system keychain.")};
        call->overdue = true;
        ++m_overdue;
        return unanswered;
    }
    switch (call->error) {
    case QKeychain::NoError:
        if (text)
            *text = call->text;
        return {};
    case QKeychain::EntryNotFound:
        return {SecretError::Kind::None, QString()};  // asked and answered: nothing there
    case QKeychain::NoBackendAvailable:
        return {SecretError::Kind::NoService, KeychainText::tr("No keychain service is running.")};
    default:
        return {SecretError::Kind::Failed, KeychainText::tr("Keychain error: %1").arg(call->errorString)};
    }
}

int defaultTimeoutMs()
{
    bool ok = false;
    const int ms = qEnvironmentVariableIntValue("INGOT_KEYCHAIN_TIMEOUT_MS", &ok);
    return ok && ms > 0 ? ms : kDefaultTimeoutMs;
}

// What every call checks before it goes to the keychain's thread.
bool mayAsk(SecretError *error)
{
    Q_ASSERT_X(!onGuiThread(), "KeychainSecretStore", "called on the GUI thread: use runTask");
    if (onGuiThread()) {
        *error = {SecretError::Kind::Failed,
                  KeychainText::tr("The keychain was asked on the UI thread, which Ingot never does: nothing was "
                                   "read or written. Please report this.")};
        return false;
    }
    if (!haveSessionBus()) {
        *error = {SecretError::Kind::NoService, KeychainText::tr("No keychain service is running (no D-Bus session bus).")};
        return false;
    }
    return true;
}

// Sets *out (when given) and says whether the call did what was asked.
bool report(const SecretError &e, SecretError *out)
{
    if (out)
        *out = e;
    return e.ok();
}
}  // namespace

SecretStore::~SecretStore() = default;

KeychainSecretStore::KeychainSecretStore(QString service, int timeoutMs)
    : m_service(std::move(service))
    , m_timeoutMs(timeoutMs < 0 ? defaultTimeoutMs() : timeoutMs)
{
}

int KeychainSecretStore::callsWaiting()
{
    return KeychainHome::instance().waiting();
}

QString KeychainSecretStore::name() const
{
    return KeychainText::tr("the system keychain");
}

bool KeychainSecretStore::read(const QString &key, QString *value, SecretError *error, const std::atomic_bool *stop)
{
    SecretError e;
    if (!mayAsk(&e))
        return report(e, error);
    QString text;
    e = KeychainHome::instance().run([service = m_service, key] {
        auto *job = new QKeychain::ReadPasswordJob(service);
        job->setKey(key);
        job->setInsecureFallback(false);
        return job;
    }, m_timeoutMs, stop, &text);
    if (e.ok())
        *value = text;
    return report(e, error);
}

bool KeychainSecretStore::write(const QString &key, const QString &value, SecretError *error)
{
    SecretError e;
    if (!mayAsk(&e))
        return report(e, error);
    e = KeychainHome::instance().run([service = m_service, key, value] {
        auto *job = new QKeychain::WritePasswordJob(service);
        job->setKey(key);
        job->setInsecureFallback(false);
        job->setTextData(value);
        return job;
    }, m_timeoutMs, nullptr, nullptr);
    return report(e, error);
}

bool KeychainSecretStore::remove(const QString &key, SecretError *error)
{
    SecretError e;
    if (!mayAsk(&e))
        return report(e, error);
    e = KeychainHome::instance().run([service = m_service, key] {
        auto *job = new QKeychain::DeletePasswordJob(service);
        job->setKey(key);
        job->setInsecureFallback(false);
        return job;
    }, m_timeoutMs, nullptr, nullptr);
    return report(e, error);
}

std::shared_ptr<SecretStore> defaultSecretStore()
{
    if (qEnvironmentVariable("INGOT_KEYCHAIN") == QLatin1String("none"))
        return nullptr;
    return std::make_shared<KeychainSecretStore>();
}

}  // namespace ingot
