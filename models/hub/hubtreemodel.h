// A Hub repo's files as a lazy tree. The model does no I/O: it asks for a folder's listing (fetchRequested) and
// the page answers with setListing(). Module folders are marked against the local cache by the services' rule
// (services/hub/modulepresence.h): both, Hub only, or local only (rows added for local modules the Hub lacks).
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/modulepresence.h"

#include <QAbstractItemModel>
#include <QSet>

#include <memory>

namespace ingot {

class HubTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HubTreeModel)

public:
    enum Column { NameColumn, SizeColumn, FilesColumn, WhereColumn, ColumnCount };
    enum Role { PathRole = Qt::UserRole + 1, IsDirRole, SortRole, PresenceRole, LfsRole };
    using Presence = ModulePresence;

    explicit HubTreeModel(QObject *parent = nullptr);
    ~HubTreeModel() override;

    void setRepo(const QString &repo);
    QString repo() const { return m_repo; }
    // Keys "neuronxcc-<ver>/MODULE_<...>" of the local cache.
    void setLocalModules(const QSet<QString> &keys);
    // Keys of modules on their way in or out (the transfer queue's): marked "in transfer".
    void setTransferring(const QSet<QString> &keys);
    bool isTransferring(const QString &key) const { return m_transferring.contains(key); }
    // Keys of the module rows among `indexes`, and of the listed modules under folders among them, whose presence is
    // `wanted` (source indexes; sorted, no duplicates).
    QStringList moduleKeys(const QModelIndexList &indexes, Presence wanted) const;
    // The listing of `dirPath` ("" = root). With `recursive`, every folder below is complete too.
    void setListing(const QString &dirPath, const QVector<TreeEntry> &entries, bool recursive);
    void setListingError(const QString &dirPath, const QString &message);
    QModelIndex indexForPath(const QString &path) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void fetchRequested(const QString &dirPath);

private:
    struct Node;
    Node *nodeOf(const QModelIndex &index) const;
    QModelIndex indexOf(Node *n, int column = 0) const;
    Node *find(const QString &path) const;
    void recompute(Node *n);
    void markPresence(Node *versionNode);

    QString m_repo;
    QSet<QString> m_local;
    QSet<QString> m_transferring;
    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_byPath;
};

}  // namespace ingot
