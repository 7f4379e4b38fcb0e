// Two real backend runs to compare (issue 38): tiny ingot_train runs with torchrun on CPU that differ in one compiler
// flag (NEURON_CC_FLAGS -O1 / -O2) and in sequence length (--block_size 32 / 64), each with its compile activity as
// the Neuron compiler wrapper logs it, from the stand-in in tests/support/compile_standin (its graphs' HLO written
// here with writeHloModule). Both compile into one cache, as two runs on one machine do.
#pragma once

#include "services/cache/hlo.h"
#include "tests/support/jobsupport.h"
#include "tests/support/testsupport.h"

#include <QDir>

namespace ingot::test {

struct ComparedPair {
    QString a, b;   // job ids: A (-O1, 32) launched first
    QString cache;  // the compile cache both used
};

// The HLO of the stand-in's graphs: the optimizer step (no sequence in it) and the training step per sequence length.
inline void writeStandInHlo(const QString &dir)
{
    QDir().mkpath(dir);
    HloSketch step;
    step.name = QStringLiteral("OptimizerStep.3");
    step.parameters = {QStringLiteral("f32[4096]")};
    step.parameterNames = {QStringLiteral("grads")};
    writeFile(dir + QStringLiteral("/step.pb"), writeHloModule(step));
    for (const int seq : {32, 64}) {
        HloSketch train;
        train.name = QStringLiteral("SyncTensorsGraph.%1").arg(seq);
        train.parameters = {QStringLiteral("s64[2,%1]").arg(seq), QStringLiteral("f32[1000,64]")};
        train.parameterNames = {QStringLiteral("input_ids"), QStringLiteral("embed.weight")};
        writeFile(dir + QStringLiteral("/train-%1.pb").arg(seq), writeHloModule(train));
    }
}

inline JobSpec comparedSpec(const QString &dir, const QString &flags, int blockSize)
{
    JobSpec spec;
    spec.maxSteps = 3;
    spec.blockSize = blockSize;
    spec.neuronCcFlags = flags;
    spec.compileCacheUrl = dir + QStringLiteral("/cache");
    const QString standin = QStringLiteral(INGOT_SOURCE_DIR "/tests/support/compile_standin");
    spec.env << qMakePair(QStringLiteral("PYTHONPATH"), standin)
             << qMakePair(QStringLiteral("INGOT_STANDIN_HLO"), dir + QStringLiteral("/hlo"));
    return spec;
}

// Launches A then B (B once A has compiled: its entries are there) and waits for both to finish. False and `error`
// when one does not.
inline bool runComparedPair(JobManager &jobs, const QString &dir, ComparedPair *out, QString *error)
{
    writeStandInHlo(dir + QStringLiteral("/hlo"));
    out->cache = dir + QStringLiteral("/cache");
    out->a = launchSpec(jobs, comparedSpec(dir, QStringLiteral("--model-type=transformer -O1"), 32), error);
    if (out->a.isEmpty())
        return false;
    if (waitForEnd(jobs, out->a).state != JobState::Finished) {
        *error = QStringLiteral("run A did not finish: ") + QString::fromUtf8(rankStdout(jobs.paths(out->a), 0).right(2000));
        return false;
    }
    out->b = launchSpec(jobs, comparedSpec(dir, QStringLiteral("--model-type=transformer -O2"), 64), error);
    if (out->b.isEmpty())
        return false;
    if (waitForEnd(jobs, out->b).state != JobState::Finished) {
        *error = QStringLiteral("run B did not finish: ") + QString::fromUtf8(rankStdout(jobs.paths(out->b), 0).right(2000));
        return false;
    }
    return true;
}

}  // namespace ingot::test
