// The names sharded checkpoints give their ranks (docs/formats.md, "Sharded checkpoints"): the only place in the
// code that spells them. A rank is "tp_rank_XX_pp_rank_YY" (with "_ep_rank_ZZ" under expert parallelism): a folder
// in tensor_parallel_shards/, and the tail of a neuronx-distributed file "dp_rank_DD_<rank>.pt" in shards/model/.
#pragma once

#include <QString>

#include <optional>

namespace ingot {

// The largest rank number Ingot reads: a name with a larger one is not a rank name, and a larger tp size in
// metadata is refused.
constexpr int kMaxRank = 65535;

struct RankIds {
    int tp = 0;
    int pp = 0;
    int ep = -1;  // -1: no expert parallelism
    int dp = 0;   // only in neuronx-distributed file names
};

// "tp_rank_03_pp_rank_01", or "tp_rank_03_pp_rank_01_ep_rank_02" when ep >= 0.
QString rankName(const RankIds &r);
// What rankName() writes, back into numbers; nothing for any other name.
std::optional<RankIds> parseRankName(const QString &name);

// "dp_rank_00_tp_rank_03_pp_rank_01.pt".
QString nxdShardFileName(const RankIds &r);
std::optional<RankIds> parseNxdShardFileName(const QString &name);

// The same names with placeholders, for messages: "tp_rank_XX_pp_rank_YY", "dp_rank_00_tp_rank_XX_pp_rank_YY.pt".
QString rankNamePattern();
QString nxdShardFileNamePattern();

}  // namespace ingot
