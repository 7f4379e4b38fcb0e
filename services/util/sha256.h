// SHA-256 for verifying files as they stream, from OpenSSL's libcrypto (it uses the CPU's SHA extensions where
// they exist: about 10x QCryptographicHash, which was the bottleneck of a pull and a push).
#pragma once

#include <QByteArray>
#include <QString>

#include <atomic>

namespace ingot {

class Sha256 final
{
public:
    Sha256();
    ~Sha256();
    Q_DISABLE_COPY_MOVE(Sha256)

    void reset();
    void addData(const char *data, qsizetype size);
    void addData(const QByteArray &data) { addData(data.constData(), data.size()); }
    QByteArray result();  // the 32-byte digest; reset() before adding again

    static QByteArray hash(const QByteArray &data);
    // The hex digest of a file, read in large blocks; empty with words in *error when it cannot be read.
    static QString hexOfFile(const QString &path, QString *error, const std::atomic_bool *cancel = nullptr);

private:
    void *m_ctx;  // EVP_MD_CTX
};

}  // namespace ingot
