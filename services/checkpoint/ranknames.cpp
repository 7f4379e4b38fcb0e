#include "services/checkpoint/ranknames.h"

#include <QRegularExpression>

namespace ingot {

namespace {
QString twoDigits(int n)
{
    return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0'));
}

QString rankNameWith(const QString &tp, const QString &pp, const QString &ep)
{
    QString name = QStringLiteral("tp_rank_%1_pp_rank_%2").arg(tp, pp);
    if (!ep.isEmpty())
        name += QStringLiteral("_ep_rank_%1").arg(ep);
    return name;
}

QString nxdFileNameWith(const QString &dp, const QString &rank)
{
    return QStringLiteral("dp_rank_%1_%2.pt").arg(dp, rank);
}
}  // namespace

QString rankName(const RankIds &r)
{
    return rankNameWith(twoDigits(r.tp), twoDigits(r.pp), r.ep >= 0 ? twoDigits(r.ep) : QString());
}

std::optional<RankIds> parseRankName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^tp_rank_(\\d+)_pp_rank_(\\d+)(?:_ep_rank_(\\d+))?$"));
    const auto m = re.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    RankIds r;
    bool ok[3] = {true, true, true};
    r.tp = m.captured(1).toInt(&ok[0]);
    r.pp = m.captured(2).toInt(&ok[1]);
    r.ep = m.captured(3).isEmpty() ? -1 : m.captured(3).toInt(&ok[2]);
    for (int k = 0; k < 3; ++k)
        if (!ok[k])
            return std::nullopt;
    if (r.tp > kMaxRank || r.pp > kMaxRank || r.ep > kMaxRank)
        return std::nullopt;
    return r;
}

// neuronx-distributed's order (trainer/checkpoint.py, _get_path): dp, then ep (only with expert parallelism), tp, pp.
QString nxdShardFileName(const RankIds &r)
{
    const QString ep = r.ep >= 0 ? QStringLiteral("ep_rank_%1_").arg(twoDigits(r.ep)) : QString();
    return nxdFileNameWith(twoDigits(r.dp), ep + rankNameWith(twoDigits(r.tp), twoDigits(r.pp), QString()));
}

std::optional<RankIds> parseNxdShardFileName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^dp_rank_(\\d+)_(?:ep_rank_(\\d+)_)?(tp_rank_\\d+_pp_rank_\\d+)\\.pt$"));
    const auto m = re.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    std::optional<RankIds> r = parseRankName(m.captured(3));
    bool ok = false, epOk = true;
    const int dp = m.captured(1).toInt(&ok);
    const int ep = m.captured(2).isEmpty() ? -1 : m.captured(2).toInt(&epOk);
    if (!r || !ok || !epOk || dp > kMaxRank || ep > kMaxRank)
        return std::nullopt;
    r->dp = dp;
    r->ep = ep;
    return r;
}

QString rankNamePattern()
{
    return rankNameWith(QStringLiteral("XX"), QStringLiteral("YY"), QString());
}

QString nxdShardFileNamePattern()
{
    return nxdFileNameWith(QStringLiteral("00"), rankNamePattern());
}

}  // namespace ingot
