#include "ui/remote/remotehostspage.h"

#include "models/common/tones.h"
#include "ui/common/keyboard.h"
#include "services/cache/cachelocation.h"
#include "services/remote/remotehosts.h"
#include "services/s3/hosts3access.h"
#include "services/remote/sshresolve.h"
#include "services/slurm/slurmcluster.h"
#include "services/util/appsettings.h"
#include "services/util/names.h"
#include "services/util/remoteshell.h"
#include "ui/remote/hostkeydialog.h"
#include "ui/remote/passworddialog.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace ingot {

using State = RemoteHostStatus::State;

namespace {

QLabel *valueLabel(QWidget *parent)
{
    auto *l = new QLabel(parent);
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setWordWrap(true);
    return l;
}

// The list's status of a session's status (the same states, in the same order).
RemoteHostStatus listStatus(const RemoteHostSession::Status &s)
{
    return RemoteHostStatus{State(int(s.state)), s.reason, s.detail, s.retryInSeconds};
}

}  // namespace

RemoteHostsPage::RemoteHostsPage(QWidget *parent)
    : QWidget(parent), m_model(new RemoteHostsModel(this)), m_checkTimer(new QTimer(this))
{
    registerRemoteStores();  // the cache page opens "ssh" locations through the StoreFactory
    m_checkTimer->setInterval(10000);
    connect(m_checkTimer, &QTimer::timeout, this, &RemoteHostsPage::checkConnections);
    connect(m_checkTimer, &QTimer::timeout, this, [this] {
        if (++m_ticks % slurmEveryTicks == 0)
            refreshSlurm();
    });
    buildUi();
    updateActions();
    // Hosts added or removed elsewhere, or another ssh config chosen in Settings: read the list again (once it has
    // been shown; the first show reads it anyway).
    connect(RemoteHostsSignals::instance(), &RemoteHostsSignals::hostsChanged, this, [this] {
        if (m_shownOnce && !m_notifying)
            reloadHosts();
    });
}

void RemoteHostsPage::notifyHostsChanged()
{
    m_notifying = true;  // this page has its list already
    RemoteHosts::instance().notifyChanged();
    m_notifying = false;
}

RemoteHostsPage::~RemoteHostsPage()
{
    // A worker waiting for a passphrase gets "cancelled" and goes on; nothing it returns reaches this page.
    for (const std::weak_ptr<GuiAskPass> &w : std::as_const(m_askPasses))
        if (auto ask = w.lock())
            ask->close();
    m_loading.discard();
    m_resolving.discard();
    m_localSlurm.discard();
}

void RemoteHostsPage::createActions()
{
    m_add = new QAction(style()->standardIcon(QStyle::SP_FileDialogNewFolder), tr("&Add host…"), this);
    m_add->setToolTip(tr("Add a host by name: an alias of your ssh config, host, user@host or user@host:port"));
    connect(m_add, &QAction::triggered, this, &RemoteHostsPage::showAddHostDialog);
    m_remove = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Remove"), this);
    m_remove->setToolTip(tr("Forget a host added in Ingot (hosts of your ssh config are edited there)"));
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_remove, &QAction::triggered, this, [this] { removeHost(currentHost()); });
    m_connect = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Connect"), this);
    m_connect->setToolTip(tr("Open the master connection to this host (ssh with your config, keys and agent)"));
    connect(m_connect, &QAction::triggered, this, [this] { connectHost(currentHost()); });
    m_disconnect = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Disconnect"), this);
    m_disconnect->setToolTip(tr("End the master connection (and stop retrying)"));
    connect(m_disconnect, &QAction::triggered, this, [this] { disconnectHost(currentHost()); });
    m_openCache = new QAction(QIcon(QStringLiteral(":/icons/cache.svg")), tr("Open compile &cache"), this);
    m_openCache->setToolTip(tr("Ask the host where its Neuron tools keep the compile cache (NEURON_CC_FLAGS "
                               "--cache_dir, NEURON_COMPILE_CACHE_URL, else /var/tmp/neuron-compile-cache) and show it"));
    connect(m_openCache, &QAction::triggered, this, [this] { openCompileCache(currentHost()); });
    m_openFolder = new QAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &folder on host…"), this);
    m_openFolder->setToolTip(tr("Show a compile cache folder of your choice on this host"));
    connect(m_openFolder, &QAction::triggered, this, &RemoteHostsPage::showOpenFolderDialog);
    m_checkSlurm = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Check &Slurm"), this);
    m_checkSlurm->setToolTip(tr("Ask the host whether it is a Slurm login node (sinfo, sbatch) and what its cluster holds"));
    connect(m_checkSlurm, &QAction::triggered, this, [this] {
        if (!currentHost().isEmpty())
            session(currentHost())->askSlurm();
    });
    m_reload = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Re&load hosts"), this);
    m_reload->setToolTip(tr("Read the ssh config again"));
    connect(m_reload, &QAction::triggered, this, [this] {
        reloadHosts();
        notifyHostsChanged();  // the ssh config may have been edited: the launcher's list too
    });
}

