// libFuzzer target: what a training job writes that Ingot parses, on any bytes: a Hugging Face Trainer's console
// (fed in chunks, as a file grows), trainer_state.json, a model's config.json, job.json, launcher.pid and
// summary.json. Beyond not crashing (ASan, UBSan): the Trainer parser never keeps more than one bounded line.
// Seeds: tests/fuzz/seeds/fuzz_joblogs/ (Trainer output, a trainer_state.json, a job.json, a launcher.pid).
#include "services/jobs/jobfolder.h"
#include "services/jobs/jobmanager.h"
#include "services/jobs/modelinfo.h"
#include "services/jobs/trainerlog.h"

#include <QJsonDocument>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace ingot;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    TrainerLogParser parser;
    const qsizetype chunk = size ? qsizetype(data[0] % 61) + 1 : 1;
    for (qsizetype at = 0; at < bytes.size(); at += chunk) {
        parser.feed(bytes.mid(at, chunk), double(at), (at / chunk) % 3 ? TrainerLogParser::Stdout : TrainerLogParser::Stderr);
        if (parser.bufferedBytes(TrainerLogParser::Stdout) > TrainerLogParser::maxLineBytes
            || parser.bufferedBytes(TrainerLogParser::Stderr) > TrainerLogParser::maxLineBytes)
            std::abort();
    }
    parser.finish();
    for (const MetricPoint &p : parser.takeMetrics())
        if (p.step < 0)
            std::abort();
    QString error;
    parseTrainerState(bytes, &error);
    parseModelConfig(bytes);
    JobRecordFile record;
    JobRecordFile::fromJson(bytes, &record, &error);
    LauncherPids pids;
    parseLauncherPids(bytes, &pids);
    statusFromJson(QJsonDocument::fromJson(bytes).object());
    JobSpec spec;
    spec.parseTrainingArguments(QString::fromUtf8(bytes).split(QLatin1Char(' ')), &error);
    return 0;
}
