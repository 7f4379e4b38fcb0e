// The Hub caches page: who you are, the cache repos you use (and whether you can write to them), their files
// browsed lazily and marked against the local cache, the registry, and lookups.
#pragma once

#include "services/hub/hubclient.h"
#include "services/hub/hubenv.h"

#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>

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

class HubCachePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HubCachePage)

public:
    explicit HubCachePage(QWidget *parent = nullptr);
    ~HubCachePage() override;

    // Keys "neuronxcc-<ver>/MODULE_..." of the local cache, to mark modules local-only, Hub-only or both.
    void setLocalModulesProvider(std::function<QSet<QString>()> provider) { m_localModules = std::move(provider); }
    // Reads the environment again (endpoint, token, offline, cache repo) and refreshes everything.
    void refresh();

    QListWidget *repoList() const { return m_repos; }
    QTreeView *filesView() const { return m_files; }
    HubTreeModel *filesModel() const { return m_tree; }
    LookupModel *lookupModel() const { return m_lookup; }
    QTableView *lookupView() const { return m_lookupView; }
    QLineEdit *modelEdit() const { return m_modelEdit; }
    QPushButton *lookupButton() const { return m_lookupButton; }
    QLabel *accountLabel() const { return m_account; }
    QLabel *lookupStatus() const { return m_lookupStatus; }
    QPlainTextEdit *rawView() const { return m_raw; }
    QTabWidget *tabs() const { return m_tabs; }
    QString currentRepo() const;
    void selectRepo(const QString &repo);
    void copySelectedLookupRows();

Q_SIGNALS:
    void statusChanged(const QString &text, bool busy);
    void accountChanged();  // whoami answered (or failed)
    void repoOpened(const QString &repo);
    void lookupFinished(int entries);

public Q_SLOTS:
    void runLookup();
    void login();
    void logout();
    void addRepo();
    void useAsCacheRepo();
    void createCacheRepo();

private:
    HubClient makeClient() const;
    void updateAccount();
    void checkRepoAccess(const QString &repo);
    void openRepo(const QString &repo);
    void fetch(const QString &dirPath);
    void showSelectedFile();

    std::unique_ptr<SecretStore> m_keychain;
    HubConfig m_config;
    QString m_token;
    QString m_tokenSource;
    WhoAmI m_me;
    bool m_haveMe = false;
    std::function<QSet<QString>()> m_localModules;
    quint64 m_generation = 0;

    QLabel *m_account;
    QLabel *m_offline;
    QPushButton *m_loginButton;
    QPushButton *m_logoutButton;
    QListWidget *m_repos;
    QTabWidget *m_tabs;
    QTreeView *m_files;
    HubTreeModel *m_tree;
    QPlainTextEdit *m_fileDetails;
    QLineEdit *m_modelEdit;
    QComboBox *m_instance;
    QComboBox *m_dtype;
    QSpinBox *m_batch;
    QSpinBox *m_seq;
    QSpinBox *m_tp;
    QPushButton *m_lookupButton;
    QLabel *m_lookupStatus;
    LookupModel *m_lookup;
    QTableView *m_lookupView;
    QPlainTextEdit *m_raw;
};

}  // namespace ingot