void RemoteHostsPage::buildUi()
{
    createActions();
    m_configLabel = new QLabel(this);
    m_configLabel->setWordWrap(true);
    m_configLabel->setTextFormat(Qt::PlainText);
    QPalette pal = m_configLabel->palette();
    pal.setColor(QPalette::WindowText, pal.color(QPalette::Disabled, QPalette::WindowText));
    m_configLabel->setPalette(pal);

    auto *buttons = new QHBoxLayout;
    for (QAction *a : {m_add, m_remove, m_connect, m_disconnect, m_reload}) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        buttons->addWidget(b);
    }
    buttons->addStretch(1);

    m_view = new QTreeView(this);
    m_view->setModel(m_model);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAllColumnsShowFocus(true);
    m_view->setIconSize(QSize(14, 14));
    m_view->header()->setStretchLastSection(true);
    m_view->setColumnWidth(RemoteHostsModel::HostColumn, 260);
    m_view->setColumnWidth(RemoteHostsModel::SourceColumn, 110);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    addContextMenuShortcut(m_view);
    for (QAction *a : {m_connect, m_disconnect, m_openCache, m_openFolder, m_remove})
        m_view->addAction(a);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        showDetails();
        updateActions();
    });
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &i) {
        const QString host = i.siblingAtColumn(0).data(RemoteHostsModel::HostTextRole).toString();
        if (m_model->status(host).state == State::Connected)
            openCompileCache(host);
        else
            connectHost(host);
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from) {
        if (from.row() == m_view->currentIndex().row()) {
            showDetails();
            updateActions();
        }
    });

    auto *left = new QWidget(this);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addLayout(buttons);
    ll->addWidget(m_view, 1);
    ll->addWidget(m_configLabel);
    ll->addWidget(buildLocalSlurm());

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(buildDetails());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *col = new QVBoxLayout(this);
    col->addWidget(split, 1);
}

QWidget *RemoteHostsPage::buildLocalSlurm()
{
    // This machine as a Slurm login node (SLURM_CONF of Ingot's environment honoured): shown once its clients answer.
    m_localSlurmBox = new QGroupBox(tr("Slurm cluster of this machine"), this);
    m_localSlurmBox->setVisible(false);
    auto *col = new QVBoxLayout(m_localSlurmBox);
    m_localSlurmText = valueLabel(m_localSlurmBox);
    auto *check = new QToolButton(m_localSlurmBox);
    check->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    check->setText(tr("Check"));
    check->setToolTip(tr("Ask this machine's Slurm clients (sinfo, scontrol, squeue) again"));
    check->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(check, &QToolButton::clicked, this, &RemoteHostsPage::askLocalSlurm);
    col->addWidget(m_localSlurmText);
    col->addWidget(check, 0, Qt::AlignLeft);
    return m_localSlurmBox;
}

void RemoteHostsPage::askLocalSlurm()
{
    if (m_localSlurm.isRunning())
        return;
    m_localSlurm = askSlurmCluster(this, makeLocalShell(), [this](const SlurmClusterState &state, const QString &error) {
        // Shown once a cluster answered here (slurm-client alone, with no controller, is no cluster); a controller
        // that stops answering later is said in its clients' words (all in the tooltip).
        m_localSlurmSeen = m_localSlurmSeen || (state.found && error.isEmpty());
        m_localSlurmBox->setVisible(m_localSlurmSeen);
        m_localSlurmText->setText(error.isEmpty() ? displayText(slurmClusterSummary(state)) : slurmNoAnswerText(error));
        m_localSlurmText->setToolTip(displayText(error));
        Q_EMIT localSlurmAnswered();
    });
}

