#include "ui/common/resources.h"

#include <QtGlobal>

static void initIngotResources()
{
    Q_INIT_RESOURCE(ingot);  // resources in a static library are registered by hand
}

namespace ingot {

void initResources()
{
    static const bool once = (initIngotResources(), true);
    Q_UNUSED(once)
}

}  // namespace ingot
