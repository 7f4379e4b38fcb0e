// Which files of a local cache entry may leave this machine, and the one place they are opened: push, a copy to a
// host and a pull relayed to a host all read an entry through these descriptors, never again by path, so a file
// swapped for a link after the check is never read.
// The rules (push's, for every transfer): the version folder, the entry and its sub-folders are opened without
// following links; a regular file goes; a link goes as its content only when what it leads to (as opened) is a
// regular file inside the cache root or a Hugging Face hub blob (optimum-neuron's pulled entries link there). A
// broken link, a link anywhere else, a device, fifo or socket keeps the whole entry here, with why.
#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

#include <sys/types.h>

namespace ingot {

struct EntryFile {
    QByteArray name;  // relative to the entry, '/'-separated
    bool dir = false;
    bool linked = false;  // reached through a (vetted) link
    int fd = -1;          // files: open for reading (use pread or read); owned by EntryFiles
    qint64 size = 0;
    unsigned mode = 0644;
    qint64 mtime = 0;
    dev_t dev = 0;
    ino_t ino = 0;
};

class EntryFiles final
{
public:
    enum class Names {
        Compiler,  // the files the compiler writes, at the entry's top (push); anything else stays
        All,       // every file and sub-folder (copies between caches)
    };

    EntryFiles() = default;
    ~EntryFiles();
    EntryFiles(EntryFiles &&other) noexcept;
    EntryFiles &operator=(EntryFiles &&other) noexcept;
    EntryFiles(const EntryFiles &) = delete;
    EntryFiles &operator=(const EntryFiles &) = delete;

    // Opens entry `key` ("neuronxcc-<ver>/MODULE_<...>") of the local cache at `root` (the root itself may be a
    // link: the user chose it). False with why (one line, names escaped) when the entry may not travel.
    bool open(const QString &root, const QString &key, Names names, QString *why);
    void close();

    const QVector<EntryFile> &files() const { return m_files; }
    QVector<EntryFile> &files() { return m_files; }

private:
    bool collect(int dfd, const QByteArray &prefix, Names names, int depth, QString *why);
    bool openFile(int dfd, const QByteArray &name, const QByteArray &rel, QString *why);

    QByteArray m_realRoot;
    QVector<EntryFile> m_files;
};

// The files the compiler writes into a SUCCESS entry (model.neff, model.done, ...): all a push sends.
bool isCompilerFileName(const QString &name);

}  // namespace ingot
