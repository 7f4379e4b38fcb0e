// `ingot-cli consolidate CHECKPOINT_DIR [OUTPUT_DIR] ...`
#pragma once

#include <QStringList>

namespace ingot::cli {
int runConsolidate(const QStringList &args);
}
