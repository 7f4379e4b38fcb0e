// Compiler-version folders of a compile cache: "neuronxcc-2.15.128.0+56dc5a86" (docs/formats.md#compile-cache).
#pragma once

#include <QString>
#include <QVector>

namespace ingot {

// "neuronxcc-2.15.128.0+56dc5a86" -> {2,15,128,0} and "56dc5a86"
struct CompilerVersion {
    QVector<int> parts;
    QString build;
    bool valid = false;
    static CompilerVersion parse(const QString &folderName);
    bool writesDoneMarker() const;  // compilers >= 2.15 write model.done
    QString display() const;        // "2.15.128.0+56dc5a86"
};
bool isCompilerVersionFolder(const QString &name);
int compareCompilerFolders(const QString &a, const QString &b);  // numeric by version

}  // namespace ingot
