#include "tests/support/testhub.h"

#include "services/hub/httpclient.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
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
    // Until the server says its port, or ends; on a loaded machine python3 alone may take 10 s to start.
    QElapsedTimer clock;
    clock.start();
    while (!QFile::exists(portFile) && m_proc.state() != QProcess::NotRunning && clock.elapsed() < 60000)
        m_proc.waitForFinished(25);
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

QMap<QString, QByteArray> registryFixture(const QString &modelId, int current)
{
    using nlohmann::json;
    QMap<QString, QByteArray> files;
    const QString ver = QStringLiteral("neuronxcc-2.15.128.0+56dc5a86");
    const std::string model = modelId.toStdString();
    auto hashOf = [](const json &j) {
        return QString::fromLatin1(QCryptographicHash::hash(QByteArray::fromStdString(j.dump()), QCryptographicHash::Sha256).toHex().left(20));
    };
    const int batches[] = {1, 4, 8, 16, 32};
    const int seqs[] = {1024, 2048, 4096, 8192};
    const int tps[] = {2, 8, 24, 32};
    const char *targets[] = {"trn1", "trn2", "inf2"};
    for (int i = 0; i < current; ++i) {
        const json entry = {{"model_type", "llama"}, {"hidden_size", 4096}, {"_entry_class", "SingleModelCacheEntry"},
                            {"_model_id", model}, {"_task", "text-generation"},
                            {"neuron", {{"checkpoint_id", model}, {"checkpoint_revision", "01c7f73d771dfac7d292323805ebc428287df4f9"},
                                        {"batch_size", batches[i % 5]}, {"sequence_length", seqs[(i / 5) % 4]},
                                        {"tp_degree", tps[(i / 20) % 4]}, {"torch_dtype", (i / 80) % 2 ? "float16" : "bfloat16"},
                                        {"target", targets[(i / 160) % 3]}, {"neuronxcc_version", "2.15.128.0+56dc5a86"},
                                        {"optimum_neuron_version", "0.0.25"}}}};
        const QString h = hashOf(entry);
        files.insert(ver + QStringLiteral("/0_REGISTRY/0.0.25/llama/") + modelId + QLatin1Char('/') + h + QStringLiteral(".json"),
                     QByteArray::fromStdString(entry.dump()));
        // The arch-digest copy the current optimum-neuron reads; Ingot finds entries through the model-id alias.
        files.insert(ver + QStringLiteral("/0_REGISTRY/0.0.25/5f3b1c0ad6e2e9a1b7c4/") + h + QStringLiteral(".json"),
                     QByteArray::fromStdString(entry.dump()));
    }
    // A duplicate of the first entry under another optimum version: shown once.
    if (current > 0)
        files.insert(ver + QStringLiteral("/0_REGISTRY/0.0.24/llama/") + modelId + QStringLiteral("/dup.json"), files.first());
    // 0.2-0.4 layout: legacy neuron block.
    for (int i = 0; i < 2; ++i) {
        const json legacy = {{"model_type", "llama"}, {"_model_id", model},
                             {"neuron", {{"task", "text-generation"}, {"batch_size", 1 + i}, {"num_cores", 24},
                                         {"auto_cast_type", "fp16"}, {"sequence_length", 2048},
                                         {"compiler_type", "neuronx-cc"}, {"compiler_version", "2.12.54.0+f631c2365"},
                                         {"checkpoint_id", model}, {"checkpoint_revision", "c1b0db933684edbfe29a06fa47eb19cc48025e93"}}}};
        files.insert(QStringLiteral("0_REGISTRY/0.0.18/llama/") + modelId + QStringLiteral("/legacy%1.json").arg(i),
                     QByteArray::fromStdString(legacy.dump()));
    }
    // 0.1 layout: training/inference level, a traced entry.
    const json traced = {{"model_type", "llama"}, {"_model_id", model},
                         {"neuron", {{"static_batch_size", 1}, {"static_sequence_length", 128}, {"tensor_parallel_size", 2},
                                     {"auto_cast_type", "bf16"}, {"compiler_version", "2.10.19.0+0d2c3cde1"}}}};
    files.insert(QStringLiteral("0_REGISTRY/0.0.10/inference/llama/") + modelId + QStringLiteral("/traced.json"),
                 QByteArray::fromStdString(traced.dump()));
    // An entry of a shape nobody knows: shown raw.
    files.insert(ver + QStringLiteral("/0_REGISTRY/0.0.25/llama/") + modelId + QStringLiteral("/weird.json"),
                 QByteArray(R"({"hello": "world", "neuron": "not an object"})"));
    // Another model's entries must never show.
    files.insert(ver + QStringLiteral("/0_REGISTRY/0.0.25/llama/other-org/Other-Model/x.json"),
                 QByteArray(R"({"_model_id":"other-org/Other-Model","neuron":{"batch_size":64,"sequence_length":64,"tp_degree":1,"torch_dtype":"bfloat16","target":"trn1"}})"));
    // The oldest layout: registry.json at the root.
    const json reg = {{model, json::array({{{"task", "text-generation"}, {"batch_size", 2}, {"num_cores", 2}, {"auto_cast_type", "bf16"},
                                            {"sequence_length", 512}, {"compiler_version", "2.9.0.0"}, {"checkpoint_id", model}}})},
                      {"other-org/Other-Model", json::array({{{"batch_size", 9}, {"sequence_length", 9}}})}};
    files.insert(QStringLiteral("registry.json"), QByteArray::fromStdString(reg.dump()));
    // Compiled modules beside the registry, as in a real cache repo.
    files.insert(ver + QStringLiteral("/MODULE_1+d41d8cd9/compile_flags.json"), "[]");
    return files;
}

}  // namespace ingot::test
