// The launcher's compile cache (JobLauncher, ui/jobs/joblauncher.h): the cache the job will use, as the runtime
// resolves it, whether it holds entries that block recompiling, and how many graphs of the last run with the same
// settings it holds now.
#include "ui/jobs/joblauncher.h"

#include "models/common/tones.h"
#include "services/cache/cachehealth.h"
#include "services/cache/cachelocation.h"
#include "services/cache/cachescanner.h"
#include "services/jobs/jobservice.h"
#include "services/neuron/priorgraphs.h"
#include "services/stores/localcachestore.h"
#include "services/util/names.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace ingot {

void JobLauncher::setDefaultCompileCache(const QString &root)
{
    const QString current = m_cacheUrl->text().trimmed();
    if (current.isEmpty() || current == m_defaultCache)
        m_cacheUrl->setText(root);
    m_defaultCache = root;
}

void JobLauncher::recheckCache()
{
    m_cacheScanned.clear();
    checkCacheFor(spec());
}

void JobLauncher::checkCacheFor(const JobSpec &s)
{
    if (where() != QLatin1String("local")) {
        // On a host: its cache as the job will see it there (resolved on the host); its entries are checked on the
        // Remote hosts page.
        JobRecordFile r;
        r.where = where();
        r.spec = s;
        m_clean->hide();
        m_cacheWarning->setStyleSheet(QString());
        m_cacheTask.discard();
        m_cacheTask = m_service->compileCacheOf(r, [this](const CacheLocation &loc, const StoreLocation &store,
                                                          const QString &error) {
            m_cacheScanned = m_cacheRoot = error.isEmpty() ? store.display() : QString();
            m_cacheLabel->setToolTip(loc.explanation);
            m_cacheLabel->setText(!error.isEmpty() ? displayText(error)
                                  : loc.cachingDisabled ? tr("Compile caching is off for this job (--no_cache in NEURON_CC_FLAGS): every graph compiles afresh.")
                                                        : tr("This job compiles into %1").arg(displayName(m_cacheRoot)));
            m_cacheWarning->setText(tr("A host's cache is checked on the Remote hosts page."));
            Q_EMIT cacheChecked();
        });
        return;
    }
    // The runtime's rule, as the monitor and the CLI resolve it (JobManager::compileCache).
    const CacheLocation loc = JobManager(m_service->sharedRunner()).compileCache(s);
    m_cacheRoot = loc.path;
    m_cacheLabel->setToolTip(loc.explanation);
    if (loc.cachingDisabled) {
        m_cacheLabel->setText(tr("Compile caching is off for this job (--no_cache in NEURON_CC_FLAGS): every graph "
                                 "compiles afresh."));
    } else {
        m_cacheLabel->setText(tr("This job compiles into %1").arg(loc.path));
    }
    if (!loc.isSupported()) {
        m_cacheTask.discard();
        m_cacheScanned = loc.path;
        m_cacheWarning->setText(tr("Ingot checks only local caches."));
        m_cacheWarning->setStyleSheet(QString());
        m_clean->hide();
        Q_EMIT cacheChecked();
        return;
    }
    if (loc.path == m_cacheScanned)
        return;
    m_cacheScanned = loc.path;
    m_clean->hide();
    m_cacheWarning->setStyleSheet(QString());
    m_cacheWarning->setText(tr("Checking the cache…"));
    m_cacheTask.discard();
    m_cacheTask = runTask(
        this, [root = loc.path](TaskControl &control) { return checkCacheHealth(StoreLocation::local(root), control.stopFlag()); },
        [this](CacheHealth c) {
            if (c.root == m_cacheScanned)
                showCacheCheck(c);
        });
}

// The last run with the same graph settings: how many of its graphs the cache holds now, and whether any is blocked.
void JobLauncher::checkPriorGraphs(const JobSpec &s, const QString &root)
{
    m_priorGraphs->hide();
    m_priorTask.discard();
    if (!m_service)
        return;
    const QVector<JobSummary> history = m_service->history();
    const JobManager manager(m_service->sharedRunner());
    auto folderOf = [manager](const QString &id) { return manager.paths(id).root; };
    m_priorTask = runTask(this, [history, s, folderOf, root](TaskControl &) {
        LocalCacheStore store(root);
        QString error;
        CacheSnapshot snap;
        if (store.open(&error)) {
            CacheScanner scanner(store);
            snap = scanner.scan(nullptr);
            snap.reindex();
        }
        return priorGraphs(history, s, QStringLiteral("local"), folderOf, snap, root);
    }, [this](const PriorGraphs &p) {
        m_priorGraphs->setText(displayName(p.text()));
        m_priorGraphs->setVisible(p.found);
        m_priorGraphs->setStyleSheet(p.blocked > 0 ? QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name())
                                                   : QString());
        Q_EMIT priorGraphsChecked();
    });
}

void JobLauncher::showCacheCheck(const CacheHealth &c)
{
    QStringList warnings;
    if (!c.exists) {
        m_cacheWarning->setText(tr("The folder does not exist yet: the first compile creates it."));
    } else if (!c.error.isEmpty()) {
        warnings << tr("The cache could not be read: %1").arg(c.error);
    } else {
        if (c.failed > 0)
            warnings << tr("%n failed entry(s): the compiler reuses a failure instead of compiling that graph again, "
                           "so a job that needs one fails at once.", nullptr, c.failed);
        if (c.locked > 0 && c.compilersRunning == 0)
            warnings << tr("%n locked entry(s) and no compiler running: stale locks from a killed compile; a job that "
                           "needs one waits for the lock.", nullptr, c.locked);
        else if (c.locked > 0)
            m_cacheWarning->setText(tr("%n entry(s) locked by a compile that is running now.", nullptr, c.locked));
        if (warnings.isEmpty() && c.locked == 0)
            m_cacheWarning->setText(tr("%n compiled entry(s), none failed or locked.", nullptr, c.entries));
    }
    if (!warnings.isEmpty()) {
        m_cacheWarning->setText(warnings.join(QLatin1Char('\n')));
        m_cacheWarning->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Warning).name()));
    } else {
        m_cacheWarning->setStyleSheet(QString());
    }
    m_clean->setVisible(c.needsCleaning());
    Q_EMIT cacheChecked();
}

}  // namespace ingot
