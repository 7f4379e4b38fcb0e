// Names on the Hub: a repo id and a model id are both "org/name" (docs/formats.md, "Hub cache repos").
#pragma once

#include <QString>

namespace ingot {

// A repo id "org/name": two non-empty parts of [A-Za-z0-9._-], no "..", no leading/trailing "-" or ".".
bool isValidRepoId(const QString &repo);

}  // namespace ingot
