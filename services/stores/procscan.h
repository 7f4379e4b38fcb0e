// Which processes run a given program on this machine, read from /proc: "is neuronx-cc running here?".
#pragma once

#include <QString>
#include <QVector>

namespace ingot {

// Process ids (other than this one) whose program is `programName`: by /proc/<pid>/comm, or argv[0]/argv[1] for
// Python entry points ("python3 /usr/bin/neuronx-cc ...").
QVector<qint64> findProcesses(const QString &programName);

}  // namespace ingot
