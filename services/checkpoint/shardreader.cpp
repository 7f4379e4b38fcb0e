#include "services/checkpoint/shardreader.h"

#include "services/checkpoint/formats/safetensors.h"
#include "services/checkpoint/formats/torchfile.h"
#include "services/util/fdio.h"
#include "services/util/names.h"

#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace ingot {

namespace {
struct ShardReaderText {
    Q_DECLARE_TR_FUNCTIONS(ingot::Consolidate)
};

}  // namespace

ShardReader::ShardReader() = default;
ShardReader::~ShardReader() = default;

bool ShardReader::open(const ShardFile &file, QString *error)
{
    m_file = file;
    if (file.path.endsWith(QLatin1String(".safetensors.index.json")))
        return openSafetensorsIndex(file.path, error);
    if (file.path.endsWith(QLatin1String(".safetensors"))) {
        m_st.push_back(std::make_unique<SafetensorsReader>());
        if (!m_st.back()->open(file.path, error))
            return false;
        for (const auto &t : m_st.back()->tensors())
            m_stOf[t.name] = m_st.back().get();
        return true;
    }
    m_torch = std::make_unique<TorchFile>();
    if (!m_torch->open(file.path, error))
        return false;
    std::string why;
    const auto tensors = stateDictTensors(m_torch->root(), nullptr, &why);
    if (!why.empty()) {
        *error = QStringLiteral("%1: %2.").arg(file.path, QString::fromStdString(why));
        return false;
    }
    // Every tensor must be readable as it claims; and since tensors may share a storage (tied weights, or with
    // xser one tensor file named by several references), their total must stay within a small multiple of the
    // bytes on disk (the file, and with xser each tensor file once), or a few names could claim terabytes.
    std::int64_t total = 0, onDisk = m_torch->fileSize();
    XserFiles xserFiles;
    const auto tooMuch = [&] {
        *error = ShardReaderText::tr("%1: its tensors claim more than %2 times the file's size (an xser file's tensor files "
                                     "included, each once): storages shared by too many names (corrupt or hostile).")
                     .arg(file.path).arg(kMaxSharedStorageFactor);
        return false;
    };
    for (auto &[n, t] : tensors) {
        std::int64_t bytes = 0;
        if (t.xserTid >= 0) {
            const bool seen = xserFiles.count(t.xserTid) > 0;
            if (!resolveXser(n, t.xserTid, &xserFiles, error))
                return false;
            if (!seen && !checkedAdd(onDisk, xserFiles[t.xserTid].first, &onDisk))
                return tooMuch();
            const TensorRef &x = m_tensors[n];
            checkedByteSize(x.dtype, x.shape, &bytes);  // checked by resolveXser()
            if (!checkedAdd(total, bytes, &total))
                return tooMuch();
            continue;
        }
        if (!m_torch->checkTensor(t, displayName(nameFromBytes(QByteArray::fromStdString(n))), error))
            return false;
        checkedByteSize(t.dtype, t.shape, &bytes);  // cannot fail once checkTensor() agreed
        if (!checkedAdd(total, bytes, &total) || total > kMaxSharedStorageFactor * m_torch->fileSize() + (qint64(1) << 20))
            return tooMuch();
        m_tensors[n] = t;
    }
    // The same bound over the tensor files too, once all are known (references may come in any order).
    if (total > kMaxSharedStorageFactor * onDisk + (qint64(1) << 20))
        return tooMuch();
    return true;
}

bool ShardReader::openSafetensors(const ShardFile &file, int fd, QString *error)
{
    m_file = file;
    m_st.push_back(std::make_unique<SafetensorsReader>());
    if (!m_st.back()->open(fd, file.path, error))
        return false;
    for (const auto &t : m_st.back()->tensors())
        m_stOf[t.name] = m_st.back().get();
    return true;
}

std::vector<std::string> ShardReader::names() const
{
    std::vector<std::string> out;
    if (!m_st.empty())
        for (const auto &f : m_st)
            for (const auto &t : f->tensors())
                if (m_stOf.count(t.name) && m_stOf.at(t.name) == f.get())
                    out.push_back(t.name);
    if (m_st.empty())
        for (const auto &[n, t] : m_tensors)
            out.push_back(n);
    return out;
}

bool ShardReader::info(const std::string &name, DType *dtype, std::vector<std::int64_t> *shape) const
{
    if (!m_st.empty()) {
        const SafetensorsReader *f = nullptr;
        const SafetensorInfo *t = stFind(name, &f);
        if (!t)
            return false;
        *dtype = t->dtype;
        *shape = t->shape;
        return true;
    }
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end())
        return false;
    *dtype = it->second.dtype;
    *shape = it->second.shape;
    return true;
}

