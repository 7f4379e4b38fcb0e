#include "services/s3/hosts3access.h"

#include "services/util/names.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ingot::s3 {

namespace {
struct HostS3Text {
    Q_DECLARE_TR_FUNCTIONS(ingot::HostS3Access)
};

// $1: the bucket, then the s3api arguments, each in shellOctal form. A body for get-object goes to a temporary file
// and then to stdout (the CLI writes its JSON answer to stdout); delete-objects reads its JSON from stdin.
const QByteArray kScript =
    "d() { printf '%bX' \"$1\"; }\n"
    "command -v aws >/dev/null 2>&1 || { echo 'the AWS CLI (aws) is not installed here' >&2; exit 127; }\n"
    "ep=${AWS_ENDPOINT_URL_S3:-${AWS_ENDPOINT_URL:-}}\n"
    "set -- \"$@\"; n=$#; i=0\n"
    "while [ $i -lt $n ]; do v=$(d \"$1\"); v=${v%X}; shift; set -- \"$@\" \"$v\"; i=$((i+1)); done\n"
    "op=$1\n"
    "if [ \"$op\" = get-object ]; then\n"
    "  t=$(mktemp) || exit 1\n"
    "  aws ${ep:+--endpoint-url \"$ep\"} s3api \"$@\" \"$t\" >/dev/null && cat \"$t\"; rc=$?; rm -f \"$t\"; exit $rc\n"
    "fi\n"
    "exec aws ${ep:+--endpoint-url \"$ep\"} --output json s3api \"$@\"\n";

QString lastLine(const QByteArray &err)
{
    const QList<QByteArray> lines = err.trimmed().split('\n');
    return displayText(QString::fromUtf8(lines.isEmpty() ? QByteArray() : lines.last().trimmed()).left(300));
}
}  // namespace

QString hostS3StoreKind()
{
    return QStringLiteral("host-s3");
}

HostS3Access::HostS3Access(std::shared_ptr<RemoteShell> shell, QString host, const S3Location &location)
    : m_shell(std::move(shell)), m_host(std::move(host)), m_location(location)
{
}

QString HostS3Access::identity() const
{
    return m_host + QStringLiteral("|aws|") + m_location.url();
}

bool HostS3Access::aws(const QVector<QByteArray> &args, const QByteArray &input, qint64 maxOut, QByteArray *out,
                       QString *error, const QString &what) const
{
    const ShellResult r = m_shell->run(kScript, args, input, maxOut, kTimeoutMs);
    if (!r.ran()) {
        *error = HostS3Text::tr("%1 on %2: %3").arg(what, displayName(m_host), r.error);
        return false;
    }
    if (r.exitCode != 0) {
        *error = HostS3Text::tr("%1 on %2 with its AWS CLI: %3").arg(what, displayName(m_host), lastLine(r.err));
        return false;
    }
    *out = r.out;
    return true;
}

