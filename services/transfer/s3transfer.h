// Cache entries between this machine's compile cache and an S3 compile cache (s3://bucket/prefix, the layout
// NEURON_COMPILE_CACHE_URL gives the runtime). Moves between S3 and a host or the Hub go by way of this machine
// (transferengine.cpp); these are the two steps that touch S3.
//
// Up: every file of the entry is sent (PutObject with Content-MD5; multipart with a Content-MD5 per part from
// kMultipartThreshold), model.done last, so that the runtime, which takes an entry with its marker as whole, never
// sees half an entry. Each answer's ETag is checked against the MD5 (or the multipart MD5) computed here; the entry
// is listed again at the end and every size compared. An interrupted multipart upload resumes: its upload id is
// kept in the transfer's state folder and the parts S3 holds whose MD5 matches are not sent again. An entry S3
// already holds is left alone, as on disk: one with a lock object (Busy), or one with objects that are not this
// entry's files at the same sizes (another version of it); the objects of an upload Ingot left unfinished (same
// names and sizes, no marker yet) are what it resumes over.
//
// Down: the entry's objects are listed, its state judged from their names by the scanner's rules (only a SUCCESS
// entry is copied), each object streamed into a hidden staging folder (never more bytes than listed, resumed
// from a partial file with a ranged GET), checked against its size and its ETag (the MD5 of a single-part object,
// or of a multipart one uploaded in Ingot's or the AWS CLI's part size), and the entry appears by one rename.
#pragma once

#include "services/s3/s3client.h"
#include "services/transfer/transfertypes.h"

#include <QSet>

#include <atomic>

namespace ingot {

constexpr qint64 kMultipartThreshold = 16LL << 20;
// The part size for a file of `size` bytes: 8 MiB (as the AWS CLI), more for a file that would need more than
// S3's 10,000 parts.
qint64 s3PartSize(qint64 size);

// NotSuccess: the entry is not SUCCESS where it is; not moved, Skipped with notSuccessWhy()'s words.
enum class S3EntryResult { Done, Exists, Busy, Stopped, Failed, NotSuccess };

// Uploads the entries `items` name from the local cache at `root`. `stateDir`: where interrupted multipart uploads
// are remembered (a transfer's work folder). Entries go `parallel` at a time. `results` (optional) gets each
// item's outcome.
void uploadEntriesToS3(const s3::S3Client &client, const QString &root, QVector<TransferItem> &items,
                       TransferReporter &reporter, const QString &stateDir, int parallel, const std::atomic_bool *stop,
                       QVector<S3EntryResult> *results = nullptr);

// Downloads the entries `items` name into the local cache at `root`.
void downloadEntriesFromS3(const s3::S3Client &client, const QString &root, QVector<TransferItem> &items,
                           TransferReporter &reporter, int parallel, const std::atomic_bool *stop,
                           QVector<S3EntryResult> *results = nullptr);

// The client for an S3 place (keys and region as the AWS CLI finds them); null with words when the URL is not one.
std::unique_ptr<s3::S3Client> s3ClientFor(const StoreLocation &place, QString *error);
bool isS3Location(const StoreLocation &place);

}  // namespace ingot
