// The right-hand pane of the Local cache page: one entry's files, flags, failure log and path actions.
#pragma once

#include "services/cache/cachetypes.h"
#include "services/cache/explain.h"
#include "services/stores/storelocation.h"
#include "services/util/task.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QGroupBox;

namespace ingot {

class CacheStore;
class ModuleFilesModel;

class ModuleDetailsPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModuleDetailsPane)

public:
    explicit ModuleDetailsPane(QWidget *parent = nullptr);
    ~ModuleDetailsPane() override;

    // The cache whose entries are shown; files are read from a store the StoreFactory makes for it, or from what
    // `listed` gives when it gives a store (another handle on the listing the entries came from, so that an S3 cache
    // is not listed again to show one entry: only the files shown are read).
    using ListedStore = std::function<std::unique_ptr<CacheStore>()>;
    void setLocation(const StoreLocation &location, ListedStore listed = {})
    {
        m_location = location;
        m_listedStore = std::move(listed);
    }
    void showModule(const CacheModule &m);
    void showSummary(const QString &title, const QString &text, const QString &path);
    void clear();

    QString currentPath() const { return m_path; }
    QString flagsText() const;
    QString logText() const;
    QString hloText() const;
    QString explanationText() const;
    QPushButton *explainButton() const { return m_explain; }
    QPushButton *explanationAction() const { return m_whyAction; }
    QTableView *filesView() const { return m_files; }

Q_SIGNALS:
    void detailsLoaded();  // flags, log tail, HLO summary and link targets arrived
    void explained();      // the answer to "Why would a job compile it?" is shown
    // What the answer offers (always previewed by whoever acts on it): delete this failed entry, clear stale locks,
    // bring the entry here from the cache that holds it (a path, host:path or hub:org/name).
    void deleteFailedRequested(const QString &key);
    void clearLocksRequested();
    void fetchRequested(const QString &fromCache, const QString &key);

private:
    void copyPath();
    void explain();
    void showExplanationAction(const std::optional<Explanation> &e);
    void fitFilesTable();
    void openFolder();

    StoreLocation m_location;
    ListedStore m_listedStore;
    QString m_path;
    QString m_key;
    Task m_load;  // the selected entry's flags, log and links; discarded when the selection changes
    QLabel *m_title;
    QLabel *m_state;
    QLabel *m_pathLabel;
    QLabel *m_warnings;
    QPushButton *m_copy;
    QPushButton *m_open;
    QTableView *m_files;
    ModuleFilesModel *m_filesModel;
    QGroupBox *m_flagsBox;
    QPlainTextEdit *m_flags;
    QGroupBox *m_logBox;
    QPlainTextEdit *m_log;
    QGroupBox *m_hloBox;
    QPlainTextEdit *m_hlo;
    QGroupBox *m_whyBox;
    QPushButton *m_explain;
    QLabel *m_why;
    QPushButton *m_whyAction;
    Task m_explaining;  // "Why would a job compile it?", asked with the button
};

}  // namespace ingot
