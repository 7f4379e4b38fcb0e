// libFuzzer target: the safetensors header parser on any file content.
#include "services/checkpoint/formats/safetensors.h"

#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const QString path = QStringLiteral("/tmp/ingot-fuzz-%1.safetensors").arg(::getpid());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return 0;
    f.write(reinterpret_cast<const char *>(data), qint64(size));
    f.close();
    ingot::SafetensorsReader r;
    QString error;
    if (r.open(path, &error))
        for (const auto &t : r.tensors()) {
            volatile char sink = 0;
            if (t.end > t.begin)
                sink = r.data(t)[t.end - t.begin - 1];  // the last byte of every tensor must be readable
            (void)sink;
        }
    return 0;
}