QWidget *RemoteHostsPage::buildDetails()
{
    auto *pane = new QWidget(this);
    auto *col = new QVBoxLayout(pane);
    col->setContentsMargins(6, 0, 0, 0);
    m_title = new QLabel(pane);
    QFont f = m_title->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    m_title->setFont(f);
    m_title->setTextFormat(Qt::PlainText);
    m_stateText = valueLabel(pane);
    auto *connectRow = new QHBoxLayout;
    for (QAction *a : {m_connect, m_disconnect}) {
        auto *b = new QToolButton(pane);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        connectRow->addWidget(b);
    }
    connectRow->addStretch(1);

    m_resolvedBox = new QGroupBox(tr("What ssh resolves (ssh -G)"), pane);
    auto *form = new QFormLayout(m_resolvedBox);
    const std::pair<const char *, QString> fields[] = {
        {"hostname", tr("Host name:")},     {"user", tr("User:")},
        {"port", tr("Port:")},              {"identityfile", tr("Identity files:")},
        {"proxyjump", tr("Proxy jump:")},   {"knownhosts", tr("Known hosts file:")},
    };
    for (const auto &[key, label] : fields) {
        QLabel *v = valueLabel(m_resolvedBox);
        m_fields.insert(QLatin1String(key), v);
        form->addRow(label, v);
    }

    auto *cacheBox = new QGroupBox(tr("Compile cache on this host"), pane);
    auto *cl = new QVBoxLayout(cacheBox);
    m_cacheText = valueLabel(cacheBox);
    auto *cacheRow = new QHBoxLayout;
    for (QAction *a : {m_openCache, m_openFolder}) {
        auto *b = new QToolButton(cacheBox);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        cacheRow->addWidget(b);
    }
    cacheRow->addStretch(1);
    cl->addWidget(m_cacheText);
    cl->addLayout(cacheRow);

    col->addWidget(m_title);
    col->addWidget(m_stateText);
    col->addLayout(connectRow);
    auto *slurmBox = new QGroupBox(tr("Slurm cluster"), pane);
    auto *sl = new QVBoxLayout(slurmBox);
    m_slurmText = valueLabel(slurmBox);
    auto *slurmButton = new QToolButton(slurmBox);
    slurmButton->setDefaultAction(m_checkSlurm);
    slurmButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    sl->addWidget(m_slurmText);
    sl->addWidget(slurmButton, 0, Qt::AlignLeft);

    col->addWidget(m_resolvedBox);
    col->addWidget(cacheBox);
    col->addWidget(slurmBox);
    col->addStretch(1);
    return pane;
}

void RemoteHostsPage::setCheckIntervalMs(int ms)
{
    m_checkTimer->setInterval(ms);
}

void RemoteHostsPage::setRetryDelays(const QVector<int> &seconds)
{
    if (seconds.isEmpty())
        return;
    m_delays = seconds;
    for (RemoteHostSession *s : std::as_const(m_sessions))
        s->setRetryDelays(seconds);
}

QString RemoteHostsPage::currentHost() const
{
    return m_view->currentIndex().siblingAtColumn(0).data(RemoteHostsModel::HostTextRole).toString();
}

void RemoteHostsPage::selectHost(const QString &host)
{
    const QModelIndex i = m_model->indexOf(host);
    if (i.isValid())
        m_view->setCurrentIndex(i);
}

bool RemoteHostsPage::isBusy(const QString &host) const
{
    const RemoteHostSession *s = m_sessions.value(host);
    return s && s->isBusy();
}

bool RemoteHostsPage::isLookingUp() const
{
    for (const RemoteHostSession *s : m_sessions)
        if (s->isLookingUp())
            return true;
    return false;
}

