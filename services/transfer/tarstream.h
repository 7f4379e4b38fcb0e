// The tar stream of a host copy: GNU tar as far as a cache entry needs it (folders and regular files, any bytes in
// names, GNU long names and pax paths read, base-256 sizes), written on the way out and read on the way in. The
// reader is bounded: it writes under one folder only what the entry's listing allowed, each name checked to stay
// inside, each file's sha256 computed as it is written, and it can undo all it made.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QVector>

#include <functional>

namespace ingot {

constexpr int kTarBlock = 512;
// An entry with more files than this is refused: no compiled module has that many, and a hostile host could fill
// the disk with empty files.
constexpr int kTarMaxFiles = 100000;

// `n` rounded up to whole blocks.
qint64 tarPadded(qint64 n);

// The header(s) of one member: a GNU long-name record first when the name passes 100 bytes. `type` '0' a file,
// '5' a folder.
QByteArray tarMemberHeader(const QByteArray &name, char type, quint64 size, unsigned mode, qint64 mtime);

// What the listing taken before a copy showed of an entry: the archive may hold no other file, none larger, and
// no more bytes in all (a host cannot fill this machine's disk with an entry it listed as 5 bytes).
struct ListedEntry {
    QHash<QByteArray, qint64> sizes;  // file name relative to the entry ('/'-separated bytes) -> size
    qint64 total = 0;
};

// Where a TarReceiver reads from: a buffer that fills on demand (an SshStream's stdout; memory in the fuzz target).
class TarSource
{
public:
    virtual ~TarSource() = default;
    // Until at least `want` bytes are available or the input ended. False: stopped or timed out (no words: the
    // source's owner knows why).
    virtual bool readAtLeast(qint64 want) = 0;
    virtual const char *data() const = 0;
    virtual qint64 available() const = 0;
    virtual void consume(qint64 n) = 0;
};

// Writes the members of a tar stream under `root` (a folder fd): folders and regular files only, names checked
// to stay inside; each file's sha256 computed as it is written. Records what it made so a failure can undo it.
class TarReceiver final
{
public:
    using Progress = std::function<void(qint64 done, qint64 total)>;
    TarReceiver(int root, TarSource &source, const Progress &progress, const ListedEntry &listed)
        : m_root(root), m_s(source), m_progress(progress), m_listed(listed)
    {
    }

    QHash<QByteArray, QByteArray> hashes;  // name -> hex
    QVector<QByteArray> made;              // in creation order

    // Reads members until the end of the archive. False with words in *error (none when the source stopped).
    bool run(QString *error);
    qint64 bytes() const { return m_done; }
    // Removes what run() made (files, then folders, deepest first), never following links.
    void undo();

private:
    bool checkName(const QByteArray &name, QString *error);
    bool readData(qint64 size, QByteArray *out, QString *error);
    bool receiveFile(const QByteArray &name, qint64 size, unsigned mode, qint64 mtime, QString *error);
    bool withinListing(const QByteArray &name, qint64 size, QString *error) const;

    int m_root;
    TarSource &m_s;
    const Progress &m_progress;
    const ListedEntry &m_listed;
    qint64 m_done = 0;
    qint64 m_announced = 0;  // sizes of the files accepted so far
};

}  // namespace ingot
