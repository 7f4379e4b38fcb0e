#include "services/hub/treepage.h"
#include "services/hub/jsonfield.h"

#include "services/util/names.h"
#include "services/util/relpath.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace ingot {

using nlohmann::json;

namespace {
struct TreeText {
    Q_DECLARE_TR_FUNCTIONS(ingot::HubClient)
};

QString qs(const json &j, const char *key)
{
    return jsonString(j, key);
}

// A size: a non-negative whole number, whatever the server wrote (a float, a huge or negative number).
qint64 sizeOf(const json &j, const char *key)
{
    const auto it = j.find(key);
    if (it == j.end())
        return 0;
    if (it->is_number_unsigned())
        return qint64(std::min<std::uint64_t>(it->get<std::uint64_t>(), std::uint64_t(std::numeric_limits<qint64>::max())));
    if (it->is_number_integer())
        return std::max<qint64>(0, it->get<qint64>());
    if (it->is_number_float()) {
        const double d = it->get<double>();
        if (!std::isfinite(d) || d <= 0)
            return 0;
        return d >= 9.2e18 ? std::numeric_limits<qint64>::max() : qint64(d);
    }
    return 0;
}

TreeEntry entryFrom(const json &j, bool *ok)
{
    TreeEntry e;
    *ok = j.is_object() && j.contains("path") && j["path"].is_string() && j.contains("type") && j["type"].is_string();
    if (!*ok)
        return e;
    e.isDir = qs(j, "type") == QLatin1String("directory");
    e.path = qs(j, "path");
    e.size = sizeOf(j, "size");
    e.oid = qs(j, "oid");
    if (const auto lfs = j.find("lfs"); lfs != j.end() && lfs->is_object())
        e.lfsOid = qs(*lfs, "oid");
    return e;
}
}  // namespace

QVector<TreeEntry> parseTreePage(const QByteArray &body, const QString &repo, int status, HubError *err, BadEntries bad)
{
    *err = HubError();
    json j;
    try {
        j = json::parse(body.constData(), body.constData() + body.size());
    } catch (const json::exception &) {
        *err = {HubError::Kind::BadResponse, status,
                body.isEmpty() ? TreeText::tr("The Hub sent an empty answer for the file list of %1.").arg(repo)
                               : TreeText::tr("The Hub sent malformed or truncated JSON for the file list of %1.").arg(repo)};
        return {};
    }
    if (!j.is_array()) {
        *err = {HubError::Kind::BadResponse, status, TreeText::tr("The Hub's file list of %1 is not a list.").arg(repo)};
        return {};
    }
    QVector<TreeEntry> page;
    page.reserve(int(std::min<size_t>(j.size(), 100000)));
    for (const auto &item : j) {
        bool ok = false;
        TreeEntry e = entryFrom(item, &ok);
        if (bad == BadEntries::Skip && (!ok || e.path.isEmpty() || !isSafeRelativePath(e.path)))
            continue;
        if (!ok) {
            *err = {HubError::Kind::BadResponse, status, TreeText::tr("An entry of the file list of %1 has no path or type.").arg(repo)};
            return {};
        }
        // Checked before anything can touch the disk with it.
        if (e.path.isEmpty() || !isSafeRelativePath(e.path)) {
            *err = {HubError::Kind::UnsafePath, status,
                    TreeText::tr("The file list of %1 names \"%2\", a path that leaves the repo; refused.").arg(repo, displayName(e.path))};
            return {};
        }
        page.append(std::move(e));
    }
    return page;
}

QString nextPageUrl(const QByteArray &linkHeader, const QString &pageUrl)
{
    // Link: <uri>; param; param, <uri>; ... : the first link whose rel (a space-separated list) names "next".
    static const QRegularExpression link(QStringLiteral("<([^>]*)>([^<]*)"));
    static const QRegularExpression rel(QStringLiteral("(?:^|;)\\s*rel\\s*=\\s*(?:\"([^\"]*)\"|([^;,\\s]+))"),
                                        QRegularExpression::CaseInsensitiveOption);
    const QString header = QString::fromUtf8(linkHeader);
    for (auto it = link.globalMatch(header); it.hasNext();) {
        const auto m = it.next();
        const auto r = rel.match(m.captured(2));
        if (!r.hasMatch())
            continue;
        const QString rels = r.captured(1).isEmpty() ? r.captured(2) : r.captured(1);
        if (!rels.split(QLatin1Char(' '), Qt::SkipEmptyParts).contains(QLatin1String("next"), Qt::CaseInsensitive))
            continue;
        // "<>" is the page itself: the caller sees a loop, never a quiet end.
        return QUrl(pageUrl).resolved(QUrl(m.captured(1).trimmed())).toString();
    }
    return {};
}

}  // namespace ingot
