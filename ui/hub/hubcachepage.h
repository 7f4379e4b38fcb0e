// The Hub caches page: who you are, the cache repos you use (and whether you can write to them), their files
// browsed lazily and marked against the local cache, the registry, and lookups. Everything that touches the
// network, the keychain or a file runs off the UI thread (runTask); a late answer to a question no longer asked
// (another file selected, another repo opened) is dropped.
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"
#include "services/util/task.h"

#include <QHash>
#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>

class QBoxLayout;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTabWidget;
class QTreeView;

namespace ingot {

class HubTreeModel;
class LookupModel;
class SecretStore;
struct CacheRepoChoice;
struct LookupResult;
struct ResolvedToken;

class HubCachePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HubCachePage)

public:
    explicit HubCachePage(QWidget *parent = nullptr);
    ~HubCachePage() override;

    // Keys "neuronxcc-<ver>/MODULE_..." of the local cache, to mark modules local-only, Hub-only or both.
    void setLocalModulesProvider(std::function<QSet<QString>()> provider) { m_localModules = std::move(provider); }
    // Marks again which modules are local (after a scan of the local cache) and which are in transfer.
    void refreshMarks();
    void setTransferring(const QSet<QString> &keys);
    // The keychain: the system one unless INGOT_KEYCHAIN=none (then none); tests hand in a fake. Workers share it,
    // and it is only ever called on their threads.
    void setSecretStore(std::shared_ptr<SecretStore> store) { m_keychain = std::move(store); }
    // Reads the environment again (endpoint, token, offline, cache repo) and refreshes everything; ready() follows.
    void refresh();

    QListWidget *repoList() const { return m_repos; }
    QTreeView *filesView() const { return m_files; }
    HubTreeModel *filesModel() const { return m_tree; }
    QPlainTextEdit *fileDetails() const { return m_fileDetails; }
    QPushButton *listingCancelButton() const { return m_listingCancel; }
    // Above the files when the repo's top folder cannot be listed (the Hub unreachable, offline): why, and Retry.
    QWidget *treeNotice() const { return m_treeNotice; }
    QLabel *treeNoticeLabel() const { return m_treeNoticeText; }
    QPushButton *retryButton() const { return m_retry; }
    QLabel *listingStatus() const { return m_listingStatus; }
    LookupModel *lookupModel() const { return m_lookup; }
    QTableView *lookupView() const { return m_lookupView; }
    QLineEdit *modelEdit() const { return m_modelEdit; }
    QPushButton *lookupButton() const { return m_lookupButton; }
    QPushButton *lookupCancelButton() const { return m_lookupCancel; }
    QLabel *accountLabel() const { return m_account; }
    QLabel *offlineBanner() const { return m_offline; }
    QLabel *lookupStatus() const { return m_lookupStatus; }
    QPlainTextEdit *rawView() const { return m_raw; }
    QTabWidget *tabs() const { return m_tabs; }
    QPushButton *pullButton() const { return m_pull; }
    QPushButton *pushButton() const { return m_push; }
    // "Hub only" modules among the selected rows (folders: the modules listed under them), and "Local only" ones.
    QStringList selectedKeys(int presence) const;
    QString currentRepo() const;
    void selectRepo(const QString &repo);
    // Lists the open repo again (after a push to it).
    void reopenRepo();
    void copySelectedLookupRows();

Q_SIGNALS:
    void statusChanged(const QString &text, bool busy);
    void ready();           // refresh() is done: token and repos read, the account shown, a repo opened
    void accountChanged();  // whoami answered (or failed)
    void repoOpened(const QString &repo);
    void lookupFinished(int entries);
    // Pull these Hub-only modules of `repo` into the local cache / push these local-only modules to `repo`.
    void pullRequested(const QString &repo, const QStringList &keys);
    void pushRequested(const QString &repo, const QStringList &keys);  // -1: failed or cancelled; an incomplete lookup counts what it read

public Q_SLOTS:
    void runLookup();
    void cancelLookup();
    void cancelListings();
    void login();
    void logout();
    void addRepo();
    void useAsCacheRepo();
    void createCacheRepo();
    void pullSelected();
    void pushSelected();

private:
    // The parts of the page, built once by the constructor.
    QBoxLayout *buildAccountBar();
    QWidget *buildRepoPanel();
    QWidget *buildFilesTab();
    QWidget *buildLookupTab();
    QBoxLayout *buildLookupFilters();
    void setUpLookupTable();

    HubClient makeClient() const;
    QStringList fillRepoList(const CacheRepoChoice &choice);
    void applyStart(const ResolvedToken &token, const CacheRepoChoice &choice);
    void showAccount(const QString &text);
    void updateAccount();
    void checkRepoAccess(const QString &repo);
    void openRepo(const QString &repo);
    void fetch(const QString &dirPath);
    void listingDone(const QString &dirPath, bool recursive, const QVector<TreeEntry> &entries, const HubError &error);
    void updateListingBar();
    void updateTreeNotice();
    void showSelectedFile();
    void showSelectedFolder();
    QString folderDetails(const QModelIndex &i) const;
    bool isBeingListed(const QString &path) const;
    void showLookupResult(const QString &model, const QString &repo, const LookupResult &r);
    void saveLogin(const QString &token);
    void addRepoNamed(const QString &repo);
    void createCacheRepoNamed(const QString &repo, bool isPublic);
    void warn(const QString &title, const QString &text);

    void updateTransferButtons();
    void showFilesMenu(const QPoint &pos);

    QPushButton *m_pull = nullptr;
    QPushButton *m_push = nullptr;
    std::shared_ptr<SecretStore> m_keychain;
    HubConfig m_config;
    QString m_token;
    QString m_tokenSource;
    QString m_keychainNote;  // why the keychain was not used, when it runs but failed or did not answer
    WhoAmI m_me;
    bool m_haveMe = false;
    std::function<QSet<QString>()> m_localModules;
    quint64 m_generation = 0;
    Task m_fileTask;                // the selected file's contents
    Task m_lookupTask;              // the lookup running
    QHash<QString, Task> m_listings;  // the folders being listed, of the open repo
    QHash<QString, QString> m_listingErrors;  // why a folder of the open repo could not be listed

    QLabel *m_account;
    QLabel *m_offline;
    QPushButton *m_loginButton;
    QPushButton *m_logoutButton;
    QListWidget *m_repos;
    QTabWidget *m_tabs;
    QTreeView *m_files;
    HubTreeModel *m_tree;
    QWidget *m_listingBar;
    QLabel *m_listingStatus;
    QPushButton *m_listingCancel;
    QWidget *m_treeNotice = nullptr;
    QLabel *m_treeNoticeText = nullptr;
    QPushButton *m_retry = nullptr;
    QPlainTextEdit *m_fileDetails;
    QLineEdit *m_modelEdit;
    QComboBox *m_instance;
    QComboBox *m_dtype;
    QSpinBox *m_batch;
    QSpinBox *m_seq;
    QSpinBox *m_tp;
    QPushButton *m_lookupButton;
    QPushButton *m_lookupCancel;
    QLabel *m_lookupStatus;
    LookupModel *m_lookup;
    QTableView *m_lookupView;
    QPlainTextEdit *m_raw;
};

}  // namespace ingot