void RemoteHostsPage::updateActions()
{
    const QString host = currentHost();
    const bool has = !host.isEmpty();
    const RemoteHostStatus st = m_model->status(host);
    const bool busy = isBusy(host);
    const bool lookingUp = isLookingUp();
    const QModelIndex cur = m_view->currentIndex();
    m_remove->setEnabled(has && !cur.siblingAtColumn(0).data(RemoteHostsModel::FromSshConfigRole).toBool());
    m_connect->setEnabled(has && !busy && st.state != State::Connected);
    m_connect->setText(st.state == State::Lost ? tr("Retry &now") : tr("&Connect"));
    m_disconnect->setEnabled(has && !busy && (st.state == State::Connected || st.state == State::Lost));
    m_openCache->setEnabled(has && !busy && !lookingUp);
    m_openFolder->setEnabled(has && !busy && !lookingUp);
    m_checkSlurm->setEnabled(has && !busy);
}

void RemoteHostsPage::showEvent(QShowEvent *e)
{
    QWidget::showEvent(e);
    if (!m_shownOnce) {
        m_shownOnce = true;
        reloadHosts();  // the first look finds masters already running (another Ingot, the CLI)
    } else {
        checkConnections();
    }
    askLocalSlurm();
    m_checkTimer->start();
}

void RemoteHostsPage::refreshSlurm()
{
    // While the page is shown, the clusters it shows are asked again now and then (nodes drain, queues move).
    askLocalSlurm();
    const QString host = currentHost();
    if (!host.isEmpty() && m_model->status(host).state == State::Connected && m_slurmTexts.contains(host)
        && !isBusy(host))
        session(host)->askSlurm();
}

void RemoteHostsPage::hideEvent(QHideEvent *e)
{
    QWidget::hideEvent(e);
    m_checkTimer->stop();
}

void RemoteHostsPage::reloadHosts()
{
    const QString config = RemoteHosts::sshConfigPath();
    m_configLabel->setText(tr("Hosts of %1 (and the files it includes) and hosts you added. ssh runs with your "
                              "config, keys and agent.")
                               .arg(displayName(config)));
    m_loading.discard();
    m_loading = runTask(this, [](TaskControl &) { return RemoteHosts::instance().hosts(); },
                        [this](const QVector<RemoteHostEntry> &hosts) {
                            const QString keep = currentHost();
                            m_resolvedFor = QStringLiteral("\n");  // the config may have changed: resolve again
                            m_model->setHosts(hosts);
                            selectHost(keep.isEmpty() && !hosts.isEmpty() ? hosts.first().name : keep);
                            showDetails();
                            updateActions();
                            Q_EMIT hostsReloaded();
                            m_firstCheck = true;
                            checkConnections();
                        });
}

bool RemoteHostsPage::addHost(const QString &text, QString *error)
{
    const QString name = text.trimmed();
    SshHost host;
    QString why;
    if (!parseSshHost(name, &host, &why)) {
        if (error)
            *error = why;
        return false;
    }
    AppSettings::addRemoteHost(name);
    // Listed at once; the reload that follows puts it in its place (after the ssh config's hosts).
    QVector<RemoteHostEntry> hosts;
    for (int i = 0; i < m_model->hostCount(); ++i)
        hosts << *m_model->entry(i);
    if (!m_model->indexOf(name).isValid())
        hosts << RemoteHostEntry{name, host, false};
    m_model->setHosts(hosts);
    selectHost(name);
    reloadHosts();
    notifyHostsChanged();
    Q_EMIT statusChanged(tr("Added %1.").arg(displayName(name)), false);
    return true;
}

