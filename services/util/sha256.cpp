#include "services/util/sha256.h"

#include "services/util/errnotext.h"

#include <QCoreApplication>
#include <QFile>

#include <openssl/evp.h>

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace ingot {

namespace {
struct ShaText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Sha256)
};
EVP_MD_CTX *ctx(void *p)
{
    return static_cast<EVP_MD_CTX *>(p);
}
}  // namespace

Sha256::Sha256() : m_ctx(EVP_MD_CTX_new())
{
    reset();
}

Sha256::~Sha256()
{
    EVP_MD_CTX_free(ctx(m_ctx));
}

void Sha256::reset()
{
    EVP_DigestInit_ex(ctx(m_ctx), EVP_sha256(), nullptr);
}

void Sha256::addData(const char *data, qsizetype size)
{
    if (size > 0)
        EVP_DigestUpdate(ctx(m_ctx), data, size_t(size));
}

QByteArray Sha256::result()
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(ctx(m_ctx), md, &len);
    return QByteArray(reinterpret_cast<const char *>(md), int(len));
}

QByteArray Sha256::hash(const QByteArray &data)
{
    Sha256 h;
    h.addData(data);
    return h.result();
}

QString Sha256::hexOfFile(const QString &path, QString *error, const std::atomic_bool *cancel)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error)
            *error = ShaText::tr("Cannot read %1: %2").arg(path, describeErrno(errno));
        return QString();
    }
    Sha256 h;
    QByteArray buf(4 << 20, Qt::Uninitialized);
    for (;;) {
        if (cancel && *cancel) {
            ::close(fd);
            if (error)
                *error = ShaText::tr("Stopped.");
            return QString();
        }
        const ssize_t n = ::read(fd, buf.data(), size_t(buf.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            if (error)
                *error = ShaText::tr("Cannot read %1: %2").arg(path, describeErrno(e));
            return QString();
        }
        if (n == 0)
            break;
        h.addData(buf.constData(), qsizetype(n));
    }
    ::close(fd);
    return QString::fromLatin1(h.result().toHex());
}

}  // namespace ingot
