#include "models/hub/hubtreemodel.h"

#include "models/cache/statecolors.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>
#include <QTextDocument>

#include <functional>

namespace ingot {

struct HubTreeModel::Node {
    QString name;
    QString path;
    bool isDir = true;
    bool loaded = false;
    bool loading = false;
    bool synthetic = false;  // a local-only module row
    qint64 size = 0;
    int files = 0;
    QString lfsOid;
    QString error;
    Presence presence = Presence::None;
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    int row = 0;
};

namespace {
// A tooltip that looks like markup is read as markup: the Hub's words go in as plain text, each line escaped.
QString plainTip(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &l : lines)
        l = displayName(l);
    return Qt::convertFromPlainText(lines.join(QLatin1Char('\n')), Qt::WhiteSpaceNormal);
}
}  // namespace

HubTreeModel::HubTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{
}

HubTreeModel::~HubTreeModel() = default;

void HubTreeModel::setRepo(const QString &repo)
{
    beginResetModel();
    m_repo = repo;
    m_root = std::make_unique<Node>();
    m_byPath.clear();
    m_byPath.insert(QString(), m_root.get());
    endResetModel();
}

void HubTreeModel::setLocalModules(const QSet<QString> &keys)
{
    m_local = keys;
    for (const auto &c : m_root->children)
        if (c->isDir && isVersionFolderName(c->name) && c->loaded)
            markPresence(c.get());
}

void HubTreeModel::setTransferring(const QSet<QString> &keys)
{
    const QSet<QString> changed = (keys - m_transferring) + (m_transferring - keys);
    m_transferring = keys;
    for (const QString &k : changed)
        if (Node *n = find(k))
            Q_EMIT dataChanged(indexOf(n, WhereColumn), indexOf(n, WhereColumn));
}

QStringList HubTreeModel::moduleKeys(const QModelIndexList &indexes, Presence wanted) const
{
    QSet<QString> keys;
    std::function<void(const Node *)> collect = [&](const Node *n) {
        if (n->isDir && isModuleFolderName(n->name)) {
            if (n->presence == wanted)
                keys.insert(n->path);
            return;
        }
        for (const auto &c : n->children)
            collect(c.get());
    };
    for (const QModelIndex &i : indexes)
        if (i.isValid())
            collect(nodeOf(i));
    QStringList out(keys.begin(), keys.end());
    out.sort();
    return out;
}

HubTreeModel::Node *HubTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex HubTreeModel::indexOf(Node *n, int column) const
{
    if (!n || n == m_root.get())
        return {};
    return createIndex(n->row, column, n);
}

HubTreeModel::Node *HubTreeModel::find(const QString &path) const
{
    return m_byPath.value(path);
}

QModelIndex HubTreeModel::indexForPath(const QString &path) const
{
    return indexOf(find(path));
}

QModelIndex HubTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    Node *p = nodeOf(parent);
    if (!p || row < 0 || row >= int(p->children.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex HubTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    Node *n = nodeOf(child);
    return indexOf(n->parent);
}

int HubTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    Node *n = nodeOf(parent);
    return n ? int(n->children.size()) : 0;
}

int HubTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

bool HubTreeModel::hasChildren(const QModelIndex &parent) const
{
    Node *n = nodeOf(parent);
    if (!n || (parent.isValid() && parent.column() > 0))
        return false;
    if (n == m_root.get())
        return !m_repo.isEmpty();
    return n->isDir && !n->synthetic && (!n->loaded || !n->children.empty());
}

bool HubTreeModel::canFetchMore(const QModelIndex &parent) const
{
    Node *n = nodeOf(parent);
    return n && n->isDir && !n->synthetic && !n->loaded && !n->loading && !m_repo.isEmpty() && n->error.isEmpty();
}

void HubTreeModel::fetchMore(const QModelIndex &parent)
{
    Node *n = nodeOf(parent);
    if (!canFetchMore(parent))
        return;
    n->loading = true;
    Q_EMIT fetchRequested(n->path);
}

void HubTreeModel::setListingError(const QString &dirPath, const QString &message)
{
    Node *n = find(dirPath);
    if (!n)
        return;
    n->loading = false;
    n->error = message;
    if (n != m_root.get())
        Q_EMIT dataChanged(indexOf(n), indexOf(n, ColumnCount - 1));
}

