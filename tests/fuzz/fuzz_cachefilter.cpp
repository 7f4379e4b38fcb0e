// libFuzzer target: filter and sort expressions as cache list / cache rm --filter and the cache page's filter box read
// them (services/cache/cachefilter), on any bytes: one expression per line, then a --sort value from the last line.
// Beyond not crashing (ASan, UBSan): a refusal always says why; what parses reads again the same from its
// expressions() (the plan records them and the removal re-checks each entry against them), and matches the same
// entries; a filter never selects a folder that is not a module.
#include "services/cache/cachefilter.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
QVector<ingot::CacheModule> samples()
{
    QVector<ingot::CacheModule> out;
    const ingot::ModuleState states[] = {ingot::ModuleState::Success, ingot::ModuleState::Failed, ingot::ModuleState::Locked,
                                         ingot::ModuleState::Incomplete};
    for (int i = 0; i < 8; ++i) {
        ingot::CacheModule m;
        m.version = i % 2 ? QStringLiteral("neuronxcc-2.15.128.0+56dc5a86") : QStringLiteral("neuronxcc-2.9.1.0+aa");
        m.name = QStringLiteral("MODULE_%1+aa").arg(i * 7919);
        m.kind = i == 7 ? ingot::EntryKind::UnknownDir : ingot::EntryKind::Module;
        m.state = states[i % 4];
        m.size = qint64(1) << (i * 5);
        m.lastUsedMs = i == 3 ? 0 : 1'800'000'000'000 - qint64(i) * 86'400'000 * 9;
        out << m;
    }
    return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const QVector<ingot::CacheModule> modules = samples();
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const QStringList lines = text.split(QLatin1Char('\n'));
    ingot::CacheFilter f;
    QString why;
    const qint64 now = 1'800'000'000'000;
    if (ingot::CacheFilter::parse(lines, &f, &why)) {
        ingot::CacheFilter again;
        QString why2;
        if (!ingot::CacheFilter::parse(f.expressions(), &again, &why2))
            std::abort();
        for (const ingot::CacheModule &m : modules) {
            const bool a = f.matches(m, now);
            if (a != again.matches(m, now))
                std::abort();
            if (a && !m.isModule())
                std::abort();
        }
    } else if (why.isEmpty()) {
        std::abort();
    }
    ingot::CacheFilter::looksLikeExpressions(text);
    ingot::parseFilterDuration(lines.value(0));
    ingot::CacheSort sort;
    if (ingot::CacheSort::parse(lines.constLast(), &sort, &why)) {
        QVector<const ingot::CacheModule *> rows;
        for (const ingot::CacheModule &m : modules)
            rows << &m;
        sort.apply(rows);
        if (rows.size() != modules.size())
            std::abort();
    }
    return 0;
}
