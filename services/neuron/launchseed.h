// *Bring compiled graphs first* for one launch (issue 39): the graphs of the last run with the same settings
// (priorgraphs.h), the job's compile cache where it runs (JobManager::compileCache), the places chosen
// (fleetplaces.h), the preview's words, and the step itself (cacheseed.h's seedCache) with its result kept in the job's
// folder (JOB/seed.json) for `job status` and the monitor. The launcher (LaunchForm) and `ingot-cli job launch
// --seed-cache` both go through here.
//
// Where the copies go: a job on this machine, into its cache here; a job on an SSH host, into its cache there (the
// last run's logs read there; the copies by way of this machine where no engine goes directly); a Slurm job whose
// cache is a folder of the login node (a folder the nodes share, as a cluster's FSx or NFS home is), into that folder
// from here before sbatch; or, when the nodes each keep their own cache, by a step of the batch script on every node
// of the allocation before the training (nodeSeedCommand: ingot-cli on the nodes).
#pragma once

#include "services/fleet/cacheseed.h"
#include "services/jobs/jobmanager.h"
#include "services/neuron/priorgraphs.h"

namespace ingot {

struct LaunchSeed {
    PriorGraphs prior;
    SeedRequest request;
    bool slurm = false;  // a Slurm job: seeded from this machine before sbatch, into the folder the nodes share
    QString why;         // why nothing will be brought (no such run, caching off, a job on a host); empty: it runs

    bool ready() const { return why.isEmpty(); }
    // For the preview: "Before training: the 38 graphs of 20261128-101500-3fa9 the cache lacks are looked for in
    // s3://team/cache, hub:org/cache and copied into /var/tmp/neuron-compile-cache."
    QString previewText() const;
};

// Plans the step for `spec` launched by `manager` (blocking: reads the job's cache and the last run's logs).
// `history`: the jobs Ingot knows (JobManager::list()).
LaunchSeed planLaunchSeed(const JobManager &manager, const QVector<JobSummary> &history, const JobSpec &spec,
                          const QVector<FleetPlace> &places);

// The places a launcher proposes: the places Ingot knows that hold finished graphs of another format's cache left out
// (TorchNeuron's tiers), and the job's own cache.
QVector<FleetPlace> seedPlaceChoices(const StoreLocation &jobCache);

// The step: copies what the cache lacks (seedCache). Blocking; `stop` ends it between entries.
SeedResult runLaunchSeed(const LaunchSeed &seed, const SeedProgress &progress, const std::atomic_bool *stop);
// A Slurm job whose nodes each keep their own cache: the step as each node runs it before the training
// (JobRecordFile::nodeSetupArgv): `ingot-cli cache seed --cache-dir CACHE --from PLACE… KEY…`, the cache as the login
// node resolves it (each node's own folder of that path). It needs ingot-cli on the nodes' PATH, and there the access
// to the places (the AWS keys for S3, the Hub token, the SSH hosts).
QStringList nodeSeedCommand(const LaunchSeed &seed);

// Keeps the step's result in the job's folder once it is written (JOB/seed.json, whole or not at all).
bool keepSeedResult(JobRunner &runner, const JobPaths &paths, const SeedResult &result, QString *error);

// What a job's seed.json says, as one line for `job status` and the monitor ("Compiled graphs brought first: …");
// empty when the job had no such step or the file does not read as one.
QString seedStatusLine(JobRunner &runner, const JobPaths &paths);

}  // namespace ingot
