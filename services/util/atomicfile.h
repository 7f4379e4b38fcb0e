// Small files written whole or not at all.
#pragma once

#include <QByteArray>
#include <QString>

namespace ingot {

// Writes a file atomically (temp file in the same folder + rename); privateMode: owner read/write only (0600).
bool writeFileAtomically(const QString &path, const QByteArray &data, QString *error, bool privateMode = false);

}  // namespace ingot