void RemoteHostsPage::showAddHostDialog()
{
    auto *dlg = new QDialog(this);
    dlg->setObjectName(QStringLiteral("addHostDialog"));
    dlg->setWindowTitle(tr("Add a remote host"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    auto *edit = new QLineEdit(dlg);
    edit->setPlaceholderText(tr("trn1-dev, ubuntu@10.0.0.5 or ubuntu@trn1.example.com:2222"));
    auto *hint = new QLabel(tr("An alias of your ssh config, a host name, user@host or user@host:port. Ingot connects "
                               "with ssh, so your config, keys, agent and ProxyJump apply."),
                            dlg);
    hint->setWordWrap(true);
    auto *problem = new QLabel(dlg);
    problem->setObjectName(QStringLiteral("problem"));
    problem->setWordWrap(true);
    problem->setTextFormat(Qt::PlainText);
    problem->setStyleSheet(QStringLiteral("color: %1;").arg(toneTextColor(Tone::Bad).name()));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dlg);
    QPushButton *ok = buttons->button(QDialogButtonBox::Ok);
    ok->setText(tr("Add"));
    ok->setEnabled(false);
    connect(edit, &QLineEdit::textChanged, dlg, [edit, problem, ok] {
        SshHost h;
        QString why;
        const bool valid = parseSshHost(edit->text().trimmed(), &h, &why);
        ok->setEnabled(valid);
        problem->setText(valid || edit->text().isEmpty() ? QString() : why);
    });
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dlg, [this, dlg, edit, problem] {
        QString why;
        if (addHost(edit->text(), &why))
            dlg->accept();
        else
            problem->setText(why);
    });
    auto *col = new QVBoxLayout(dlg);
    col->addWidget(new QLabel(tr("Host:"), dlg));
    col->addWidget(edit);
    col->addWidget(hint);
    col->addWidget(problem);
    col->addWidget(buttons);
    dlg->resize(460, dlg->sizeHint().height());
    dlg->open();
}

bool RemoteHostsPage::removeHost(const QString &host)
{
    const QModelIndex i = m_model->indexOf(host);
    if (!i.isValid() || i.data(RemoteHostsModel::FromSshConfigRole).toBool())
        return false;
    AppSettings::removeRemoteHost(host);
    if (RemoteHostSession *s = m_sessions.take(host))
        s->deleteLater();
    m_cacheTexts.remove(host);
    QVector<RemoteHostEntry> hosts;
    for (int r = 0; r < m_model->hostCount(); ++r)
        if (m_model->entry(r)->name != host)
            hosts << *m_model->entry(r);
    m_model->setHosts(hosts);
    if (!hosts.isEmpty())
        selectHost(hosts.first().name);
    showDetails();
    updateActions();
    notifyHostsChanged();
    Q_EMIT statusChanged(tr("Removed %1 from the list; its master connection, if any, ends by itself.")
                             .arg(displayName(host)),
                         false);
    return true;
}

void RemoteHostsPage::setHostStatus(const QString &host, const RemoteHostStatus &status)
{
    if (m_model->status(host) == status)
        return;
    m_model->setStatus(host, status);
    updateActions();
    Q_EMIT hostStatusChanged(host, status);
}

// What ssh -G says about the selected host, its state in sentences, and where its cache is.
void RemoteHostsPage::showDetails()
{
    const QString host = currentHost();
    m_title->setText(host.isEmpty() ? tr("No host selected") : displayName(host));
    const RemoteHostStatus st = m_model->status(host);
    m_stateText->setText(host.isEmpty() ? tr("Add a host, or add Host entries to your ssh config.")
                                        : st.detail.isEmpty() ? remoteStateText(st)
                                                              : remoteStateText(st) + QStringLiteral("\n\n") + st.detail);
    m_cacheText->setText(m_cacheTexts.value(
        host, tr("Not looked up yet. \"Open compile cache\" asks the host where its Neuron tools keep the cache.")));
    m_slurmText->setText(m_slurmTexts.value(host, tr("Asked once the host is connected.")));
    if (host == m_resolvedFor)
        return;  // ssh -G already ran for this host (states change often; the config does not)
    m_resolvedFor = host;
    m_resolvedBox->setTitle(host.isEmpty() ? tr("What ssh resolves (ssh -G)")
                                           : tr("What ssh resolves (ssh -G %1)").arg(displayName(host)));
    for (QLabel *l : std::as_const(m_fields))
        l->setText(host.isEmpty() ? QString() : tr("…"));
    const QModelIndex i = m_model->indexOf(host);
    if (!i.isValid())
        return;
    const SshHost sshHost = m_model->entry(i.row())->host;
    m_resolving.discard();
    m_resolving = runTask(
        this,
        [sshHost](TaskControl &) {
            std::pair<SshResolved, QString> out;
            if (!resolveSshHost(SshClientConfig::fromSettings(), sshHost, &out.first, &out.second) && out.second.isEmpty())
                out.second = tr("ssh -G failed.");
            return out;
        },
        [this, host](const std::pair<SshResolved, QString> &r) {
            if (host != currentHost())
                return;
            if (!r.second.isEmpty()) {
                for (QLabel *l : std::as_const(m_fields))
                    l->clear();
                m_fields.value(QStringLiteral("hostname"))->setText(displayText(r.second));
                return;
            }
            const SshResolved &s = r.first;
            auto names = [](const QStringList &list) {
                QStringList out;
                for (const QString &x : list)
                    out << displayName(x);
                return out.join(QLatin1Char('\n'));
            };
            m_fields.value(QStringLiteral("hostname"))->setText(displayName(s.hostname));
            m_fields.value(QStringLiteral("user"))->setText(displayName(s.user));
            m_fields.value(QStringLiteral("port"))->setText(QString::number(s.port));
            m_fields.value(QStringLiteral("identityfile"))->setText(names(s.identityFiles));
            m_fields.value(QStringLiteral("proxyjump"))->setText(s.proxyJump.isEmpty() ? tr("none")
                                                                                       : displayName(s.proxyJump));
            QString known = names(s.userKnownHostsFiles);
            if (!s.hostKeyAlias.isEmpty())
                known += tr("\n(keys recorded as %1)").arg(displayName(s.hostKeyAlias));
            m_fields.value(QStringLiteral("knownhosts"))->setText(known);
        });
}

