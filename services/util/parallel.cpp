#include "services/util/parallel.h"

#include <thread>
#include <vector>

namespace ingot::detail {

void runOnWorkers(int workers, const std::function<void()> &work)
{
    std::vector<std::thread> helpers;
    helpers.reserve(size_t(workers > 1 ? workers - 1 : 0));
    for (int t = 1; t < workers; ++t)
        helpers.emplace_back(work);
    work();
    for (std::thread &t : helpers)
        t.join();
}

QString describeException(int index, const std::exception_ptr &e)
{
    try {
        std::rethrow_exception(e);
    } catch (const std::exception &x) {
        return QStringLiteral("index %1: %2").arg(index).arg(QString::fromUtf8(x.what()));
    } catch (...) {
        return QStringLiteral("index %1: an unknown exception").arg(index);
    }
}

}  // namespace ingot::detail