bool HostS3Access::list(const QString &prefix, const QString &delimiter, S3Listing *out, QString *error,
                        const std::atomic_bool *) const
{
    *out = {};
    if (prefix != m_location.prefix && !m_location.holds(prefix)) {
        *error = HostS3Text::tr("%1 is not under %2.").arg(displayName(prefix), displayName(m_location.url()));
        return false;
    }
    const QString what = HostS3Text::tr("Listing %1").arg(displayName(QStringLiteral("s3://") + m_location.bucket + QLatin1Char('/') + prefix));
    QVector<QByteArray> args{"list-objects-v2", "--bucket", nameToBytes(m_location.bucket), "--prefix", nameToBytes(prefix)};
    if (!delimiter.isEmpty())
        args << "--delimiter" << nameToBytes(delimiter);
    QByteArray json;
    if (!aws(args, {}, kMaxListingBytes, &json, error, what))
        return false;
    S3Listing got;
    if (!json.trimmed().isEmpty()) {  // an empty listing prints nothing
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
            *error = HostS3Text::tr("%1: the AWS CLI on %2 answered something that is not its JSON.").arg(what, displayName(m_host));
            return false;
        }
        for (const QJsonValue &v : doc.object().value(QStringLiteral("Contents")).toArray()) {
            const QJsonObject o = v.toObject();
            S3Object obj;
            obj.key = o.value(QStringLiteral("Key")).toString();
            obj.size = qint64(o.value(QStringLiteral("Size")).toDouble(-1));
            obj.lastModified = QDateTime::fromString(o.value(QStringLiteral("LastModified")).toString(), Qt::ISODateWithMs);
            obj.etag = o.value(QStringLiteral("ETag")).toString().remove(QLatin1Char('"')).toLatin1();
            if (!plainKey(m_location, prefix, obj.key) || obj.size < 0) {
                *error = HostS3Text::tr("%1: the listing holds %2, which is not a plain key under the prefix: refused.")
                             .arg(what, displayName(obj.key));
                return false;
            }
            got.objects << obj;
        }
        for (const QJsonValue &v : doc.object().value(QStringLiteral("CommonPrefixes")).toArray()) {
            const QString p = v.toObject().value(QStringLiteral("Prefix")).toString();
            if (!plainKey(m_location, prefix, p) || (!delimiter.isEmpty() && !p.endsWith(delimiter))) {
                *error = HostS3Text::tr("%1: the listing holds %2, which is not a plain key under the prefix: refused.")
                             .arg(what, displayName(p));
                return false;
            }
            got.commonPrefixes << p;
        }
    }
    *out = std::move(got);
    return true;
}

bool HostS3Access::get(const QString &key, qint64 offset, qint64 length, QByteArray *out, QString *error, qint64 maxBytes,
                       const std::atomic_bool *) const
{
    out->clear();
    if (!m_location.holds(key)) {
        *error = HostS3Text::tr("%1 is not under %2.").arg(displayName(key), displayName(m_location.url()));
        return false;
    }
    QVector<QByteArray> args{"get-object", "--bucket", nameToBytes(m_location.bucket), "--key", nameToBytes(key)};
    if (offset > 0 || length >= 0)
        args << "--range"
             << "bytes=" + QByteArray::number(offset) + '-'
                    + (length >= 0 ? QByteArray::number(offset + std::max<qint64>(0, length - 1)) : QByteArray());
    return aws(args, {}, maxBytes, out, error, HostS3Text::tr("Reading %1").arg(displayName(key)));
}

bool HostS3Access::remove(const QStringList &keys, QStringList *failed, QString *error, const std::atomic_bool *) const
{
    failed->clear();
    for (const QString &k : keys) {
        if (!m_location.holds(k)) {
            *error = HostS3Text::tr("%1 is not under %2: nothing was deleted.").arg(displayName(k), displayName(m_location.url()));
            return false;
        }
    }
    for (qsizetype at = 0; at < keys.size(); at += S3Client::kMaxDeleteBatch) {
        QJsonArray objects;
        for (const QString &k : keys.mid(at, S3Client::kMaxDeleteBatch))
            objects.append(QJsonObject{{QStringLiteral("Key"), k}});
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("Objects"), objects}, {QStringLiteral("Quiet"), true}})
                                    .toJson(QJsonDocument::Compact);
        QByteArray answer;
        if (!aws({"delete-objects", "--bucket", nameToBytes(m_location.bucket), "--delete", "file:///dev/stdin"}, body, 16 << 20,
                 &answer, error, HostS3Text::tr("Deleting from %1").arg(displayName(m_location.url()))))
            return false;
        const QJsonDocument doc = QJsonDocument::fromJson(answer);
        for (const QJsonValue &v : doc.object().value(QStringLiteral("Errors")).toArray())
            *failed << displayName(v.toObject().value(QStringLiteral("Key")).toString()) + QStringLiteral(": ")
                           + displayName(v.toObject().value(QStringLiteral("Code")).toString());
    }
    return true;
}

}  // namespace ingot::s3