// The session of a listed host, made on first use; the page shows what it says.
RemoteHostSession *RemoteHostsPage::session(const QString &host)
{
    if (RemoteHostSession *s = m_sessions.value(host))
        return s;
    auto *s = new RemoteHostSession(host, this);
    m_sessions.insert(host, s);
    s->setRetryDelays(m_delays);
    s->setAskPassFactory([this, host]() -> std::shared_ptr<AskPass> {
        auto ask = std::make_shared<GuiAskPass>(this, host);
        m_askPasses.removeIf([](const std::weak_ptr<GuiAskPass> &w) { return w.expired(); });
        m_askPasses << ask;
        return ask;
    });
    connect(s, &RemoteHostSession::statusChanged, this, [this, s, host](const RemoteHostSession::Status &st) {
        setHostStatus(host, listStatus(st));
        // Once connected, the host is asked whether it is a Slurm login node (one round trip).
        if (st.state == RemoteHostSession::State::Connected && !m_slurmTexts.contains(host)) {
            m_slurmTexts.insert(host, tr("Asking whether %1 runs Slurm…").arg(displayName(host)));
            s->askSlurm();
        }
    });
    connect(s, &RemoteHostSession::slurmAnswered, this, [this, host](const SlurmClusterState &state, const QString &error) {
        m_slurmTexts.insert(host, error.isEmpty() ? displayText(slurmClusterSummary(state)) : slurmNoAnswerText(error));
        if (host == currentHost())
            m_slurmText->setToolTip(displayText(error));
        if (host == currentHost())
            m_slurmText->setText(m_slurmTexts.value(host));
    });
    connect(s, &RemoteHostSession::busyChanged, this, &RemoteHostsPage::updateActions);
    connect(s, &RemoteHostSession::message, this, &RemoteHostsPage::statusChanged);
    connect(s, &RemoteHostSession::reconnected, this, [this, host] { Q_EMIT hostReconnected(host); });
    connect(s, &RemoteHostSession::hostKeyOffered, this, [this, s, host](const HostKeyOffer &offer) {
        auto *dlg = new HostKeyDialog(host, offer, this);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        connect(dlg, &QDialog::finished, s, [s, offer](int result) {
            if (result == QDialog::Accepted)
                s->trustHostKey(offer);
            else
                s->rejectHostKey();
        });
        dlg->open();
    });
    connect(s, &RemoteHostSession::hostKeyChanged, this,
            [this, host](const QString &name, const QString &file, const QString &text) {
                showHostKeyChanged(this, host, name, file, text);
            });
    connect(s, &RemoteHostSession::compileCacheFound, this, [this, host](const CacheLocation &loc) {
        const QString text = displayText(loc.explanation);  // which rule won there (and --no_cache, if set)
        if (loc.kind == CacheLocation::Kind::S3) {
            // The host's runtime uses an S3 cache: read there by the host's own AWS CLI with the host's keys, which
            // never leave it (and none are asked of it).
            const QString why = text + QStringLiteral("\n\n")
                                + tr("%1's runtime uses this S3 cache. Ingot reads it on %1 with %1's own AWS CLI and keys; "
                                     "no key leaves the host. File > Open an S3 cache reads it from here with this "
                                     "machine's keys instead.")
                                      .arg(displayName(host));
            m_cacheTexts.insert(host, why);
            showDetails();
            updateActions();
            Q_EMIT openCacheRequested({s3::hostS3StoreKind(), host, loc.path}, why);
            return;
        }
        showCache(host, loc.path, text);
    });
    connect(s, &RemoteHostSession::folderFound, this, [this, host](const QString &path) {
        showCache(host, path, tr("A folder you chose on %1.").arg(displayName(host)));
    });
    connect(s, &RemoteHostSession::lookupFailed, this,
            [this, host](const QString &text, RemoteHostSession::FolderProblem problem) {
                failCacheLookup(host, text, problem);
            });
    return s;
}

