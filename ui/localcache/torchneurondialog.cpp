#include "ui/localcache/torchneurondialog.h"

#include "services/stores/storefactory.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/format.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace ingot {

namespace {
QString stateText(TorchNeuronEntry::State s)
{
    switch (s) {
    case TorchNeuronEntry::State::Complete: return TorchNeuronDialog::tr("Complete");
    case TorchNeuronEntry::State::Compiling: return TorchNeuronDialog::tr("Compiling");
    case TorchNeuronEntry::State::StaleLock: return TorchNeuronDialog::tr("Stale lock");
    case TorchNeuronEntry::State::Incomplete: return TorchNeuronDialog::tr("Incomplete");
    }
    return {};
}
}  // namespace

TorchNeuronDialog::TorchNeuronDialog(QWidget *parent)
    : QDialog(parent), m_where(resolveTorchNeuronLocations()), m_place(new QComboBox(this)), m_why(new QLabel(this)),
      m_view(new QTreeWidget(this)), m_summary(new QLabel(this)),
      m_clean(new QPushButton(tr("Delete incomplete entries…"), this)),
      m_locks(new QPushButton(tr("Clear stale locks…"), this)), m_prune(new QPushButton(tr("Prune unused…"), this))
{
    setWindowTitle(tr("TorchNeuron / vLLM-Neuron compile cache"));
    m_place->addItem(tr("Local tier: %1").arg(m_where.local), QVariant::fromValue(StoreLocation::local(m_where.local)));
    if (!m_where.remote.isEmpty())
        m_place->addItem(tr("Remote tier: %1").arg(m_where.remote), QVariant::fromValue(StoreLocation::local(m_where.remote)));
    m_place->addItem(tr("Another folder…"));
    connect(m_place, &QComboBox::activated, this, [this](int i) {
        const QVariant v = m_place->itemData(i);
        if (v.isValid()) {
            openLocation(v.value<StoreLocation>());
            return;
        }
        const QString dir = QFileDialog::getExistingDirectory(this, tr("A TorchNeuron / vLLM-Neuron compile cache"),
                                                              m_location.isLocal() ? m_location.path : QString());
        if (!dir.isEmpty())
            openFolder(dir);
    });
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view->setHeaderLabels({tr("Key"), tr("State"), tr("Size"), tr("Files"), tr("Last used"), tr("Note")});
    m_view->setRootIsDecorated(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    for (int c = 0; c < 5; ++c)
        m_view->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_clean->setToolTip(tr("Entries without their .compilation_complete marker and without a lock: an interrupted compile"));
    m_locks->setToolTip(tr("Lock files no process on this machine holds (a killed compile)"));
    m_prune->setToolTip(tr("Complete entries unused for longer than the prune policy's days (Settings)"));
    connect(m_clean, &QPushButton::clicked, this, [this] { ask(TorchNeuronAction::CleanIncomplete); });
    connect(m_locks, &QPushButton::clicked, this, [this] { ask(TorchNeuronAction::ClearLocks); });
    connect(m_prune, &QPushButton::clicked, this, [this] { ask(TorchNeuronAction::Prune); });
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_clean);
    actions->addWidget(m_locks);
    actions->addWidget(m_prune);
    actions->addStretch(1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *col = new QVBoxLayout(this);
    col->addWidget(m_place);
    col->addWidget(m_why);
    col->addLayout(actions);
    col->addWidget(m_view, 1);
    col->addWidget(m_summary);
    col->addWidget(buttons);
    resize(900, 520);
}

TorchNeuronDialog::~TorchNeuronDialog()
{
    m_task.discard();
}

QPushButton *TorchNeuronDialog::actionButton(TorchNeuronAction action) const
{
    switch (action) {
    case TorchNeuronAction::CleanIncomplete: return m_clean;
    case TorchNeuronAction::ClearLocks: return m_locks;
    case TorchNeuronAction::Prune: return m_prune;
    }
    return nullptr;
}

void TorchNeuronDialog::openFolder(const QString &folder)
{
    openLocation(StoreLocation::local(folder));
}

void TorchNeuronDialog::openLocation(const StoreLocation &location)
{
    m_location = location;
    int at = m_place->findData(QVariant::fromValue(location));
    if (at < 0) {
        at = m_place->count() - 1;  // before "Another folder…"
        m_place->insertItem(at, location.isLocal() ? tr("Folder: %1").arg(displayName(location.path))
                                                   : tr("Cache: %1").arg(displayName(location.display())),
                            QVariant::fromValue(location));
    }
    m_place->setCurrentIndex(at);
    const bool local = location.isLocal();
    m_why->setText(local && location.path == m_where.local ? m_where.localWhy
                   : local && location.path == m_where.remote
                       ? tr("NEURON_LIBTORCH_REMOTE_CACHE is set: the remote tier, shared by the nodes.")
                   : local ? tr("A folder you chose.")
                           : tr("Not on this machine: whether a process holds a lock cannot be seen from here, so every "
                                "lock counts as held."));
    m_summary->setText(tr("Reading %1…").arg(displayName(location.display())));
    for (QPushButton *b : {m_clean, m_locks, m_prune})
        b->setEnabled(false);
    m_task.discard();
    m_task = runTask(
        this,
        [location](TaskControl &) {
            QString error;
            const std::unique_ptr<CacheStore> store = makeStore(location, &error);
            if (!store) {
                TorchNeuronSnapshot snap;
                snap.fatalError = error;
                return snap;
            }
            return scanTorchNeuronCache(*store);
        },
        [this](const TorchNeuronSnapshot &snap) { showSnapshot(snap); });
}

void TorchNeuronDialog::showSnapshot(const TorchNeuronSnapshot &snap)
{
    m_snapshot = snap;
    m_view->clear();
    if (!snap.fatalError.isEmpty()) {
        m_summary->setText(snap.fatalError + QLatin1Char(' ')
                           + tr("TorchNeuron or vLLM-Neuron creates it when it first compiles with the cache on."));
        Q_EMIT scanFinished();
        return;
    }
    const QColor warn = palette().color(QPalette::Link);
    for (const TorchNeuronEntry &e : snap.entries) {
        auto *item = new QTreeWidgetItem(m_view);
        item->setText(0, e.key);
        item->setText(1, stateText(e.state));
        item->setText(2, formatBytes(e.size));
        item->setData(2, Qt::UserRole, e.size);
        item->setText(3, QString::number(e.files));
        item->setText(4, e.lastUsedMs > 0 ? formatDateTime(e.lastUsedMs) : QString());
        if (e.neffMismatch)
            item->setText(5, tr("the marker names a %1-byte NEFF that is not there").arg(e.neffBytes));
        else if (!e.locks.isEmpty())
            item->setText(5, tr("lock: %1").arg(displayName(e.locks.join(QStringLiteral(", ")))));
        if (e.state != TorchNeuronEntry::State::Complete)
            item->setForeground(1, warn);
    }
    using S = TorchNeuronEntry::State;
    m_summary->setText(tr("%n entries, %1: %2 complete, %3 compiling, %4 with a stale lock, %5 incomplete.", nullptr,
                          int(snap.entries.size()))
                           .arg(formatBytes(snap.size()))
                           .arg(snap.count(S::Complete)).arg(snap.count(S::Compiling)).arg(snap.count(S::StaleLock))
                           .arg(snap.count(S::Incomplete))
                       + (snap.otherItems.isEmpty() ? QString()
                                                    : QLatin1Char(' ') + tr("%n other items left alone.", nullptr, int(snap.otherItems.size()))));
    for (const TorchNeuronAction a : {TorchNeuronAction::CleanIncomplete, TorchNeuronAction::ClearLocks, TorchNeuronAction::Prune})
        actionButton(a)->setEnabled(!preview(a).isEmpty());
    Q_EMIT scanFinished();
}

QStringList TorchNeuronDialog::preview(TorchNeuronAction action) const
{
    QStringList lines;
    for (const TorchNeuronStep &s : planTorchNeuron(m_snapshot, action, AppSettings::ttlDays(), QDateTime::currentMSecsSinceEpoch()))
        lines << tr("%1 (%2): %3").arg(displayName(s.rel), formatBytes(s.bytes), s.why);
    return lines;
}

void TorchNeuronDialog::ask(TorchNeuronAction action)
{
    const QStringList lines = preview(action);
    if (lines.isEmpty())
        return;
    QMessageBox box(QMessageBox::Question, windowTitle(), tr("Remove these %n items?", nullptr, int(lines.size())),
                    QMessageBox::Yes | QMessageBox::Cancel, this);
    box.setInformativeText(tr("Each is looked at again right before it goes; one that changed since is left."));
    box.setDetailedText(lines.join(QLatin1Char('\n')));
    if (box.exec() == QMessageBox::Yes)
        runAction(action);
}

void TorchNeuronDialog::runAction(TorchNeuronAction action)
{
    const QVector<TorchNeuronStep> plan = planTorchNeuron(m_snapshot, action, AppSettings::ttlDays(), QDateTime::currentMSecsSinceEpoch());
    const int ttl = AppSettings::ttlDays();
    const StoreLocation location = m_location;
    for (QPushButton *b : {m_clean, m_locks, m_prune})
        b->setEnabled(false);
    m_task = runTask(
        this,
        [location, plan, action, ttl](TaskControl &) {
            QString error;
            const std::unique_ptr<CacheStore> store = makeStore(location, &error);
            if (!store || !store->open(&error)) {
                TorchNeuronReport r;
                r.errors << error;
                return r;
            }
            return executeTorchNeuron(*store, plan, action, ttl, QDateTime::currentMSecsSinceEpoch());
        },
        [this](const TorchNeuronReport &r) {
            Q_EMIT maintenanceFinished(r);
            if (!r.errors.isEmpty())
                QMessageBox::warning(this, windowTitle(), r.errors.join(QLatin1Char('\n')));
            openLocation(m_location);
        });
}

}  // namespace ingot
