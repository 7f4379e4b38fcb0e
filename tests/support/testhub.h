// Starts tests/hub/testhub.py, the Hub-compatible test server (a stand-in for huggingface.co, which cannot be
// reached here), on 127.0.0.1 with a free port, and controls it: repos written straight into its data folder,
// switchable faults, and the log of requests it saw.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace ingot::test {

class TestHub
{
public:
    // Tokens "hf_xxx:user[:org1,org2][:read|write]".
    explicit TestHub(QStringList tokens = {QStringLiteral("hf_alice_write:alice:neuronorg:write"),
                                           QStringLiteral("hf_bob_read:bob::read")});
    ~TestHub();
    TestHub(const TestHub &) = delete;
    TestHub &operator=(const TestHub &) = delete;

    bool start(QString *error, int pageSize = 1000, qint64 lfsThreshold = 10 * 1000 * 1000);
    QString url() const { return m_url; }
    QString dataDir() const { return m_data.path(); }

    // A repo with these files, written directly (no API), owned by its namespace.
    void makeRepo(const QString &repoId, bool isPrivate, const QMap<QString, QByteArray> &files, bool gated = false);

    bool post(const QString &path, const nlohmann::json &body);
    nlohmann::json get(const QString &path);
    bool fault(const nlohmann::json &f) { return post(QStringLiteral("/_test/faults"), f); }
    // Every request whose path contains `pathPart` fails with 503 (Retry-After: 0, so retries are quick) until
    // clearFaults(): a registry folder or file that keeps failing.
    bool failPersistently(const QString &pathPart)
    {
        return fault({{"kind", "error5xx"}, {"status", 503}, {"retry_after", 0}, {"path", pathPart.toStdString()},
                      {"count", 1000000000}});
    }
    bool clearFaults() { return fault({{"kind", "none"}, {"count", 0}}); }
    bool config(const nlohmann::json &c) { return post(QStringLiteral("/_test/config"), c); }
    nlohmann::json requestLog() { return get(QStringLiteral("/_test/log")); }
    void clearLog();

private:
    QStringList m_tokens;
    QTemporaryDir m_data;
    QProcess m_proc;
    QString m_url;
};

// Registry files for `modelId` in every layout optimum-neuron has written (docs/formats.md, "Hub cache repos"):
// `current` entries in the current layout (shapes from a fixed grid), two in the 0.2-0.4 layout, one traced entry
// in the 0.1 layout, registry.json at the root, one entry of an unknown shape, one duplicate, and entries of
// another model.
QMap<QString, QByteArray> registryFixture(const QString &modelId, int current = 6);

}  // namespace ingot::test
