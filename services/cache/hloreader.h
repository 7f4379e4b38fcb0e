// The reader behind parseHloModule (services/cache/hlo.h): an HloModuleProto read from a stream field by field, as
// protobuf's wire format lays it out, without materializing its messages: memory is what the summary keeps.
#pragma once

#include "services/cache/hlo.h"

#include <QString>

namespace google::protobuf::io {
class CodedInputStream;
}

namespace ingot {

// Reads the module `in` holds (its total-bytes and recursion limits set by the caller) into *out: its names, the
// entry's signature, opcodes and collectives (sorted as HloSummary says). False, with *error in words, on bytes that
// are not a module or go over a limit of `limits`.
bool readHloModule(google::protobuf::io::CodedInputStream &in, const HloLimits &limits, HloSummary *out,
                   QString *error);

}  // namespace ingot
