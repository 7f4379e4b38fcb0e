// Checkpoint consolidation: sharded tensor/pipeline-parallel checkpoints (docs/formats.md, "Sharded checkpoints")
// into standard safetensors (or pytorch_model.bin) that transformers loads. findCheckpoints() finds them,
// planConsolidation() checks everything and plans the output, consolidate() writes it: one output tensor at a time,
// into a staging folder renamed at the end, so no partial output is ever left. The use case (a folder chosen, its
// checkpoint's every member written, the output checked first) is ConsolidationRequest (consolidationrequest.h).
#pragma once

#include "services/checkpoint/discover.h"
#include "services/checkpoint/outputfolder.h"  // outputRefusal(): consolidate() refuses those outputs
#include "services/checkpoint/plan.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <functional>

#include <sys/stat.h>

namespace ingot {

struct ConsolidateOptions {
    enum class Format { Safetensors, PyTorch };
    QString output;
    Format format = Format::Safetensors;  // PyTorch: pytorch_model.bin in torch.save's zip format
    qint64 maxShardBytes = 5LL * 1000 * 1000 * 1000;  // "5GB", as transformers counts it
    bool overwrite = false;
    bool verify = false;
    bool checkReplicas = false;  // replicated parameters must be equal across tp ranks
    // A DCP checkpoint's optimizer state too (dcpoptimizer.h): optimizer.safetensors (split with an index above
    // maxShardBytes, always safetensors) and optimizer_param_groups.json. Refused for other checkpoints, and for a
    // DCP checkpoint without one, before anything is written.
    bool optimizer = false;
    // How tensor bytes reach a safetensors output; every way writes the same bytes. Direct: straight from the
    // shard files to the output at each tensor's offset (copy_file_range where a piece is one range in both, else
    // pread of bounded batches and pwritev), no tensor-sized buffer; tensors that need rearranging (fused or GQA
    // projections, strided or deflated pieces) and a replica check are still assembled in memory. Pread: the same
    // without copy_file_range. Buffered: every tensor assembled in memory, then written (as pytorch_model.bin
    // always is). With `verify`, the checksums always come from the in-memory assembly, so a direct write is
    // checked against the other path. Direct also writes interleaved rows with O_DIRECT where the file system
    // allows it; PageCache is Direct without that.
    enum class Io { Direct, Pread, Buffered, PageCache };
    Io io = Io::Direct;
};

struct ConsolidateProgress {
    qint64 bytesDone = 0, bytesTotal = 0;
    int tensorsDone = 0, tensorsTotal = 0;
    QString current;
};

struct ConsolidateReport {
    QStringList problems;  // found while checking: nothing was written
    QString error;         // failed while writing: nothing was left behind
    QStringList warnings;  // the output is in place, but something else went wrong (an old output not all removed)
    QStringList files;     // written, relative to the output folder
    qint64 bytes = 0;
    int tensors = 0;
    bool verified = false;
    QStringList verifyProblems;
    bool cancelled = false;
    bool ok() const { return problems.isEmpty() && error.isEmpty() && !cancelled && verifyProblems.isEmpty(); }
};

using ConsolidateProgressFn = std::function<void(const ConsolidateProgress &)>;

// Writes the output `plan` describes (its problems, if any, come back as the report's and nothing is written). An
// output that outputRefusal() refuses, or that exists and is not empty without `overwrite`, is a problem too.
// `progress` is called after every tensor, on the calling thread; `cancel` is polled between tensors.
ConsolidateReport consolidate(const ConsolidationPlan &plan, const ConsolidateOptions &o,
                              const ConsolidateProgressFn &progress = {}, const std::atomic_bool *cancel = nullptr);
// Plans, then consolidates.
ConsolidateReport consolidate(const CheckpointCandidate &c, const ConsolidateOptions &o,
                              const ConsolidateProgressFn &progress = {}, const std::atomic_bool *cancel = nullptr);

// One member of a checkpoint's consolidation set as written by ConsolidationRequest::run() (consolidationrequest.h):
// the checkpoint, its options with its own output folder, and its report.
struct ConsolidatedOutput {
    const CheckpointCandidate *checkpoint = nullptr;
    ConsolidateOptions options;
    ConsolidateReport report;
};

// The configs and tokenizer files an output carries beside its tensors, copied from the checkpoint folder or else the
// training output folder (for TorchTitan's checkpoint/step-N, its dump folder too); for an adapter, its adapter_config.json from its own folder only (the model's config.json
// would make a model folder of it).
const QStringList &companionFiles(bool adapter);
// A file of the checkpoint read for the output (a companion file, trainer_state.json, training_args.json), opened
// once relative to `folder`'s descriptor by push's link rule (services/util/linkrule.h): a regular file, or a link
// that stays inside `folder` or leads to a Hugging Face hub blob. A link leading anywhere else (absolute or not),
// a broken link, a fifo or a device is refused with words naming it. The descriptor (the caller's to close) and
// what it is open on in *st; -1 with *error empty when `folder` has no such file.
int openCheckpointFile(const QString &folder, const QString &name, struct stat *st, QString *error);
// Copies `name` of `folder` (openCheckpointFile()) whole into the folder open as `toFd`, created there exclusively
// and never through a link (FileWriter::createIn), with at most the source's permission bits (a 0600 file stays
// 0600); errors name it as `shownAs`. *found false (and true returned) when `folder` has no such file.
bool copyCheckpointFile(const QString &folder, const QString &name, int toFd, const QString &shownAs, bool *found, QString *error);
// Why `output` cannot receive what is made of checkpoint `c`: outputRefusal(), or a folder that exists and is not
// empty without `overwrite`. Empty when it can.
QString outputProblem(const CheckpointCandidate &c, const QString &output, bool overwrite);
// Runs `steps` (which report their own failures in *rep); an exception escaping them (out of memory, a last resort)
// becomes rep->error, naming `current` (what was being written when it escaped; read then) or else the output.
void runReportingExceptions(const std::function<void()> &steps, ConsolidateReport *rep, const QString &output, const QString &current);
// companionFiles() of checkpoint `c` copied into the folder open as `toFd` (those there are), appended to *copied;
// `shownIn` is that folder as messages name it.
bool copyCompanionFiles(const CheckpointCandidate &c, int toFd, const QString &shownIn, QStringList *copied, QString *error);

}  // namespace ingot