void RemoteHostsPage::connectHost(const QString &host)
{
    if (!host.isEmpty())
        session(host)->connectToHost();
}

void RemoteHostsPage::disconnectHost(const QString &host)
{
    if (!host.isEmpty())
        session(host)->disconnectFromHost();
}

void RemoteHostsPage::checkConnections()
{
    const bool first = std::exchange(m_firstCheck, false);
    for (const QString &host : m_model->hostNames())
        session(host)->checkConnection(first);  // the first look finds masters already running
}

void RemoteHostsPage::noteConnectionTrouble(const QString &host)
{
    if (RemoteHostSession *s = m_sessions.value(host))
        s->noteTrouble();
}

// One lookup at a time on the page: a new one drops the answer of the one before.
void RemoteHostsPage::cancelLookups()
{
    for (RemoteHostSession *s : std::as_const(m_sessions))
        s->cancelLookup();
}

void RemoteHostsPage::openCompileCache(const QString &host)
{
    if (host.isEmpty())
        return;
    cancelLookups();
    session(host)->lookupCompileCache();
    updateActions();
}

void RemoteHostsPage::openFolderOnHost(const QString &host, const QString &path)
{
    if (host.isEmpty() || path.isEmpty())
        return;
    cancelLookups();
    session(host)->checkFolder(path);
    updateActions();
}

void RemoteHostsPage::showCache(const QString &host, const QString &path, const QString &text)
{
    m_cacheTexts.insert(host, tr("%1\n\nCache: %2").arg(text, displayName(path)));
    m_lastFolder.insert(host, path);
    showDetails();
    updateActions();
    Q_EMIT statusChanged(tr("Opening %1:%2…").arg(displayName(host), displayName(path)), false);
    Q_EMIT openCacheRequested(sshStoreLocation(host, path), text);
}

void RemoteHostsPage::failCacheLookup(const QString &host, const QString &text, RemoteHostSession::FolderProblem problem)
{
    m_cacheTexts.insert(host, text);
    if (host == currentHost())
        m_cacheText->setText(text);
    updateActions();
    using P = RemoteHostSession::FolderProblem;
    if (problem == P::None || problem == P::NotChecked)
        return;
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Open a folder on %1").arg(displayName(host)), text,
                                QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("folderProblem"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void RemoteHostsPage::showOpenFolderDialog()
{
    const QString host = currentHost();
    if (host.isEmpty())
        return;
    auto *dlg = new QInputDialog(this);
    dlg->setObjectName(QStringLiteral("openFolderDialog"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setWindowTitle(tr("Open a folder on %1").arg(displayName(host)));
    dlg->setLabelText(tr("A compile cache folder on %1 (an absolute path, or ~/…):").arg(displayName(host)));
    dlg->setTextValue(m_lastFolder.value(host, CacheLocation::defaultPath()));
    dlg->resize(480, dlg->sizeHint().height());
    connect(dlg, &QInputDialog::textValueSelected, this,
            [this, host](const QString &path) { openFolderOnHost(host, path.trimmed()); });
    dlg->open();
}

}  // namespace ingot
