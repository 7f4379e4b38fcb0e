// libFuzzer target: a torch.save file (zip) of any content. Opening it, walking its state dict and reading every
// tensor it names must never crash, hang, read out of bounds or take memory out of proportion to the file.
#include "services/checkpoint/formats/torchfile.h"
#include "services/checkpoint/metadata.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const QString path = []() -> QString {
        const QString dir = qEnvironmentVariableIsSet("INGOT_FUZZ_TMP") ? qEnvironmentVariable("INGOT_FUZZ_TMP") : QDir::tempPath();
        QDir().mkpath(dir);
        return dir + QStringLiteral("/ingot-fuzz-%1.pt").arg(::getpid());
    }();
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return 0;
    f.write(reinterpret_cast<const char *>(data), qint64(size));
    f.close();
    ingot::TorchFile tf;
    QString error;
    if (!tf.open(path, &error))
        return 0;
    std::string why, bytes;
    const ingot::PickleValue *sd = nullptr;
    for (const auto &[name, t] : ingot::stateDictTensors(tf.root(), &sd, &why)) {
        if (!tf.checkTensor(t, QString::fromStdString(name), &error))
            continue;
        if (tf.readTensor(t, &bytes, &error) && !bytes.empty()) {
            volatile char sink = bytes.back();  // every byte handed back must be readable
            (void)sink;
        }
    }
    // The rest of the checkpoint is looked up as the shard reader does, and the file read as older optimum-neuron's
    // mp_metadata_pp_rank_Y.pt.
    if (tf.root())
        (void)tf.root()->get("sharded_metadata");
    ingot::PartitionMetadata md;
    QStringList problems;
    ingot::loadLegacyMpMetadata(path, 4, &md, &problems);
    return 0;
}