void HubTreeModel::setListing(const QString &dirPath, const QVector<TreeEntry> &entries, bool recursive)
{
    Node *base = find(dirPath);
    if (!base || base->loaded)
        return;
    const QString prefix = dirPath.isEmpty() ? QString() : dirPath + QLatin1Char('/');
    // Build the new subtree first, then insert it with one signal.
    std::vector<std::unique_ptr<Node>> fresh;
    QHash<QString, Node *> made;
    auto ensureDir = [&](const QString &path) -> Node * {
        // Creates the chain of folders from base down to `path`.
        Node *cur = base;
        QString acc = dirPath;
        const QStringList parts = path.mid(prefix.size()).split(QLatin1Char('/'));
        for (const QString &part : parts) {
            acc = acc.isEmpty() ? part : acc + QLatin1Char('/') + part;
            Node *next = made.value(acc);
            if (!next) {
                auto n = std::make_unique<Node>();
                n->name = part;
                n->path = acc;
                n->isDir = true;
                n->loaded = recursive;
                n->parent = cur;
                next = n.get();
                made.insert(acc, next);
                if (cur == base)
                    fresh.push_back(std::move(n));
                else
                    cur->children.push_back(std::move(n));
            }
            cur = next;
        }
        return cur;
    };
    for (const TreeEntry &e : entries) {
        if (!e.path.startsWith(prefix) || e.path.size() == prefix.size())
            continue;
        if (e.isDir) {
            ensureDir(e.path);
            continue;
        }
        const int slash = e.path.lastIndexOf(QLatin1Char('/'));
        Node *parentNode = slash >= prefix.size() ? ensureDir(e.path.left(slash)) : base;
        auto n = std::make_unique<Node>();
        n->name = e.path.mid(slash + 1);
        n->path = e.path;
        n->isDir = false;
        n->loaded = true;
        n->size = e.size;
        n->files = 1;
        n->lfsOid = e.lfsOid;
        n->parent = parentNode;
        if (parentNode == base)
            fresh.push_back(std::move(n));
        else
            parentNode->children.push_back(std::move(n));
    }
    auto byName = [](const std::unique_ptr<Node> &a, const std::unique_ptr<Node> &b) {
        if (a->isDir != b->isDir)
            return a->isDir;
        return a->name < b->name;
    };
    std::function<void(Node *)> finish = [&](Node *n) {
        std::sort(n->children.begin(), n->children.end(), byName);
        for (size_t i = 0; i < n->children.size(); ++i) {
            n->children[i]->row = int(i);
            m_byPath.insert(n->children[i]->path, n->children[i].get());
            finish(n->children[i].get());
        }
    };
    std::sort(fresh.begin(), fresh.end(), byName);
    base->loading = false;
    base->loaded = true;
    base->error.clear();
    if (!fresh.empty()) {
        beginInsertRows(indexOf(base), 0, int(fresh.size()) - 1);
        base->children = std::move(fresh);
        finish(base);
        endInsertRows();
    }
    recompute(base);
    // Compiler-version folders get presence marks once their modules are known.
    Node *version = base;
    while (version && version->parent != m_root.get())
        version = version->parent;
    if (version && isVersionFolderName(version->name))
        markPresence(version);
    else if (base == m_root.get())
        for (const auto &c : m_root->children)
            if (c->loaded && isVersionFolderName(c->name))
                markPresence(c.get());
    if (base != m_root.get())
        Q_EMIT dataChanged(indexOf(base), indexOf(base, ColumnCount - 1));
}

void HubTreeModel::recompute(Node *n)
{
    // Sizes and counts of complete folders, bottom-up.
    std::function<void(Node *)> sum = [&](Node *x) {
        if (!x->isDir || x->synthetic)
            return;
        x->size = 0;
        x->files = 0;
        for (const auto &c : x->children) {
            sum(c.get());
            if (!c->synthetic) {
                x->size += c->size;
                x->files += c->files;
            }
        }
    };
    sum(n);
    for (Node *p = n->parent; p && p != m_root.get(); p = p->parent) {
        p->size = 0;
        p->files = 0;
        for (const auto &c : p->children) {
            if (!c->synthetic) {
                p->size += c->size;
                p->files += c->files;
            }
        }
        Q_EMIT dataChanged(indexOf(p, SizeColumn), indexOf(p, FilesColumn));
    }
}

