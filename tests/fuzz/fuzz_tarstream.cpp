// libFuzzer target: the tar stream a host sends for a cache entry, and the sha256 list its script prints. Any bytes
// must give a clear refusal or the files, never a crash, a hang, a name outside the folder, or more bytes written
// than the listing allowed; undo() leaves the folder empty again.
#include "services/transfer/hostcopyscripts.h"
#include "services/transfer/tarstream.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace {

class MemorySource final : public ingot::TarSource
{
public:
    MemorySource(const char *p, qint64 n) : m_p(p), m_n(n) {}
    bool readAtLeast(qint64) override { return true; }  // everything there is, is there
    const char *data() const override { return m_p + m_at; }
    qint64 available() const override { return m_n - m_at; }
    void consume(qint64 n) override { m_at += n; }

private:
    const char *m_p;
    qint64 m_n;
    qint64 m_at = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const QByteArray folder = []() {
        const QString base = qEnvironmentVariableIsSet("INGOT_FUZZ_TMP") ? qEnvironmentVariable("INGOT_FUZZ_TMP") : QDir::tempPath();
        QDir().mkpath(base);
        QByteArray path = QFile::encodeName(base + QStringLiteral("/ingot-fuzz-tar-%1").arg(::getpid()));
        QDir().mkpath(QFile::decodeName(path));
        return path;
    }();
    const char *p = reinterpret_cast<const char *>(data);
    // The sha256 list parser sees the same bytes.
    QHash<QByteArray, QByteArray> sums;
    ingot::hostcopy::parseHashList(QByteArrayView(p, qsizetype(size)), &sums);

    const int root = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0)
        return 0;
    // What a typical entry lists: the receiver must refuse anything else.
    ingot::ListedEntry listed;
    listed.sizes.insert("model.neff", 4096);
    listed.sizes.insert("model.done", 0);
    listed.sizes.insert("sub/compile_flags.json", 512);
    listed.total = 4096 + 512;
    MemorySource source(p, qint64(size));
    const ingot::TarReceiver::Progress progress;
    ingot::TarReceiver rx(root, source, progress, listed);
    QString error;
    const bool ok = rx.run(&error);
    if (ok && rx.bytes() > listed.total)
        std::abort();  // more than the listing allowed was written
    rx.undo();
    ::close(root);
    // Anything left is what undo() missed (or a name that escaped): remove it so each input starts clean.
    QDir(QFile::decodeName(folder)).removeRecursively();
    QDir().mkpath(QFile::decodeName(folder));
    return 0;
}