const char *ShardReader::read(const std::string &name, std::string *buf, qint64 *size, QString *error)
{
    const auto missing = [&] {
        *error = ShardReaderText::tr("%1 holds no tensor %2 any more: the shards changed since they were checked. Check the checkpoint again.")
                     .arg(m_file.path, QString::fromStdString(name));
        return nullptr;
    };
    if (!m_st.empty()) {
        const SafetensorsReader *f = nullptr;
        const SafetensorInfo *t = stFind(name, &f);
        if (!t)
            return missing();
        *size = qint64(t->end - t->begin);
        buf->resize(std::size_t(*size));
        if (!readAllAt(f->fd(), buf->data(), buf->size(), std::uint64_t(f->fileOffset(*t)))) {
            *error = errno == 0 ? ShardReaderText::tr("Cannot read %1 from %2: the file is shorter than it was (truncated while being read?).")
                                      .arg(QString::fromStdString(name), m_file.path)
                                : ShardReaderText::tr("Cannot read %1 from %2: %3")
                                      .arg(QString::fromStdString(name), m_file.path, QString::fromLocal8Bit(strerror(errno)));
            return nullptr;
        }
        return buf->data();
    }
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end())
        return missing();
    if (m_xser.count(name)) {
        const TensorRef *t = openXser(name, error);
        if (!t || !m_xserFile->readTensor(*t, buf, error))
            return nullptr;
        *size = qint64(buf->size());
        return buf->data();
    }
    if (!m_torch->readTensor(it->second, buf, error))
        return nullptr;
    *size = qint64(buf->size());
    return buf->data();
}

bool ShardReader::locate(const std::string &name, Location *at, QString *error)
{
    error->clear();
    if (!m_st.empty()) {
        const SafetensorsReader *f = nullptr;
        const SafetensorInfo *t = stFind(name, &f);
        if (!t)
            return false;
        *at = {f->fd(), qint64(f->fileOffset(*t)), qint64(t->end - t->begin)};
        return true;
    }
    const auto it = m_tensors.find(name);
    if (it == m_tensors.end())
        return false;
    TorchFile *file = m_torch.get();
    if (m_xser.count(name)) {
        if (!openXser(name, error))
            return false;
        file = m_xserFile.get();
    }
    if (!file->locateTensor(it->second, &at->offset, error))
        return false;
    std::int64_t bytes = 0;
    checkedByteSize(it->second.dtype, it->second.shape, &bytes);  // checked by locateTensor()
    at->fd = file->fd();
    at->size = bytes;
    return true;
}

const SafetensorInfo *ShardReader::stFind(const std::string &name, const SafetensorsReader **file) const
{
    const auto it = m_stOf.find(name);
    if (it == m_stOf.end())
        return nullptr;
    *file = it->second;
    return it->second->find(name);
}

// A Hugging Face index: {"metadata": {...}, "weight_map": {tensor: file}}, the files plain names beside it; every
// name it maps must be in its file (as transformers reads it), and no file is opened twice.
bool ShardReader::openSafetensorsIndex(const QString &index, QString *error)
{
    QFile f(index);
    const QFileInfo fi(index);
    if (!fi.isFile() || fi.size() > (qint64(64) << 20) || !f.open(QIODevice::ReadOnly)) {
        *error = ShardReaderText::tr("%1 is not a readable index file of at most 64 MiB.").arg(displayName(index));
        return false;
    }
    const QByteArray bytes = f.readAll();
    const nlohmann::json j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object()) {
        *error = ShardReaderText::tr("%1 is not a safetensors index (no weight_map).").arg(displayName(index));
        return false;
    }
    std::map<std::string, SafetensorsReader *> byFile;
    for (auto it = j["weight_map"].begin(); it != j["weight_map"].end(); ++it) {
        if (!it->is_string() || it->get_ref<const std::string &>().empty() || it->get_ref<const std::string &>().find('/') != std::string::npos ||
            it->get_ref<const std::string &>().rfind(".", 0) == 0) {
            *error = ShardReaderText::tr("%1 names %2 in a file that is not a plain file name beside it.").arg(displayName(index),
                                                                                                              displayName(QString::fromStdString(it.key())));
            return false;
        }
        const std::string &file = it->get_ref<const std::string &>();
        if (!byFile.count(file)) {
            m_st.push_back(std::make_unique<SafetensorsReader>());
            if (!m_st.back()->open(fi.absolutePath() + QLatin1Char('/') + QString::fromStdString(file), error))
                return false;
            byFile[file] = m_st.back().get();
        }
        if (!byFile[file]->find(it.key())) {
            *error = ShardReaderText::tr("%1 maps %2 to %3, which does not hold it.").arg(displayName(index), displayName(QString::fromStdString(it.key())),
                                                                                       displayName(QString::fromStdString(file)));
            return false;
        }
        m_stOf[it.key()] = byFile[file];
    }
    return true;
}

// The same rank's file of ep rank 0: "_ep_rank_ZZ_" of the file name made "_ep_rank_00_".
static QString epRankZero(const QString &path)
{
    const QFileInfo fi(path);
    QString name = fi.fileName();
    static const QRegularExpression re(QStringLiteral("_ep_rank_\\d+_"));
    name.replace(re, QStringLiteral("_ep_rank_00_"));
    return fi.absolutePath() + QLatin1Char('/') + name;
}

