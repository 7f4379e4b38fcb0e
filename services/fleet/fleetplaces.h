// The places Ingot knows (issue 39, "Caches across the fleet"): this machine's Neuron compile cache as the Neuron tools
// resolve it, the folders added on the Local cache page, the TorchNeuron / vLLM-Neuron tiers, every host in the Remote
// hosts list (its cache as resolved there), the S3 caches opened before and the Hub cache repos (the one in use and
// those added). The fleet page, `ingot-cli cache fleet` and `cache gc --everywhere` walk this one list.
#pragma once

#include "services/stores/storelocation.h"

#include <QString>
#include <QVector>

#include <optional>

namespace ingot {

struct FleetPlace {
    enum class Kind { Local, TorchNeuron, Host, S3, Hub };
    Kind kind = Kind::Local;
    // How the place is named in --place, JSON and the gc log, and how it is told apart: a local folder's path,
    // "torchneuron:PATH", "host:NAME", "s3://bucket/prefix", "hub:org/name".
    QString id;
    // The cache's store: set for Local, TorchNeuron and S3; for a Host once resolvePlace() found its cache there (an
    // "ssh" store, or "host-s3" where the host's Neuron tools use S3); never for a Hub repo.
    StoreLocation store;
    QString host;  // Host: the name in the host list
    QString repo;  // Hub: org/name
    // Why Ingot knows it, in English (the GUI translates): "the Neuron default here", "added on the Local cache page",
    // "in the host list", "opened before", "the Hub cache repo in use", "added on the Hub page".
    QString origin;

    // As people see it: the path, "host NAME" (with its cache once resolved: "NAME:/var/tmp/…"), the URL, "hub:org/name".
    QString shown() const;
    // Whether a cache policy (services/cache/cachepolicy.h) applies here; where not, why in *why (translated).
    bool takesPolicies(QString *why = nullptr) const;
};

// "local", "torchneuron", "host", "s3", "hub": the kind as JSON and the log write it.
const char *fleetKindName(FleetPlace::Kind kind);

// The places Ingot knows now, each once, in the order above. Reads this process's environment and Ingot's settings
// (and the ssh config's Host names); touches no network and no cache.
QVector<FleetPlace> knownFleetPlaces();

// A place named as --place takes it: one of the ids above, or a local folder's path. nullopt with words for a name
// that is none (an unknown host is refused: only hosts in the list are places).
std::optional<FleetPlace> fleetPlaceFor(const QString &spec, QString *error);

// Fills place->store for a Host: connects over the host's shared SSH connection (never asking: BatchMode, as a
// scheduled run must) and resolves its Neuron cache as the Neuron tools there do. Other kinds: true at once (a Hub
// repo has no store: false with why). Blocking: call it off the UI thread.
bool resolvePlace(FleetPlace *place, QString *error);

}  // namespace ingot