void HubTreeModel::markPresence(Node *v)
{
    if (!v->loaded)
        return;
    QSet<QString> onHub;
    for (const auto &c : v->children)
        if (c->isDir && isModuleFolderName(c->name) && !c->synthetic)
            onHub.insert(c->path);
    // Rows for local modules the Hub does not have, once.
    QStringList missing;
    for (const ModuleMark &mark : markModules(v->path, onHub, m_local)) {
        if (Node *n = find(mark.key))
            n->presence = mark.presence;
        else if (mark.presence == Presence::LocalOnly)
            missing << mark.key;
    }
    missing.sort();
    if (!missing.isEmpty()) {
        const int first = int(v->children.size());
        beginInsertRows(indexOf(v), first, first + int(missing.size()) - 1);
        for (const QString &k : std::as_const(missing)) {
            auto n = std::make_unique<Node>();
            n->name = k.mid(v->path.size() + 1);
            n->path = k;
            n->synthetic = true;
            n->loaded = true;
            n->presence = Presence::LocalOnly;
            n->parent = v;
            n->row = int(v->children.size());
            m_byPath.insert(k, n.get());
            v->children.push_back(std::move(n));
        }
        endInsertRows();
    }
    if (!v->children.empty())
        Q_EMIT dataChanged(index(0, 0, indexOf(v)), index(int(v->children.size()) - 1, ColumnCount - 1, indexOf(v)));
}

QVariant HubTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node *n = nodeOf(index);
    const bool complete = !n->isDir || n->loaded;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return displayName(n->name);
        case SizeColumn: return n->synthetic || !complete ? QVariant() : QVariant(formatBytes(n->size));
        case FilesColumn: return n->isDir && complete && !n->synthetic ? QVariant(n->files) : QVariant();
        case WhereColumn:
            if (!n->error.isEmpty())
                return tr("error");
            if (m_transferring.contains(n->path))
                return tr("in transfer…");
            switch (n->presence) {
            case Presence::Both: return tr("Hub and local");
            case Presence::HubOnly: return tr("Hub only");
            case Presence::LocalOnly: return tr("Local only");
            case Presence::None: return n->loading ? tr("loading…") : QVariant();
            }
        }
        break;
    case SortRole:
        switch (index.column()) {
        case NameColumn: return n->name;
        case SizeColumn: return n->size;
        case FilesColumn: return n->files;
        case WhereColumn: return int(n->presence);
        }
        break;
    case Qt::ToolTipRole:
        if (!n->error.isEmpty())
            return plainTip(n->error);
        if (!n->lfsOid.isEmpty())
            return plainTip(tr("Stored with LFS, sha256 %1").arg(displayName(n->lfsOid)));
        if (m_transferring.contains(n->path))
            return tr("On its way (see Transfers).");
        if (n->presence == Presence::LocalOnly)
            return tr("Compiled here but not on the Hub: a candidate to push.");
        if (n->presence == Presence::HubOnly)
            return tr("On the Hub but not in the local cache: a candidate to pull.");
        break;
    case Qt::ForegroundRole:
        if (n->presence == Presence::LocalOnly)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        if (!n->error.isEmpty())
            return stateColor(ModuleState::Failed);
        break;
    case Qt::DecorationRole:
        if (index.column() == WhereColumn && n->presence != Presence::None)
            return stateIcon(n->presence == Presence::Both ? ModuleState::Success
                             : n->presence == Presence::HubOnly ? ModuleState::Unknown : ModuleState::Empty);
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn || index.column() == FilesColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case PathRole: return n->path;
    case IsDirRole: return n->isDir;
    case PresenceRole: return int(n->presence);
    case LfsRole: return n->lfsOid;
    }
    return {};
}

QVariant HubTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case SizeColumn: return tr("Size");
    case FilesColumn: return tr("Files");
    case WhereColumn: return tr("Where");
    }
    return {};
}

}  // namespace ingot