QString ShardReader::xserTensorFile(const QString &shard, std::int64_t tid)
{
    return shard + QStringLiteral(".tensors/tensor_%1.pt").arg(tid);
}

// One xser tensor: its own file must hold one tensor, readable as it claims and within its record.
bool ShardReader::resolveXser(const std::string &name, std::int64_t tid, XserFiles *files, QString *error)
{
    const QString shown = displayName(nameFromBytes(QByteArray::fromStdString(name)));
    const auto known = files->find(tid);
    if (known != files->end()) {
        // A tensor file several references name (xser writes a tensor once however many names it has): checked
        // already, each name's bytes still counted by open().
        m_tensors[name] = m_tensors.at(known->second.second);
        m_xser[name] = tid;
        return true;
    }
    QString path = xserTensorFile(m_file.path, tid);
    // With expert parallelism NxD writes the tensors that are not experts' once, in ep rank 0's folder, and every
    // ep rank's file refers to them there (trainer/checkpoint.py, _xser_load_data).
    if (m_file.ep > 0 && !QFileInfo::exists(path))
        path = xserTensorFile(epRankZero(m_file.path), tid);
    if (!QFileInfo::exists(m_file.path + QStringLiteral(".tensors"))) {
        *error = ShardReaderText::tr("%1 is an xser checkpoint (its tensors are references), but the folder of its tensors, %2, is "
                                     "missing.").arg(displayName(m_file.path), displayName(m_file.path + QStringLiteral(".tensors")));
        return false;
    }
    if (!QFileInfo::exists(path)) {
        *error = ShardReaderText::tr("%1: the file of its tensor %2, %3, is missing.").arg(displayName(m_file.path), shown, displayName(path));
        return false;
    }
    auto f = std::make_unique<TorchFile>();
    if (!f->open(path, error))
        return false;
    const PickleValue *root = f->root().get();
    if (!root || root->kind != PickleValue::Kind::Tensor) {
        *error = ShardReaderText::tr("%1 (tensor %2 of %3) does not hold one tensor.").arg(displayName(path), shown, displayName(m_file.path));
        return false;
    }
    const TensorRef t = root->tensor();
    std::int64_t bytes = 0;
    if (!f->checkTensor(t, shown, error))
        return false;
    checkedByteSize(t.dtype, t.shape, &bytes);  // cannot fail once checkTensor() agreed
    if (bytes > kMaxSharedStorageFactor * f->fileSize() + (qint64(1) << 20)) {
        *error = ShardReaderText::tr("%1: its tensor claims more than %2 times the file's size (corrupt or hostile).").arg(displayName(path))
                     .arg(kMaxSharedStorageFactor);
        return false;
    }
    m_tensors[name] = t;
    m_xser[name] = tid;
    (*files)[tid] = {f->fileSize(), name};
    return true;  // closed again: a checkpoint has thousands of these
}

const TensorRef *ShardReader::openXser(const std::string &name, QString *error)
{
    const std::int64_t tid = m_xser.at(name);
    const TensorRef &want = m_tensors.at(name);
    QString path = xserTensorFile(m_file.path, tid);
    if (m_file.ep > 0 && !QFileInfo::exists(path))
        path = xserTensorFile(epRankZero(m_file.path), tid);
    if (m_xserOpenTid != tid || !m_xserFile) {
        m_xserOpenTid = -1;
        m_xserFile = std::make_unique<TorchFile>();
        if (!m_xserFile->open(path, error))
            return nullptr;
        m_xserOpenTid = tid;
    }
    const PickleValue *root = m_xserFile->root().get();
    if (!root || root->kind != PickleValue::Kind::Tensor || root->tensor().dtype != want.dtype || root->tensor().shape != want.shape ||
        root->tensor().stride != want.stride || root->tensor().storageOffset != want.storageOffset ||
        root->tensor().storage.key != want.storage.key) {
        *error = ShardReaderText::tr("%1 is not what the check found: the shards changed since. Check the checkpoint again.").arg(displayName(path));
        return nullptr;
    }
    return &want;
}

const PickleValue *ShardReader::shardedMetadata() const
{
    if (!m_torch || !m_torch->root())
        return nullptr;
    const PickleValue *sm = m_torch->root()->get("sharded_metadata");
    return sm && sm->kind == PickleValue::Kind::Dict ? sm : nullptr;
}

OpenShards::~OpenShards() = default;

bool OpenShards::open(const CheckpointCandidate &c, QStringList *problems)
{
    bool ok = true;
    for (const ShardFile &f : c.shards) {
        auto reader = std::make_unique<ShardReader>();
        QString error;
        if (!reader->open(f, &error)) {
            problems->append(error);
            ok = false;
            continue;
        }
        m_byRank[{f.pp, f.tp, std::max(f.ep, 0)}] = reader.get();
        m_readers.push_back(std::move(reader));
    }
    return ok;
}

ShardReader *OpenShards::at(int pp, int tp, int ep) const
{
    const auto it = m_byRank.find({pp, tp, ep});
    return it == m_byRank.end() ? nullptr : it->second;
}

}  // namespace ingot
